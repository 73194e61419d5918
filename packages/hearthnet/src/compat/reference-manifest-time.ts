/** ISO 8601 dates as Python's `datetime.fromisoformat` reads them: extended `YYYY-MM-DD` or basic `YYYYMMDD`. */
const EXTENDED_DATE = /^(\d{4})-(\d{2})-(\d{2})/;
const BASIC_DATE = /^(\d{4})(\d{2})(\d{2})/;
/**
 * `HH[:MM[:SS]]` or `HH[MM[SS]]` (one separator style throughout), then an optional fraction of at least one
 * digit after `.` or `,` — after the hour or the minute too, as CPython's parser allows.
 */
const EXTENDED_TIME = /^(\d{2})(?::(\d{2})(?::(\d{2}))?)?(?:[.,](\d+))?$/;
const BASIC_TIME = /^(\d{2})(?:(\d{2})(\d{2})?)?(?:[.,](\d+))?$/;

const MICROS_PER_MS = 1000;

/**
 * Reads a manifest `expires_at` as the reference's `_parse_rfc3339` does (`identity/manifest.py`): trailing
 * `Z`s stripped, the text cut at the first `+`, the rest read by `datetime.fromisoformat` as UTC. So
 * `2026-05-26 08:14:52`, `2026-05-26T08:14Z`, `2026-05-26`, `20260526T081452` and fractions of any length
 * (`,` or `.`, cut to microseconds) are read like `2026-05-26T08:14:52Z`. Stricter than the reference:
 * ISO week dates and `-hh:mm` offsets (which the reference would read as if they were UTC) are refused.
 *
 * @returns milliseconds since the epoch, rounded up when the time has a sub-millisecond part (so that
 *   `now >= result` for a whole-millisecond `now` is the reference's `now >= expires_at`), or `undefined`.
 */
export function readReferenceManifestTime(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const local = text.replace(/Z+$/, '').split('+')[0] ?? '';
  const date = EXTENDED_DATE.exec(local) ?? (local.charAt(4) === '-' ? null : BASIC_DATE.exec(local));
  if (date === null) return undefined;
  const [, year, month, day] = date.map(Number) as [number, number, number, number];
  // Any one character (a code point) separates the date from the time, as in CPython.
  const rest = Array.from(local.slice(date[0].length));
  let hour = 0;
  let minute = 0;
  let second = 0;
  let micros = 0;
  if (rest.length > 0) {
    const clock = rest.slice(1).join('');
    const time = (clock.charAt(2) === ':' ? EXTENDED_TIME : BASIC_TIME).exec(clock);
    if (rest.length < 2 || time === null) return undefined;
    hour = Number(time[1]);
    minute = Number(time[2] ?? 0);
    second = Number(time[3] ?? 0);
    micros = Number((time[4] ?? '').slice(0, 6).padEnd(6, '0'));
  }
  if (year < 1 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) {
    return undefined;
  }
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  if (utc.getUTCMonth() !== month - 1) return undefined; // 2026-02-30 rolled over
  utc.setUTCHours(hour, minute, second, Math.floor(micros / MICROS_PER_MS));
  return utc.getTime() + (micros % MICROS_PER_MS === 0 ? 0 : 1);
}
