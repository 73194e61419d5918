import { RelayError, type RelayErrorDetails } from '../errors.js';

/**
 * The `RelayError` codes of a wire line or value that is not a usable relay frame; `path` says where
 * (a JSON path such as `$.action.chat_id`, `$` for the whole line):
 * - `malformed_json`: a line (or string passed to a decoder) is not JSON. The gateway logs "skipping
 *   malformed frame" and goes on; so does `FrameDecoder`. Python's reader also accepts the non-standard
 *   literals `NaN`, `Infinity` and `-Infinity`, which are reported here as malformed;
 * - `not_object`: valid JSON but not an object (`details.value`). The gateway's reader crashes on such a
 *   line and stops reading the socket; the codec reports it and goes on;
 * - `invalid_frame`: an object names a known frame `type` (or action `op`) but a field is missing or has
 *   the wrong type; `details.frameType` and `details.raw` (the object, so a connector can still answer
 *   an `outbound` it cannot read by its `requestId`);
 * - `unencodable_frame`: a frame cannot be written as JSON (a non-finite number, a bigint, a cycle, a
 *   value that is not plain JSON data);
 * - `line_too_long`: a line grew past the decoder's `maxLineBytes` (`details.maxLineBytes`); reported
 *   once, the rest of the line is discarded and decoding resumes after the next `\n`;
 * - `invalid_utf8`: a line received as bytes is not valid UTF-8; the line is skipped;
 * - `incomplete_frame`: the stream ended inside a frame (`details.bufferedBytes`); the gateway never
 *   processes a frame that lacks its terminating newline.
 */
export type FrameErrorCode =
  | 'malformed_json'
  | 'not_object'
  | 'invalid_frame'
  | 'unencodable_frame'
  | 'line_too_long'
  | 'invalid_utf8'
  | 'incomplete_frame';

const FRAME_ERROR_CODES: ReadonlySet<string> = new Set<FrameErrorCode>([
  'malformed_json',
  'not_object',
  'invalid_frame',
  'unencodable_frame',
  'line_too_long',
  'invalid_utf8',
  'incomplete_frame',
]);

/** Whether `error` is a frame codec refusal. */
export function isFrameError(error: unknown): error is RelayError {
  return error instanceof RelayError && FRAME_ERROR_CODES.has(error.code);
}

/** A frame codec refusal at `path`; the message names the path unless it is the whole frame (`$`). */
export function frameError(
  code: FrameErrorCode,
  message: string,
  path: string,
  options: { readonly details?: RelayErrorDetails; readonly cause?: unknown } = {},
): RelayError {
  return new RelayError(code, path === '$' ? message : `${message} at ${path}`, { ...options, path });
}

/** `not_object`: `value` is valid JSON but not an object. */
export function frameNotObjectError(value: unknown): RelayError {
  const kind = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return frameError('not_object', `a relay frame must be a JSON object, got ${kind}`, '$', {
    details: { value },
  });
}
