import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HearthNetLocalError } from '../errors.js';
import { hexDecode, hexEncode } from './hex.js';

describe('hex', () => {
  it('matches Buffer hex and round-trips, in both cases', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (b) => {
        const text = hexEncode(b);
        expect(text).toBe(Buffer.from(b).toString('hex'));
        expect(hexDecode(text)).toEqual(b);
        expect(hexDecode(text.toUpperCase())).toEqual(b);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses odd lengths and non-hex characters with invalid_hex', () => {
    for (const text of ['abc', '0g', 'zz', '0x00', '00 ', 'é0']) {
      let code: string | undefined;
      try {
        hexDecode(text);
      } catch (error) {
        code = (error as HearthNetLocalError).code;
      }
      expect(code, text).toBe('invalid_hex');
    }
  });
});
