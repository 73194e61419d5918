import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeBase64PythonLenient as base64DecodePythonLenient,
  decodeBase64 as base64DecodeStrict,
  encodeBase64 as base64Encode,
  decodeBase64Url as base64UrlDecodeNoPad,
  encodeBase64Url as base64UrlEncodeNoPad,
} from './encoding.js';

const text = (s: string) => new TextEncoder().encode(s);
const bytes = fc.uint8Array({ maxLength: 120 });

describe('base64Encode', () => {
  it('writes the RFC 4648 §10 vectors with padding', () => {
    const vectors: [string, string][] = [
      ['', ''],
      ['f', 'Zg=='],
      ['fo', 'Zm8='],
      ['foo', 'Zm9v'],
      ['foob', 'Zm9vYg=='],
      ['fooba', 'Zm9vYmE='],
      ['foobar', 'Zm9vYmFy'],
    ];
    for (const [input, output] of vectors) expect(base64Encode(text(input))).toBe(output);
    expect(base64Encode(new Uint8Array([0xfb, 0xff]))).toBe('+/8=');
  });

  it('matches Buffer base64 for any bytes', () => {
    fc.assert(
      fc.property(bytes, (b) => {
        expect(base64Encode(b)).toBe(Buffer.from(b).toString('base64'));
      }),
      { numRuns: 300 },
    );
  });
});

describe('base64DecodeStrict', () => {
  it('round-trips any bytes and accepts nothing but canonical text', () => {
    fc.assert(
      fc.property(bytes, (b) => {
        expect(base64DecodeStrict(base64Encode(b))).toEqual(b);
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 24 }), (s) => {
        const decoded = base64DecodeStrict(s);
        if (decoded instanceof Uint8Array) expect(base64Encode(decoded)).toBe(s);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses unpadded, url-safe, whitespace, misplaced padding and unused bits', () => {
    for (const bad of [
      'Zg',
      'Zm8',
      '-_8=',
      'Zm9v\n',
      'Z===',
      '=Zm9',
      'Zm=v',
      'Zh==',
      'Zm9=',
      'Zm9vYg=',
      'é===',
    ]) {
      expect(base64DecodeStrict(bad)).toEqual({ refused: expect.any(String) });
    }
  });
});

describe('base64DecodePythonLenient', () => {
  const decode = (s: string) => {
    const result = base64DecodePythonLenient(s);
    return result instanceof Uint8Array ? new TextDecoder().decode(result) : result;
  };

  it('decodes padded standard base64', () => {
    expect(decode('Zm9vYmFy')).toBe('foobar');
    expect(decode('Zm9vYg==')).toBe('foob');
    expect(decode('')).toBe('');
  });

  it('refuses unpadded and truncated input, as binascii does', () => {
    expect(decode('Zm9vYg')).toEqual({ refused: 'incorrect padding' });
    expect(decode('Zm9vYg=')).toEqual({ refused: 'incorrect padding' });
    expect(decode('Zm9vY')).toEqual({ refused: expect.stringContaining('1 more than a multiple of 4') });
  });

  it('skips characters outside the standard alphabet, including url-safe - and _', () => {
    expect(decode('Zm9v\nYmFy')).toBe('foobar');
    expect(decode(' Z m 9 v ')).toBe('foo');
    expect(base64DecodePythonLenient('-_8=')).toEqual({ refused: expect.stringContaining('1 more') });
    expect(base64DecodePythonLenient('-_8A')).toEqual({ refused: 'incorrect padding' });
    expect(base64DecodePythonLenient('+/8=')).toEqual(new Uint8Array([0xfb, 0xff]));
  });

  it('ignores = before a quantum has two characters and stops after completed padding', () => {
    expect(decode('=Zm9v')).toBe('foo');
    expect(decode('Z=m9v')).toBe('foo');
    expect(decode('Zg==Zm9v')).toBe('f');
    expect(decode('Zm8=garbage')).toBe('fo');
  });

  it('refuses any non-ASCII character, even after the padding', () => {
    expect(decode('Zg==é')).toEqual({ refused: expect.stringContaining('non-ASCII') });
  });

  it('decodes every canonical encoding to its bytes, as the strict decoder does', () => {
    fc.assert(
      fc.property(bytes, (b) => {
        expect(base64DecodePythonLenient(base64Encode(b))).toEqual(b);
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 24 }), (s) => {
        const strict = base64DecodeStrict(s);
        if (strict instanceof Uint8Array) expect(base64DecodePythonLenient(s)).toEqual(strict);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws for arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => {
        const result = base64DecodePythonLenient(s);
        expect(result instanceof Uint8Array || typeof result.refused === 'string').toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

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
