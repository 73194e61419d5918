/** What an {@link EncodingError} refused. */
export type EncodingErrorCode =
  | 'invalid_base64'
  | 'invalid_base64url'
  | 'invalid_base32'
  | 'invalid_hex'
  | 'invalid_bytes';

/**
 * Thrown when text is not in the encoding a decoder accepts, or when an encoder is given something
 * other than a `Uint8Array`. `code` names the encoding; the message names the offending position.
 */
export class EncodingError extends Error {
  override readonly name = 'EncodingError';
  readonly code: EncodingErrorCode;

  constructor(code: EncodingErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/** Throws `invalid_bytes` unless `value` is a `Uint8Array`. */
export function assertBytes(value: unknown, what: string): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) {
    throw new EncodingError('invalid_bytes', `${what} expects a Uint8Array, got ${describeType(value)}`);
  }
}

/** Throws `code` unless `value` is a string. */
export function assertText(value: unknown, code: EncodingErrorCode, what: string): asserts value is string {
  if (typeof value !== 'string')
    throw new EncodingError(code, `${what} expects a string, got ${describeType(value)}`);
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? (value.constructor?.name ?? 'an object') : typeof value;
}
