export { pythonJsonDumps } from '../python/json-dumps.js';
export { type EncodableFrame, type EncodeFrameOptions, encodeFrame, type FrameJsonStyle } from './encode.js';
export {
  DEFAULT_MAX_LINE_BYTES,
  FrameDecoder,
  type FrameDecoderOptions,
  type FrameDecoderResult,
} from './frame-decoder.js';
