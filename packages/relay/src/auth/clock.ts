import { describe } from './arguments.js';
import { RelayTokenArgumentError } from './errors.js';

/**
 * Whole unix seconds: `now` truncated (Python's `int(time.time())`), or the current time when `now` is
 * undefined. Throws {@link RelayTokenArgumentError} for a negative, non-finite or non-number `now`.
 */
export function unixSeconds(now: number | undefined): number {
  if (now === undefined) return Math.floor(Date.now() / 1000);
  if (typeof now !== 'number' || !Number.isFinite(now) || now < 0 || now > Number.MAX_SAFE_INTEGER) {
    throw new RelayTokenArgumentError(
      `now must be a finite, non-negative number of unix seconds, got ${typeof now === 'number' ? now : describe(now)}`,
      'now',
    );
  }
  return Math.floor(now);
}
