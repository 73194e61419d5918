import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HearthNetLocalError } from '../errors.js';
import { base64UrlDecode, base64UrlDecodeLenient, base64UrlEncode } from './base64url.js';

const bytes = fc.uint8Array({ maxLength: 200 });

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof HearthNetLocalError) return error.code;
    throw error;
  }
  return undefined;
}

describe('base64UrlEncode', () => {
  it('matches Buffer base64url for any bytes', () => {
    fc.assert(
      fc.property(bytes, (b) => {
        expect(base64UrlEncode(b)).toBe(Buffer.from(b).toString('base64url'));
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a value that is not a Uint8Array with invalid_bytes', () => {
    expect(codeOf(() => base64UrlEncode('abc' as unknown as Uint8Array))).toBe('invalid_bytes');
    expect(codeOf(() => base64UrlEncode([1, 2] as unknown as Uint8Array))).toBe('invalid_bytes');
  });
});

describe('base64UrlDecode (strict)', () => {
  it('round-trips every encoding', () => {
    fc.assert(
      fc.property(bytes, (b) => {
        expect(base64UrlDecode(base64UrlEncode(b))).toEqual(b);
      }),
      { numRuns: 500 },
    );
  });

  it('accepts exactly the texts that are the encoding of their own decoding', () => {
    const text = fc.string({ unit: fc.constantFrom(...'AQgw_-+/= .é'), maxLength: 12 });
    fc.assert(
      fc.property(text, (t) => {
        const canonical =
          /^[A-Za-z0-9_-]*$/.test(t) &&
          t.length % 4 !== 1 &&
          Buffer.from(t, 'base64url').toString('base64url') === t;
        if (canonical) expect(base64UrlEncode(base64UrlDecode(t))).toBe(t);
        else expect(codeOf(() => base64UrlDecode(t))).toBe('invalid_base64url');
      }),
      { numRuns: 1000 },
    );
  });

  it('names the offending character and its index', () => {
    expect(() => base64UrlDecode('AA=A')).toThrow(/"=" at index 2/);
  });

  it('refuses a value that is not a string', () => {
    expect(codeOf(() => base64UrlDecode(42 as unknown as string))).toBe('invalid_base64url');
  });
});

describe('base64UrlDecodeLenient', () => {
  it('decodes every strict encoding the same way', () => {
    fc.assert(
      fc.property(bytes, (b) => {
        expect(base64UrlDecodeLenient(base64UrlEncode(b))).toEqual(b);
      }),
      { numRuns: 300 },
    );
  });

  it('accepts padding, the standard alphabet and stray ASCII, as the reference does', () => {
    const expected = Uint8Array.of(0xfb, 0xff);
    for (const text of ['-_8=', '+/8', '+/8=', ' -_\t8\n', '-_8=ignored after padding']) {
      expect(base64UrlDecodeLenient(text)).toEqual(expected);
    }
  });

  it('ignores non-zero trailing bits', () => {
    expect(base64UrlDecodeLenient('AB')).toEqual(Uint8Array.of(0));
  });

  it('refuses non-ASCII, a lone data character and padding that comes out wrong', () => {
    for (const text of ['AAé=', 'A', 'AAAAA', 'AA!', 'AAAAAA!!']) {
      expect(
        codeOf(() => base64UrlDecodeLenient(text)),
        text,
      ).toBe('invalid_base64url');
    }
  });

  it('returns a buffer of exactly the decoded length', () => {
    const decoded = base64UrlDecodeLenient('-_8=AAAA');
    expect(decoded.byteLength).toBe(2);
    expect(decoded.buffer.byteLength).toBe(2);
  });
});
