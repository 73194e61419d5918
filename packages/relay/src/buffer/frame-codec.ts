import { RelayError } from '../errors.js';
import { bufferedFrameProblem, checkBufferedFrame } from './check-arguments.js';
import type { BufferedFrame } from './inbound-buffer.js';

/**
 * Checks a frame given to `append` and writes it as the JSON text a buffer stores and `read` returns:
 * `{"type":…,"event":…}` or `{"type":…,"forward":…}` (the payload's keys in the order given).
 *
 * @throws {RelayError} `invalid_buffer_argument`: not a `BufferedFrame` of plain JSON data.
 * @example
 * encodeBufferedFrame({ type: 'inbound', event: { text: 'hi' } }); // '{"type":"inbound","event":{"text":"hi"}}'
 */
export function encodeBufferedFrame(frame: BufferedFrame): string {
  return writeChecked(checkBufferedFrame(frame));
}

/**
 * Reads back a frame written by {@link encodeBufferedFrame}.
 *
 * @throws {RelayError} `corrupt_buffered_frame`: the text is not such a frame.
 */
export function decodeBufferedFrame(text: string): BufferedFrame {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new RelayError('corrupt_buffered_frame', 'a stored frame is not JSON', { cause: error });
  }
  const problem = bufferedFrameProblem(value);
  if (problem !== undefined)
    throw new RelayError('corrupt_buffered_frame', `a stored ${problem.message}`, { path: problem.path });
  return value as BufferedFrame;
}

/**
 * Checks stored text that a buffer cannot trust (a shared store other writers reach) and returns it
 * as {@link encodeBufferedFrame} writes it: the text itself when it already is, else re-encoded.
 *
 * @throws {RelayError} `corrupt_buffered_frame`: the text is not a buffered frame.
 */
export function canonicalBufferedFrameJson(text: string): string {
  const canonical = writeChecked(decodeBufferedFrame(text));
  return canonical === text ? text : canonical;
}

/**
 * One `JSON.stringify` of a fresh `{ type, payload }` object: the same text as joining the payload's
 * JSON into the frame, but one flat string, which replay reads without copying it first.
 */
function writeChecked(frame: BufferedFrame): string {
  return frame.type === 'inbound'
    ? JSON.stringify({ type: 'inbound', event: frame.event })
    : JSON.stringify({ type: 'passthrough_forward', forward: frame.forward });
}
