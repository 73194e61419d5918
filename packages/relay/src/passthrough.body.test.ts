import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodePassthroughBody, decodePassthroughBodyStrict, encodePassthroughBody } from './passthrough.js';

const text = (s: string) => new TextEncoder().encode(s);

describe('encodePassthroughBody', () => {
  it('writes padded standard base64 that both decoders read back', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (body) => {
        const encoded = encodePassthroughBody(body);
        expect(encoded.length % 4).toBe(0);
        expect(decodePassthroughBody(encoded)).toEqual(body);
        expect(decodePassthroughBodyStrict(encoded)).toEqual(body);
      }),
      { numRuns: 300 },
    );
    expect(encodePassthroughBody(text('{"type":1}'))).toBe('eyJ0eXBlIjoxfQ==');
  });

  it('refuses a body that is not a Uint8Array', () => {
    for (const body of ['abc', [1, 2], null, new ArrayBuffer(2)] as unknown[]) {
      expect(() => encodePassthroughBody(body as Uint8Array)).toThrow(
        expect.objectContaining({ code: 'passthrough_invalid_argument' }),
      );
      expect(() => encodePassthroughBody(body as Uint8Array)).toThrow(
        expect.objectContaining({ code: 'passthrough_invalid_argument', path: 'body' }),
      );
    }
  });
});

describe('decodePassthroughBody (the gateway’s decoding)', () => {
  it('gives an empty body for unpadded base64, silently', () => {
    expect(decodePassthroughBody('eyJ0eXBlIjoxfQ')).toEqual(new Uint8Array(0));
  });

  it('gives an empty body for anything that is not a string', () => {
    for (const value of [undefined, null, 0, 5, true, ['eQ=='], { bodyB64: 'eQ==' }]) {
      expect(decodePassthroughBody(value)).toEqual(new Uint8Array(0));
    }
  });

  it('loses the url-safe characters of a base64url body', () => {
    const body = new Uint8Array([0xfb, 0xef, 0xff]);
    expect(decodePassthroughBody(Buffer.from(body).toString('base64url'))).toEqual(new Uint8Array(0));
    expect(decodePassthroughBody(Buffer.from(body).toString('base64'))).toEqual(body);
  });

  it('never throws for any input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 40 }), fc.anything()), (value) => {
        expect(decodePassthroughBody(value)).toBeInstanceOf(Uint8Array);
      }),
      { numRuns: 400 },
    );
  });
});

describe('decodePassthroughBodyStrict', () => {
  it('throws passthrough_body_invalid for anything but canonical padded base64', () => {
    for (const value of ['eyJ0eXBlIjoxfQ', '-_8=', 'Zg==\n', 5]) {
      expect(() => decodePassthroughBodyStrict(value as string)).toThrow(
        expect.objectContaining({ code: 'passthrough_body_invalid' }),
      );
      expect(() => decodePassthroughBodyStrict(value as string)).toThrow(
        expect.objectContaining({ code: 'passthrough_body_invalid', path: 'bodyB64' }),
      );
    }
  });

  it('throws nothing but passthrough_body_invalid, and agrees with the gateway when it accepts', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 24 }), fc.anything()), (value) => {
        try {
          expect(decodePassthroughBodyStrict(value as string)).toEqual(decodePassthroughBody(value));
        } catch (error) {
          expect(error).toMatchObject({ name: 'RelayError', code: 'passthrough_body_invalid' });
        }
      }),
      { numRuns: 400 },
    );
  });
});
