import { z } from 'zod';
import { storageValidationError } from './errors.js';

/**
 * The first value {@link unixSecondsSchema} refuses: 10^11 seconds is the year 5138, while any unix-ms
 * timestamp since March 1973 is above it — so a millisecond value handed to a seconds field is caught.
 */
export const UNIX_SECONDS_LIMIT = 1e11;

/**
 * A storage-side timestamp: unix **seconds** (`created_at`, `updated_at`, `status_changed_at`,
 * `changed_at`, `since`, `expires_at`), unlike the agent side, whose timestamps are milliseconds.
 * A finite number in `[0, 1e11)`; stores write whole seconds (see {@link unixSeconds}).
 */
export const unixSecondsSchema = z
  .number()
  .min(0)
  .lt(UNIX_SECONDS_LIMIT, 'must be unix seconds (a value this large is milliseconds)');

/**
 * The whole unix seconds of an epoch-millisecond time, rounded down: the timestamp a store writes.
 *
 * @param epochMs - milliseconds since the epoch; the current time when omitted.
 * @throws {AgentConnectorError} `storage_validation`: when `epochMs` is not a finite number.
 * @example
 * unixSeconds(1_700_000_000_999); // 1700000000
 */
export function unixSeconds(epochMs: number = Date.now()): number {
  if (typeof epochMs !== 'number' || !Number.isFinite(epochMs)) {
    throw storageValidationError('must be a finite number of milliseconds', 'epochMs');
  }
  return Math.floor(epochMs / 1000);
}
