import { bufferedFrameProblem, checkBufferedFrame } from './check-arguments.js';
import { CorruptBufferedFrameError } from './errors.js';
import type { BufferedFrame } from './inbound-buffer.js';

/**
 * Checks a frame given to `append` and writes it as the JSON text a buffer stores (keys in the order
 * given). Buffer implementations store this text and give it to {@link decodeBufferedFrame} on read,
 * so every read returns a fresh copy.
 *
 * @throws {InvalidInboundBufferArgumentError} `invalid_buffer_argument`: not a `BufferedFrame` of plain JSON data.
 */
export function encodeBufferedFrame(frame: BufferedFrame): string {
  return JSON.stringify(checkBufferedFrame(frame));
}

/**
 * Reads back a frame written by {@link encodeBufferedFrame}.
 *
 * @throws {CorruptBufferedFrameError} `corrupt_buffered_frame`: the text is not such a frame.
 */
export function decodeBufferedFrame(text: string): BufferedFrame {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CorruptBufferedFrameError('a stored frame is not JSON', '', { cause: error });
  }
  const problem = bufferedFrameProblem(value);
  if (problem !== undefined) throw new CorruptBufferedFrameError(`a stored ${problem.message}`, problem.path);
  return value as BufferedFrame;
}
