import { invalidTimestamp } from './errors.js';

/** RFC 3339 UTC with `Z` and at most millisecond precision (contract §1.1). */
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?Z$/;

/** The largest time `Date` represents, in milliseconds either side of the epoch. */
const MAX_DATE_MS = 8.64e15;

/**
 * Formats a time (milliseconds since the epoch) as a contract timestamp with whole seconds,
 * `2026-05-26T08:14:22Z`: sub-second parts are dropped (rounded down), as the reference does.
 *
 * @throws {HearthNetLocalError} `invalid_timestamp` for a time that is not a finite number inside years
 *   0000–9999.
 * @example
 * formatTimestamp(Date.UTC(2026, 4, 26, 8, 14, 22, 999)); // '2026-05-26T08:14:22Z'
 */
export function formatTimestamp(timeMs: number): string {
  if (typeof timeMs !== 'number' || !Number.isFinite(timeMs) || Math.abs(timeMs) > MAX_DATE_MS) {
    throw invalidTimestamp(timeMs, 'a time must be a finite number of milliseconds');
  }
  const text = new Date(Math.floor(timeMs / 1000) * 1000).toISOString();
  if (!/^\d{4}-/.test(text)) throw invalidTimestamp(timeMs, 'the year must be between 0000 and 9999');
  return `${text.slice(0, 19)}Z`;
}

/**
 * Reads a contract timestamp (RFC 3339, UTC `Z`, at most three fraction digits) as milliseconds since
 * the epoch. Offsets other than `Z`, lower-case `t`/`z`, more fraction digits and impossible dates
 * (`2026-02-30`, hour 24, leap seconds) are refused.
 *
 * @throws {HearthNetLocalError} `invalid_timestamp`
 * @example
 * parseTimestamp('2026-05-26T08:14:22.281Z'); // 1779783262281
 */
export function parseTimestamp(text: string): number {
  const timeMs = tryParseTimestamp(text);
  if (timeMs === undefined) {
    throw invalidTimestamp(text, 'expected an RFC 3339 UTC timestamp such as 2026-05-26T08:14:22Z');
  }
  return timeMs;
}

/** {@link parseTimestamp} without the throw: `undefined` for anything that is not a contract timestamp. */
export function tryParseTimestamp(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const match = TIMESTAMP.exec(text);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const millis = match[7] === undefined ? 0 : Number(match[7].padEnd(3, '0'));
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  const same =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  return same ? date.getTime() : undefined;
}
