import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64UrlDecodeNoPad, base64UrlEncodeNoPad } from './base64url.js';

const text = (s: string) => new TextEncoder().encode(s);

describe('base64UrlEncodeNoPad', () => {
  it('writes the RFC 4648 §10 vectors in the url alphabet without padding', () => {
    const vectors: [string, string][] = [
      ['', ''],
      ['f', 'Zg'],
      ['fo', 'Zm8'],
      ['foo', 'Zm9v'],
      ['foob', 'Zm9vYg'],
      ['fooba', 'Zm9vYmE'],
      ['foobar', 'Zm9vYmFy'],
    ];
    for (const [input, output] of vectors) expect(base64UrlEncodeNoPad(text(input))).toBe(output);
    expect(base64UrlEncodeNoPad(new Uint8Array([0xfb, 0xff]))).toBe('-_8');
  });

  it('matches Buffer base64url for any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 120 }), (b) => {
        expect(base64UrlEncodeNoPad(b)).toBe(Buffer.from(b).toString('base64url'));
      }),
      { numRuns: 300 },
    );
  });
});

describe('base64UrlDecodeNoPad', () => {
  it('round-trips any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 120 }), (b) => {
        expect(base64UrlDecodeNoPad(base64UrlEncodeNoPad(b))).toEqual(b);
      }),
      { numRuns: 300 },
    );
  });

  it('accepts only the one canonical text of each byte string', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (s) => {
        const decoded = base64UrlDecodeNoPad(s);
        if (decoded instanceof Uint8Array) expect(base64UrlEncodeNoPad(decoded)).toBe(s);
        else expect(decoded.refused).toEqual(expect.any(String));
      }),
      { numRuns: 500 },
    );
  });

  it('refuses padding, the standard alphabet, whitespace, bad lengths and unused bits', () => {
    for (const bad of ['Zg==', 'Zm8=', '+_8', '-/8', 'Zm 9v', 'Z', 'Zm9vY', 'Zh', 'Zm9', 'é']) {
      expect(base64UrlDecodeNoPad(bad)).toEqual({ refused: expect.any(String) });
    }
  });
});
