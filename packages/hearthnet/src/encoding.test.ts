import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeTagged, loadHearthnetFixture } from './crypto/fixture-test-support.js';
import {
  base32Decode,
  base32Encode,
  base64Decode,
  base64Encode,
  base64UrlDecode,
  base64UrlDecodeLenient,
  base64UrlEncode,
  hexDecode,
  hexEncode,
} from './encoding.js';
import { HearthNetLocalError } from './errors.js';

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

/** An independent reference: the platform's own base64 (btoa over a binary string). */
const reference = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

describe('standard base64', () => {
  it('matches RFC 4648 §10 vectors', () => {
    const vectors: [string, string][] = [
      ['', ''],
      ['f', 'Zg=='],
      ['fo', 'Zm8='],
      ['foo', 'Zm9v'],
      ['foob', 'Zm9vYg=='],
      ['fooba', 'Zm9vYmE='],
      ['foobar', 'Zm9vYmFy'],
    ];
    for (const [plain, encoded] of vectors) {
      expect(base64Encode(new TextEncoder().encode(plain))).toBe(encoded);
      expect(new TextDecoder().decode(base64Decode(encoded))).toBe(plain);
    }
    expect(base64Encode(new Uint8Array([0xfb, 0xff]))).toBe('+/8=');
  });

  it('agrees with btoa and round-trips any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const text = base64Encode(bytes);
        expect(text).toBe(reference(bytes));
        expect(base64Decode(text)).toEqual(bytes);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses unpadded, url-alphabet, whitespace and non-canonical text', () => {
    for (const bad of ['Zg', 'Zm8', '-_8=', 'Zm9v\n', 'Zm 9v', 'Zh==', 'Zm9=', '====', 'Z===', 'Zg=a']) {
      expect(() => base64Decode(bad), bad).toThrow(expect.objectContaining({ code: 'invalid_base64' }));
    }
    expect(() => base64Decode(1 as never)).toThrow(expect.objectContaining({ code: 'invalid_base64' }));
  });
});

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

interface EncodingCase {
  readonly id: string;
  readonly operation: string;
  readonly input: unknown;
  readonly output?: unknown;
  readonly error?: string;
}

const fixture = loadHearthnetFixture<EncodingCase>('encodings.json');

const encoders: Record<string, { encode: (b: Uint8Array) => string; decode: (t: string) => Uint8Array }> = {
  base64url_encode: { encode: base64UrlEncode, decode: base64UrlDecode },
  base32_encode: { encode: base32Encode, decode: base32Decode },
  hex_encode: { encode: hexEncode, decode: hexDecode },
};
const decoders: Record<string, (text: string) => Uint8Array> = {
  base64url_decode: base64UrlDecode,
  base64url_decode_lenient: base64UrlDecodeLenient,
  base32_decode: base32Decode,
  hex_decode: hexDecode,
};

describe('fixtures/hearthnet/encodings.json', () => {
  it('has cases for every operation', () => {
    const operations = new Set(fixture.cases.map((c) => c.operation));
    expect([...operations].sort()).toEqual([...Object.keys(encoders), ...Object.keys(decoders)].sort());
  });

  for (const c of fixture.cases) {
    it(c.id, () => {
      const encoder = encoders[c.operation];
      if (encoder !== undefined) {
        const input = decodeTagged(c.input) as Uint8Array;
        expect(encoder.encode(input)).toBe(c.output);
        expect(encoder.decode(c.output as string)).toEqual(input);
        return;
      }
      const decode = decoders[c.operation]!;
      if (c.error !== undefined) {
        expect(() => decode(c.input as string)).toThrow(
          expect.objectContaining({ name: 'HearthNetLocalError', code: c.error }),
        );
      } else {
        expect(decode(c.input as string)).toEqual(decodeTagged(c.output));
      }
    });
  }
});
