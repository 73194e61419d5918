import { describe, expect, it } from 'vitest';
import { decodeTagged, loadHearthnetFixture } from '../crypto/fixture-test-support.js';
import { base32Decode, base32Encode } from './base32.js';
import { base64UrlDecode, base64UrlDecodeLenient, base64UrlEncode } from './base64url.js';
import { hexDecode, hexEncode } from './hex.js';

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
