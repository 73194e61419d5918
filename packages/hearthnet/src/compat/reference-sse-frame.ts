import { HearthNetLocalError } from '../errors.js';
import { pythonAsciiJson } from './python-ascii-json.js';

const LINE_BREAK = /[\r\n]/;

/**
 * One SSE frame exactly as the reference's `encode_sse_frame(data, event)` writes it: an
 * `event: <name>` line when `event` is a non-empty string (Python's `if event:`), then
 * `data: <json>` and an empty line, separated by `\n`. The JSON is Python
 * `json.dumps(data, separators=(",", ":"))`: `ensure_ascii`, keys in insertion order (not sorted),
 * float `repr` ({@link PythonFloat} for integral floats). It never holds a raw line break.
 *
 * @throws {HearthNetLocalError} `invalid_reference_sse_frame` when `event` is not a string or holds a line
 *   break (the reference would write a frame no reader can split).
 * @throws {HearthNetLocalError} `python_json_unencodable` for data JSON cannot carry (a non-finite number, a
 *   cycle).
 * @example
 * encodeReferenceSseFrame({ text: 'Grüße', n: new PythonFloat(1) }); // 'data: {"text":"Gr\\u00fc\\u00dfe","n":1.0}\n\n'
 * encodeReferenceSseFrame({ done: true }, 'done'); // 'event: done\ndata: {"done":true}\n\n'
 */
export function encodeReferenceSseFrame(data: unknown, event?: string): string {
  if (event !== undefined && (typeof event !== 'string' || LINE_BREAK.test(event))) {
    throw new HearthNetLocalError(
      'invalid_reference_sse_frame',
      `an SSE event name must be a single line of text, got ${JSON.stringify(event)}`,
    );
  }
  const json = pythonAsciiJson(data, { sortKeys: false });
  return event ? `event: ${event}\ndata: ${json}\n\n` : `data: ${json}\n\n`;
}
