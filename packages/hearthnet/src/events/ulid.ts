import { HearthNetLocalError } from '../errors.js';

/** Crockford's base32 alphabet: digits and upper-case letters without I, L, O and U. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const values = new Int8Array(128).fill(-1);
for (let i = 0; i < CROCKFORD.length; i++) values[CROCKFORD.charCodeAt(i)] = i;

/** Characters of a ULID: 10 for the time, 16 for the randomness. */
export const ULID_LENGTH = 26;
const TIME_CHARS = 10;
/** Bytes of randomness in a ULID (80 bits). */
export const ULID_RANDOM_BYTES = 10;
/** The largest ULID time, 2⁴⁸ − 1 ms (year 10889). */
export const MAX_ULID_TIME = 2 ** 48 - 1;

/** A ULID taken apart. */
export interface DecodedUlid {
  /** Milliseconds since the epoch. */
  readonly timeMs: number;
  /** The 10 random bytes. */
  readonly randomness: Uint8Array;
}

/**
 * Encodes a ULID: 48-bit millisecond time then 80 bits of randomness, big-endian, as 26 upper-case
 * Crockford base32 characters. ULIDs of different milliseconds sort by time as strings.
 *
 * @throws {HearthNetLocalError} `ulid_input` for a time outside 0 … 2⁴⁸−1 or randomness that is not 10 bytes.
 * @example
 * encodeUlid(1469918176385, new Uint8Array(10)); // '01ARYZ6S410000000000000000'
 */
export function encodeUlid(timeMs: number, randomness: Uint8Array): string {
  if (!Number.isSafeInteger(timeMs) || timeMs < 0 || timeMs > MAX_ULID_TIME) {
    throw new HearthNetLocalError(
      'ulid_input',
      `a ULID time is an integer in 0 … 2^48−1 ms, got ${String(timeMs)}`,
    );
  }
  if (!(randomness instanceof Uint8Array) || randomness.length !== ULID_RANDOM_BYTES) {
    throw new HearthNetLocalError('ulid_input', `a ULID needs ${ULID_RANDOM_BYTES} random bytes`);
  }
  let time = '';
  let rest = timeMs;
  for (let i = 0; i < TIME_CHARS; i++) {
    time = CROCKFORD[rest % 32]! + time;
    rest = Math.floor(rest / 32);
  }
  let random = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of randomness) {
    buffer = ((buffer << 8) | byte) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      random += CROCKFORD[(buffer >> bits) & 31]!;
    }
  }
  return time + random;
}

/**
 * Takes a canonical ULID apart. Only the form {@link encodeUlid} writes is accepted (upper case, no
 * Crockford aliases such as `o` or `L`), because event ids are compared as strings.
 *
 * @throws {HearthNetLocalError} `invalid_ulid` with the broken rule in `details.reason`.
 * @example
 * decodeUlid('01ARYZ6S410000000000000000').timeMs; // 1469918176385
 */
export function decodeUlid(id: string): DecodedUlid {
  if (typeof id !== 'string' || id.length !== ULID_LENGTH) {
    throw new HearthNetLocalError(
      'invalid_ulid',
      `a ULID has ${ULID_LENGTH} characters, got ${typeof id === 'string' ? id.length : typeof id}`,
      { details: { reason: 'wrong_length', value: id } },
    );
  }
  const digits = new Array<number>(ULID_LENGTH);
  for (let i = 0; i < ULID_LENGTH; i++) {
    const code = id.charCodeAt(i);
    const value = code < 128 ? values[code]! : -1;
    if (value < 0) {
      throw new HearthNetLocalError(
        'invalid_ulid',
        `invalid ULID character ${JSON.stringify(id[i])} at index ${i}`,
        { details: { reason: 'invalid_character', value: id } },
      );
    }
    digits[i] = value;
  }
  if (digits[0]! > 7)
    throw new HearthNetLocalError('invalid_ulid', `ULID ${id} has a time above 2^48−1`, {
      details: { reason: 'time_overflow', value: id },
    });
  let timeMs = 0;
  for (let i = 0; i < TIME_CHARS; i++) timeMs = timeMs * 32 + digits[i]!;
  const randomness = new Uint8Array(ULID_RANDOM_BYTES);
  let buffer = 0;
  let bits = 0;
  let o = 0;
  for (let i = TIME_CHARS; i < ULID_LENGTH; i++) {
    buffer = ((buffer << 5) | digits[i]!) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      randomness[o++] = (buffer >> bits) & 255;
    }
  }
  return { timeMs, randomness };
}

/** Whether `value` is a canonical ULID ({@link decodeUlid} would accept it). */
export function isUlid(value: unknown): value is string {
  if (typeof value !== 'string' || value.length !== ULID_LENGTH) return false;
  for (let i = 0; i < ULID_LENGTH; i++) {
    const code = value.charCodeAt(i);
    if (code >= 128 || values[code]! < 0) return false;
  }
  return values[value.charCodeAt(0)]! <= 7;
}

/** Where a `UlidFactory` gets time and randomness. */
export interface UlidFactoryOptions {
  /** Milliseconds since the epoch (default `Date.now`). */
  readonly clock?: () => number;
  /** `length` random bytes (default `crypto.getRandomValues`). */
  readonly random?: (length: number) => Uint8Array;
}

/**
 * Makes a ULID for the time `timeMs` (default: the factory's clock). Ids from one factory strictly
 * increase: within a millisecond, or when the clock goes back, the previous id's randomness plus one
 * is used with the previous time.
 *
 * @throws {HearthNetLocalError} `ulid_overflow` when the randomness of the millisecond is used up.
 */
export type UlidFactory = (timeMs?: number) => string;

/**
 * A monotonic ULID factory (see `UlidFactory`).
 *
 * @throws {HearthNetLocalError} `ulid_input` later, from the factory, when the clock gives an unusable time.
 * @example
 * const ulid = createUlidFactory();
 * const a = ulid();
 * const b = ulid(); // b > a, even within the same millisecond
 */
export function createUlidFactory(options: UlidFactoryOptions = {}): UlidFactory {
  const clock = options.clock ?? Date.now;
  const random =
    options.random ?? ((length: number) => globalThis.crypto.getRandomValues(new Uint8Array(length)));
  let lastTime = -1;
  let lastRandom: Uint8Array = new Uint8Array(ULID_RANDOM_BYTES);
  return (timeMs?: number) => {
    const now = timeMs ?? clock();
    if (now <= lastTime) {
      lastRandom = incremented(lastRandom);
      return encodeUlid(lastTime, lastRandom);
    }
    const fresh = random(ULID_RANDOM_BYTES);
    const id = encodeUlid(now, fresh);
    lastTime = now;
    lastRandom = new Uint8Array(fresh);
    return id;
  };
}

function incremented(bytes: Uint8Array): Uint8Array {
  const next = new Uint8Array(bytes);
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i] === 255) {
      next[i] = 0;
    } else {
      next[i]! += 1;
      return next;
    }
  }
  throw new HearthNetLocalError('ulid_overflow', 'the 80 random bits of this millisecond are used up', {
    retryable: true,
  });
}
