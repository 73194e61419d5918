/** Throws a `RelayError` `relay_token_invalid_argument` unless `value` is a string. */
import { RelayError } from '../errors.js';
export function assertString(value: unknown, path: string): asserts value is string {
  if (typeof value !== 'string') {
    throw new RelayError('relay_token_invalid_argument', `${path} must be a string, got ${describe(value)}`, {
      path,
    });
  }
}

/** A short description of a value's type for error messages. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/**
 * Throws a `RelayError` `relay_token_invalid_argument` unless `value` is a safe integer (at least `min` when
 * given).
 */
export function assertSafeInteger(value: unknown, path: string, min?: number): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || (min !== undefined && value < min)) {
    const range = min === undefined ? 'a safe integer' : `a safe integer ≥ ${min}`;
    throw new RelayError(
      'relay_token_invalid_argument',
      `${path} must be ${range}, got ${typeof value === 'number' ? value : describe(value)}`,
      { path },
    );
  }
}
