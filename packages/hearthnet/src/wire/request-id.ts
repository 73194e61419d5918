import { encodeUlid, MAX_ULID_TIME, ULID_RANDOM_BYTES } from '../events/ulid.js';

/** What we accept as a request id from a peer: printable ASCII without spaces, 1–128 characters. */
const REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/**
 * A fresh request id: a ULID (48-bit millisecond time + 80 random bits, Crockford base32, 26
 * characters), the `<trace_id_ulid>` of contract §5.1.
 *
 * @example
 * newRequestId(); // '01JH4Z3Q8M9X2V7K5T1C0RWEYD'
 */
export function newRequestId(epochMs: number = Date.now()): string {
  const time = Math.min(MAX_ULID_TIME, Math.max(0, Math.floor(epochMs)));
  return encodeUlid(time, globalThis.crypto.getRandomValues(new Uint8Array(ULID_RANDOM_BYTES)));
}

/**
 * Whether a peer's request id is acceptable: 1–128 printable ASCII characters without spaces. Any
 * such string is taken, not only ULIDs: the reference client sends 16 hex characters.
 */
export function isAcceptableRequestId(value: unknown): value is string {
  return typeof value === 'string' && REQUEST_ID.test(value);
}
