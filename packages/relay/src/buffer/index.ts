export { checkBufferedFrame, checkBufferTenant, checkReadLimit } from './check-arguments.js';
export { canonicalBufferedFrameJson, decodeBufferedFrame, encodeBufferedFrame } from './frame-codec.js';
export { InMemoryInboundBuffer } from './in-memory-inbound-buffer.js';
export type { BufferedEntry, BufferedFrame, InboundBuffer } from './inbound-buffer.js';
