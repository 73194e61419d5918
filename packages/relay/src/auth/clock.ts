import { RelayError } from '../errors.js';
import { describe } from './arguments.js';

/**
 * Whole unix seconds: `now` truncated (Python's `int(time.time())`), or the current time when `now` is
 * undefined. Throws a `RelayError` `relay_token_invalid_argument` for a negative, non-finite or non-number
 * `now`.
 */
export function unixSeconds(now: number | undefined): number {
  if (now === undefined) return Math.floor(Date.now() / 1000);
  if (typeof now !== 'number' || !Number.isFinite(now) || now < 0 || now > Number.MAX_SAFE_INTEGER) {
    throw new RelayError(
      'relay_token_invalid_argument',
      `now must be a finite, non-negative number of unix seconds, got ${typeof now === 'number' ? now : describe(now)}`,
      { path: 'now' },
    );
  }
  return Math.floor(now);
}
