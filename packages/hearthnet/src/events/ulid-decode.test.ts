import { describe, expect, it } from 'vitest';
import { hexDecode } from '../encoding.js';
import { decodeUlid } from './ulid.js';

// The `ulid-decode` cases of the conformance fixture events.json, copied here: `decodeUlid` is not
// exported, so the event-log suite (which runs every other events.json case against the public API)
// cannot reach it. Keep the two in step when the fixture changes.
const decoded: readonly (readonly [id: string, ulid: string, timeMs: number, randomnessHex: string])[] = [
  ['ulid-decode-contract-time', '01KSHNJR29041061050R3GG28A', 1779783262281, '0102030405060708090a'],
  ['ulid-decode-max', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ', 281474976710655, 'ffffffffffffffffffff'],
];

const refused: readonly (readonly [id: string, ulid: string, reason: string])[] = [
  ['ulid-decode-lowercase', '01kshnjr29041061050r3gg28a', 'invalid_character'],
  ['ulid-decode-letter-i', 'I1KSHNJR29041061050R3GG28A', 'invalid_character'],
  ['ulid-decode-letter-l', '01KSHNJR29041061050RLGG28A', 'invalid_character'],
  ['ulid-decode-letter-o', '01KSHNJR29041061050ROGG28A', 'invalid_character'],
  ['ulid-decode-letter-u', '01KSHNJR29041061050RUGG28A', 'invalid_character'],
  ['ulid-decode-too-short', '01KSHNJR29041061050R3GG28', 'wrong_length'],
  ['ulid-decode-too-long', '01KSHNJR29041061050R3GG28A0', 'wrong_length'],
  ['ulid-decode-time-overflow', '81KSHNJR29041061050R3GG28A', 'time_overflow'],
  ['ulid-decode-reference-base32-id', 'AAAAAAAGMKRB2DLJKPQ2ZMXM5C', 'invalid_character'],
];

describe('decodeUlid (events.json ulid-decode vectors)', () => {
  it.each(decoded)('%s', (_id, ulid, timeMs, randomnessHex) => {
    expect(decodeUlid(ulid)).toEqual({ timeMs, randomness: hexDecode(randomnessHex) });
  });

  it.each(refused)('%s', (_id, ulid, reason) => {
    expect(() => decodeUlid(ulid)).toThrow(
      expect.objectContaining({ code: 'invalid_ulid', details: expect.objectContaining({ reason }) }),
    );
  });
});
