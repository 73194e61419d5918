import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HearthNetLocalError } from '../errors.js';
import { base32Decode, base32Encode } from './base32.js';

/** RFC 4648 §10. */
const rfcVectors: ReadonlyArray<readonly [string, string]> = [
  ['', ''],
  ['f', 'MY======'],
  ['fo', 'MZXQ===='],
  ['foo', 'MZXW6==='],
  ['foob', 'MZXW6YQ='],
  ['fooba', 'MZXW6YTB'],
  ['foobar', 'MZXW6YTBOI======'],
];

describe('base32', () => {
  it('encodes and decodes the RFC 4648 test vectors', () => {
    for (const [plain, encoded] of rfcVectors) {
      const plainBytes = new TextEncoder().encode(plain);
      expect(base32Encode(plainBytes)).toBe(encoded);
      expect(base32Decode(encoded)).toEqual(plainBytes);
    }
  });

  it('round-trips any bytes and always pads to a multiple of 8', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (b) => {
        const text = base32Encode(b);
        expect(text.length % 8).toBe(0);
        expect(text).toMatch(/^[A-Z2-7]*=*$/);
        expect(base32Decode(text)).toEqual(b);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses lower case, bad lengths, impossible padding and non-zero trailing bits', () => {
    for (const text of [
      'my======',
      'MY=====',
      'M=======',
      'MZX=====',
      'MZXW6Y==',
      'MZ======',
      'MY==MY==',
      '========',
      'MY',
    ]) {
      expect(() => base32Decode(text), text).toThrow(expect.objectContaining({ code: 'invalid_base32' }));
      try {
        base32Decode(text);
      } catch (error) {
        expect((error as HearthNetLocalError).code).toBe('invalid_base32');
      }
    }
  });

  it('refuses non-string and non-bytes input with a typed error', () => {
    expect(() => base32Decode(null as unknown as string)).toThrow(
      expect.objectContaining({ code: 'invalid_base32' }),
    );
    expect(() => base32Encode({} as unknown as Uint8Array)).toThrow(
      expect.objectContaining({ code: 'invalid_bytes' }),
    );
  });
});
