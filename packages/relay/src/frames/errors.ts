import { RelayError } from '../errors.js';
/** Why a wire line or value is not a usable relay frame. */
export type FrameErrorCode =
  | 'malformed_json'
  | 'not_object'
  | 'invalid_frame'
  | 'unencodable_frame'
  | 'line_too_long'
  | 'invalid_utf8'
  | 'incomplete_frame';

/**
 * Base class of every frame codec error: catch this to handle them all. `code` says which condition
 * failed, `path` where (a JSON path such as `$.action.chat_id`, `$` for the whole line).
 */
export abstract class FrameError extends RelayError {
  abstract override readonly name: string;
  abstract override readonly code: FrameErrorCode;

  /** `path`: where it failed, as a JSON path; `$` is the whole frame or line. */
  constructor(message: string, path: string, options?: ErrorOptions) {
    super(path === '$' ? message : `${message} at ${path}`, path, options);
  }
}

/**
 * A line (or string passed to a decoder) is not JSON. The gateway logs "skipping malformed frame"
 * and goes on; so does `FrameDecoder`. Python's reader also accepts the non-standard literals
 * `NaN`, `Infinity` and `-Infinity`, which are reported here as malformed.
 */
export class FrameSyntaxError extends FrameError {
  override readonly name = 'FrameSyntaxError';
  readonly code = 'malformed_json';

  constructor(message: string, options?: ErrorOptions) {
    super(message, '$', options);
  }
}

/**
 * A line is valid JSON but not an object (an array, string, number, boolean or null). The gateway's
 * reader crashes on such a line and stops reading the socket; this codec reports it and goes on.
 */
export class FrameNotObjectError extends FrameError {
  override readonly name = 'FrameNotObjectError';
  readonly code = 'not_object';
  /** The decoded JSON value. */
  readonly value: unknown;

  constructor(value: unknown) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    super(`a relay frame must be a JSON object, got ${kind}`, '$');
    this.value = value;
  }
}

/**
 * An object names a known frame `type` (or action `op`) but a field is missing or has the wrong type.
 * `raw` keeps the object, so a connector can still answer an `outbound` it cannot read by its
 * `requestId`.
 */
export class FrameValidationError extends FrameError {
  override readonly name = 'FrameValidationError';
  readonly code = 'invalid_frame';
  /** The frame `type` the object claimed. */
  readonly frameType: string;
  /** The object as received. */
  readonly raw: Readonly<Record<string, unknown>>;

  constructor(
    frameType: string,
    path: string,
    reason: string,
    raw: Readonly<Record<string, unknown>>,
    options?: ErrorOptions,
  ) {
    super(`invalid ${frameType} frame: ${reason}`, path, options);
    this.frameType = frameType;
    this.raw = raw;
  }
}

/**
 * A frame cannot be written as JSON: it holds a non-finite number, a bigint, a cycle, or a value that
 * is not plain JSON data (`undefined` in an array, a function, a class instance in the Python style).
 */
export class FrameEncodeError extends FrameError {
  override readonly name = 'FrameEncodeError';
  readonly code = 'unencodable_frame';
}
