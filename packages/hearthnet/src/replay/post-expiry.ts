import { formatTimestamp, parseTimestamp } from '../manifests/timestamps.js';

/** The longest `ttl_seconds` a post may have: 30 days (contract §4.12). */
export const MAX_POST_TTL_SECONDS = 30 * 86_400;

/** The latest instant a contract timestamp can write: 9999-12-31T23:59:59.999Z. */
const MAX_TIMESTAMP_MS = 253_402_300_799_999;

/** When a post made at `createdAt` with `ttlSeconds` ends, in ms; undefined when the TTL is out of range. */
export function postExpiryMs(createdAt: string, ttlSeconds: number): number | undefined {
  if (ttlSeconds > MAX_POST_TTL_SECONDS) return undefined;
  const expiresAt = parseTimestamp(createdAt) + ttlSeconds * 1000;
  return expiresAt <= MAX_TIMESTAMP_MS ? expiresAt : undefined;
}

/** A time in ms as a contract timestamp: whole seconds when it has no milliseconds, else with three digits. */
export function formatInstant(timeMs: number): string {
  return timeMs % 1000 === 0 ? formatTimestamp(timeMs) : new Date(timeMs).toISOString();
}
