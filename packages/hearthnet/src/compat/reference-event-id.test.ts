import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeUlid, encodeUlid, MAX_ULID_TIME } from '../events/ulid.js';
import {
  contractTimestampToReference,
  decodeReferenceEventId,
  isReferenceEventId,
  referenceEventIdToUlid,
  referenceTimestampToContract,
  ulidToReferenceEventId,
} from './reference-event.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** A reference id from its parts, as `new_ulid()` builds it (10 bytes of ms, 10 random bytes, base32, cut to 26). */
function referenceId(timeMs: number, random50: bigint): string {
  let bits = (BigInt(timeMs) << 50n) | random50;
  let id = '';
  for (let i = 0; i < 26; i++) {
    id = ALPHABET[Number(bits & 31n)] + id;
    bits >>= 5n;
  }
  return id;
}
const time = fc.integer({ min: 0, max: MAX_ULID_TIME });
const random50 = fc.bigInt({ min: 0n, max: 2n ** 50n - 1n });

describe('reference event ids ⇄ ULIDs', () => {
  it('reference → ULID → reference is the identity, keeping the millisecond', () => {
    fc.assert(
      fc.property(time, random50, (t, r) => {
        const id = referenceId(t, r);
        expect(decodeReferenceEventId(id)).toEqual({ timeMs: BigInt(t), random: r });
        const ulid = referenceEventIdToUlid(id);
        expect(decodeUlid(ulid).timeMs).toBe(t);
        expect(ulidToReferenceEventId(ulid)).toBe(id);
      }),
      { numRuns: 500 },
    );
  });

  it('ULID → reference keeps the top 50 random bits; only ULIDs with 30 zero low bits come back unchanged', () => {
    fc.assert(
      fc.property(time, fc.uint8Array({ minLength: 10, maxLength: 10 }), (t, randomness) => {
        const ulid = encodeUlid(t, randomness);
        const back = referenceEventIdToUlid(ulidToReferenceEventId(ulid));
        const cleared = Uint8Array.from(randomness);
        cleared[6] = (cleared[6] ?? 0) & 0xc0;
        cleared.fill(0, 7);
        expect(back).toBe(encodeUlid(t, cleared));
      }),
      { numRuns: 500 },
    );
  });

  it('tells reference ids from other strings', () => {
    expect(isReferenceEventId('AAAAAAAZ2PVWLFHBAECAKBQHBA')).toBe(true);
    expect(isReferenceEventId('01ARYZ6S41TSV4RRFFQ69G5FAV')).toBe(false);
    expect(isReferenceEventId(42)).toBe(false);
  });

  it('refuses non-ULIDs with the events module’s typed error', () => {
    expect(() => ulidToReferenceEventId('not a ulid')).toThrow(
      expect.objectContaining({ code: 'invalid_ulid' }),
    );
  });
});

describe('reference timestamps ⇄ contract timestamps', () => {
  it('contract → reference → contract is the identity for canonical contract timestamps', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253402300799999 }), fc.boolean(), (ms, wholeSeconds) => {
        const iso = new Date(wholeSeconds ? ms - (ms % 1000) : ms).toISOString();
        const contract = wholeSeconds ? `${iso.slice(0, 19)}Z` : iso.replace(/\.?0+Z$/, 'Z');
        const reference = contractTimestampToReference(contract);
        expect(reference).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
        expect(referenceTimestampToContract(reference)).toBe(contract);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses what is not a string with the typed error', () => {
    expect(() => referenceTimestampToContract(undefined as unknown as string)).toThrow(
      expect.objectContaining({ code: 'invalid_reference_timestamp' }),
    );
    expect(() => contractTimestampToReference('yesterday')).toThrow(
      expect.objectContaining({ code: 'invalid_timestamp' }),
    );
  });
});
