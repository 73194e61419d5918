import { RelayError } from '../../errors.js';

/** Default and documented allowance between a signed timestamp and the clock: five minutes. */
export const DEFAULT_MAX_SKEW_SECONDS = 300;

/** A short description of a value's type for error messages. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/** Throws `invalid_argument` unless `value` is an object (the options bag). */
export function assertOptions(value: unknown): asserts value is object {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RelayError('invalid_argument', `options must be an object, got ${describe(value)}`, {
      path: 'options',
    });
  }
}

/** Throws `invalid_argument` unless `value` is a non-empty string. */
export function assertNonEmptyString(value: unknown, path: string): asserts value is string {
  if (typeof value !== 'string' || value === '') {
    const got = typeof value === 'string' ? 'an empty string' : describe(value);
    throw new RelayError('invalid_argument', `${path} must be a non-empty string, got ${got}`, { path });
  }
}

/** The allowed skew in whole seconds: `value`, or {@link DEFAULT_MAX_SKEW_SECONDS} when undefined. */
export function maxSkewSeconds(value: unknown): number {
  if (value === undefined) return DEFAULT_MAX_SKEW_SECONDS;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new RelayError(
      'invalid_argument',
      `maxSkewSeconds must be a safe integer ≥ 0, got ${typeof value === 'number' ? value : describe(value)}`,
      { path: 'maxSkewSeconds' },
    );
  }
  return value;
}

/** Whole unix seconds: `now` truncated, or the current time when undefined (`path` names the option). */
export function unixSeconds(now: unknown, path = 'now'): number {
  if (now === undefined) return Math.floor(Date.now() / 1000);
  if (typeof now !== 'number' || !Number.isFinite(now) || now < 0 || now > Number.MAX_SAFE_INTEGER) {
    throw new RelayError(
      'invalid_argument',
      `${path} must be a finite, non-negative number of unix seconds, got ${typeof now === 'number' ? now : describe(now)}`,
      { path },
    );
  }
  return Math.floor(now);
}
