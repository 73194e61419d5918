import { HearthNetLocalError } from '../errors.js';
import { decodeUlid, encodeUlid, MAX_ULID_TIME } from '../events/ulid.js';

/** RFC 4648 base32, the alphabet of reference event ids. */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const REFERENCE_ID = /^[A-Z2-7]{26}$/;
/** Random bits a reference id keeps (its last 10 characters). */
const REFERENCE_RANDOM_BITS = 50n;
/** Random bits of a ULID. */
const ULID_RANDOM_BITS = 80n;
const DROPPED_BITS = ULID_RANDOM_BITS - REFERENCE_RANDOM_BITS;

/** A reference event id taken apart: the time of its first 16 characters and the 50 random bits after. */
export interface DecodedReferenceEventId {
  /** Milliseconds since the epoch (80 bits in the id; a `bigint` because it may pass 2⁵³). */
  readonly timeMs: bigint;
  /** The 50 random bits of the last 10 characters. */
  readonly random: bigint;
}

/**
 * Whether `value` is a reference event id: 26 characters of RFC 4648 base32 (`A–Z 2–7`), the
 * reference's `new_ulid()` (10 bytes of milliseconds and 10 random bytes, base32, cut to 26). Such ids
 * do not sort by time and are not Crockford ULIDs.
 */
export function isReferenceEventId(value: unknown): value is string {
  return typeof value === 'string' && REFERENCE_ID.test(value);
}

/**
 * Takes a reference event id apart.
 *
 * @throws {HearthNetLocalError} `invalid_reference_event_id`
 */
export function decodeReferenceEventId(id: string): DecodedReferenceEventId {
  if (!isReferenceEventId(id)) {
    throw new HearthNetLocalError(
      'invalid_reference_event_id',
      'a reference event id is 26 RFC 4648 base32 characters (A–Z 2–7)',
      { details: { value: id } },
    );
  }
  let bits = 0n;
  for (const char of id) bits = (bits << 5n) | BigInt(ALPHABET.indexOf(char));
  return { timeMs: bits >> REFERENCE_RANDOM_BITS, random: bits & ((1n << REFERENCE_RANDOM_BITS) - 1n) };
}

/**
 * The ULID of a reference event id: the same millisecond, and the id's 50 random bits as the top of
 * the ULID's 80 (the other 30 are zero). {@link ulidToReferenceEventId} gives the reference id back.
 *
 * @throws {HearthNetLocalError} `invalid_reference_event_id` for a malformed id or a time beyond the ULID's
 *   48 bits.
 * @example
 * referenceEventIdToUlid('AAAAAAAZ2PVWLFHBAECAKBQHBA'); // a Crockford ULID of the same millisecond
 */
export function referenceEventIdToUlid(id: string): string {
  const { timeMs, random } = decodeReferenceEventId(id);
  if (timeMs > BigInt(MAX_ULID_TIME)) {
    throw new HearthNetLocalError(
      'invalid_reference_event_id',
      `the id's time ${timeMs} ms does not fit a ULID's 48 bits`,
      { details: { value: id } },
    );
  }
  const randomness = new Uint8Array(10);
  let rest = random << DROPPED_BITS;
  for (let i = randomness.length - 1; i >= 0; i--) {
    randomness[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return encodeUlid(Number(timeMs), randomness);
}

/**
 * The reference event id of a ULID: the same millisecond and the top 50 of the ULID's 80 random bits.
 * The low 30 bits are lost, so only ULIDs where they are zero (those made by
 * {@link referenceEventIdToUlid}) come back unchanged.
 *
 * @throws {HearthNetLocalError} `invalid_ulid` for a string that is not a ULID.
 */
export function ulidToReferenceEventId(ulid: string): string {
  const { timeMs, randomness } = decodeUlid(ulid);
  let random = 0n;
  for (const byte of randomness) random = (random << 8n) | BigInt(byte);
  let bits = (BigInt(timeMs) << REFERENCE_RANDOM_BITS) | (random >> DROPPED_BITS);
  let id = '';
  for (let i = 0; i < 26; i++) {
    id = ALPHABET[Number(bits & 31n)] + id;
    bits >>= 5n;
  }
  return id;
}
