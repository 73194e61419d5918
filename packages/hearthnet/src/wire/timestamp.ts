/** RFC 3339 UTC with `Z`, whole seconds or milliseconds (contract §1.1). */
const WIRE_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?Z$/;

/**
 * The `X-HearthNet-Timestamp` of a moment (contract §1.1, §5.1): RFC 3339 UTC with `Z`, whole
 * seconds, e.g. `2026-05-26T08:14:22Z` (the form the reference client sends too).
 *
 * @example
 * formatWireTimestamp(Date.UTC(2026, 4, 26, 8, 14, 22, 281)); // '2026-05-26T08:14:22Z'
 */
export function formatWireTimestamp(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 19)}Z`;
}

/**
 * The epoch milliseconds of a wire timestamp, or `undefined` when it is not RFC 3339 UTC with `Z`
 * and at most millisecond precision (contract §1.1: no offsets) or names no real date.
 */
export function parseWireTimestamp(text: string): number | undefined {
  const match = WIRE_TIMESTAMP.exec(text);
  if (match === null) return undefined;
  const [, year, month, day, hour, minute, second] = match.map(Number) as number[];
  const ms = match[7] === undefined ? 0 : Number(match[7].padEnd(3, '0'));
  const epochMs = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!, ms);
  const check = new Date(epochMs);
  const sameFields =
    check.getUTCFullYear() === year &&
    check.getUTCMonth() === month! - 1 &&
    check.getUTCDate() === day &&
    check.getUTCHours() === hour &&
    check.getUTCMinutes() === minute &&
    check.getUTCSeconds() === second;
  return sameFields ? epochMs : undefined;
}
