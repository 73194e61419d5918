import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeBase64,
  decodeBase64PythonLenient,
  decodeBase64Url,
  encodeBase64,
  encodeBase64Url,
} from './encoding.js';

const text = (s: string) => new TextEncoder().encode(s);
const bytes = fc.uint8Array({ maxLength: 120 });

describe('encodeBase64', () => {
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
    for (const [input, output] of vectors) expect(encodeBase64(text(input))).toBe(output);
    expect(encodeBase64(new Uint8Array([0xfb, 0xff]))).toBe('+/8=');
  });

  it('matches Buffer base64 for any bytes', () => {
    fc.assert(
      fc.property(bytes, (b) => {
        expect(encodeBase64(b)).toBe(Buffer.from(b).toString('base64'));
      }),
      { numRuns: 300 },
    );
  });
});

describe('decodeBase64', () => {
  it('round-trips any bytes and accepts nothing but canonical text', () => {
    fc.assert(
      fc.property(bytes, (b) => {
        expect(decodeBase64(encodeBase64(b))).toEqual(b);
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 24 }), (s) => {
        const decoded = decodeBase64(s);
        if (decoded instanceof Uint8Array) expect(encodeBase64(decoded)).toBe(s);
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
      expect(decodeBase64(bad)).toEqual({ refused: expect.any(String) });
    }
  });
});

describe('decodeBase64PythonLenient', () => {
  const decode = (s: string) => {
    const result = decodeBase64PythonLenient(s);
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
    expect(decodeBase64PythonLenient('-_8=')).toEqual({ refused: expect.stringContaining('1 more') });
    expect(decodeBase64PythonLenient('-_8A')).toEqual({ refused: 'incorrect padding' });
    expect(decodeBase64PythonLenient('+/8=')).toEqual(new Uint8Array([0xfb, 0xff]));
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
        expect(decodeBase64PythonLenient(encodeBase64(b))).toEqual(b);
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 24 }), (s) => {
        const strict = decodeBase64(s);
        if (strict instanceof Uint8Array) expect(decodeBase64PythonLenient(s)).toEqual(strict);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws for arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => {
        const result = decodeBase64PythonLenient(s);
        expect(result instanceof Uint8Array || typeof result.refused === 'string').toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('encodeBase64Url', () => {
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
    for (const [input, output] of vectors) expect(encodeBase64Url(text(input))).toBe(output);
    expect(encodeBase64Url(new Uint8Array([0xfb, 0xff]))).toBe('-_8');
  });

  it('matches Buffer base64url for any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 120 }), (b) => {
        expect(encodeBase64Url(b)).toBe(Buffer.from(b).toString('base64url'));
      }),
      { numRuns: 300 },
    );
  });
});

describe('decodeBase64Url', () => {
  it('round-trips any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 120 }), (b) => {
        expect(decodeBase64Url(encodeBase64Url(b))).toEqual(b);
      }),
      { numRuns: 300 },
    );
  });

  it('accepts only the one canonical text of each byte string', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (s) => {
        const decoded = decodeBase64Url(s);
        if (decoded instanceof Uint8Array) expect(encodeBase64Url(decoded)).toBe(s);
        else expect(decoded.refused).toEqual(expect.any(String));
      }),
      { numRuns: 500 },
    );
  });

  it('refuses padding, the standard alphabet, whitespace, bad lengths and unused bits', () => {
    for (const bad of ['Zg==', 'Zm8=', '+_8', '-/8', 'Zm 9v', 'Z', 'Zm9vY', 'Zh', 'Zm9', 'é']) {
      expect(decodeBase64Url(bad)).toEqual({ refused: expect.any(String) });
    }
  });
});
