import { HearthNetLocalError, type HearthNetLocalErrorCode } from '../errors.js';

/** Throws `invalid_bytes` unless `value` is a `Uint8Array`. */
export function assertBytes(value: unknown, what: string): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) {
    throw new HearthNetLocalError(
      'invalid_bytes',
      `${what} expects a Uint8Array, got ${describeType(value)}`,
    );
  }
}

/** Throws `code` unless `value` is a string. */
export function assertText(
  value: unknown,
  code: HearthNetLocalErrorCode,
  what: string,
): asserts value is string {
  if (typeof value !== 'string')
    throw new HearthNetLocalError(code, `${what} expects a string, got ${describeType(value)}`);
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? (value.constructor?.name ?? 'an object') : typeof value;
}
