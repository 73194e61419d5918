import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeBase64,
  decodeBase64PythonLenient,
  decodeBase64Url,
  decodeHex,
  encodeBase64,
  encodeBase64Url,
  encodeHex,
  isRefusal,
} from './encoding.js';

const bytes = fc.uint8Array({ maxLength: 70 });
const refusal = expect.objectContaining({ refused: expect.any(String) });

describe('encoders match Node', () => {
  it('base64, base64url and hex equal Buffer for any bytes', () => {
    fc.assert(
      fc.property(bytes, (b) => {
        expect(encodeBase64(b)).toBe(Buffer.from(b).toString('base64'));
        expect(encodeBase64Url(b)).toBe(Buffer.from(b).toString('base64url'));
        expect(encodeHex(b)).toBe(Buffer.from(b).toString('hex'));
      }),
    );
  });

  it('every decoder reads back what its encoder wrote', () => {
    fc.assert(
      fc.property(bytes, (b) => {
        expect(decodeBase64(encodeBase64(b))).toEqual(b);
        expect(decodeBase64Url(encodeBase64Url(b))).toEqual(b);
        expect(decodeHex(encodeHex(b))).toEqual(b);
        expect(decodeHex(encodeHex(b).toUpperCase())).toEqual(b);
        expect(decodeBase64PythonLenient(encodeBase64(b))).toEqual(b);
        expect(decodeBase64PythonLenient(encodeBase64Url(b), { urlSafe: true, addPadding: true })).toEqual(b);
      }),
    );
  });
});

describe('strict decoders accept one text per byte string', () => {
  it('decodeBase64 refuses every text that is not what encodeBase64 writes', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'AQZaz09+/=-_ \n'), maxLength: 12 }), (text) => {
        const decoded = decodeBase64(text);
        if (isRefusal(decoded)) return;
        expect(encodeBase64(decoded)).toBe(text);
      }),
    );
  });

  it('decodeBase64Url refuses every text that is not what encodeBase64Url writes', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'AQZaz09+/=-_ \n'), maxLength: 12 }), (text) => {
        const decoded = decodeBase64Url(text);
        if (isRefusal(decoded)) return;
        expect(encodeBase64Url(decoded)).toBe(text);
      }),
    );
  });

  it.each([
    ['length', 'QQ='],
    ['padding inside', 'Q=Q='],
    ['url alphabet', '-_8='],
    ['unused bits', 'QR=='],
    ['whitespace', 'QQ== '],
    ['non-ASCII', 'QQé='],
  ])('decodeBase64 refuses %s', (_, text) => {
    expect(decodeBase64(text)).toEqual(refusal);
  });

  it.each([
    ['padding', 'QQ=='],
    ['standard alphabet', '+/8'],
    ['length 1 more than a multiple of 4', 'QUFBQ'],
    ['unused bits', 'QR'],
  ])('decodeBase64Url refuses %s', (_, text) => {
    expect(decodeBase64Url(text)).toEqual(refusal);
  });

  it('decodeHex refuses odd lengths and non-hex characters', () => {
    expect(decodeHex('abc')).toEqual(refusal);
    expect(decodeHex('0g')).toEqual(refusal);
    expect(decodeHex('٠٠')).toEqual(refusal);
  });
});

describe("decodeBase64PythonLenient reads as CPython's b64decode does", () => {
  // Expected values from CPython 3.12: base64.b64decode(text) / base64.urlsafe_b64decode(text + padding).
  it.each([
    ['QUJD\nREVG', 'ABCDEF'],
    ['QU JD', 'ABC'],
    ['QQ==trailing', 'A'],
    ['Q=Q==', 'A'],
  ])('b64decode(%j)', (text, expected) => {
    expect(decodeBase64PythonLenient(text)).toEqual(new TextEncoder().encode(expected));
  });

  it('urlsafe reads both alphabets, and padding can be added', () => {
    expect(decodeBase64PythonLenient('-_8', { urlSafe: true, addPadding: true })).toEqual(
      new Uint8Array([0xfb, 0xff]),
    );
    expect(decodeBase64PythonLenient('+/8=', { urlSafe: true })).toEqual(new Uint8Array([0xfb, 0xff]));
  });

  it('refuses non-ASCII text, a lone data character and missing padding', () => {
    expect(decodeBase64PythonLenient('QQ==é')).toEqual(refusal);
    expect(decodeBase64PythonLenient('QUJDR')).toEqual(refusal);
    expect(decodeBase64PythonLenient('-_8=')).toEqual(refusal);
    expect(decodeBase64PythonLenient('QQ')).toEqual(refusal);
  });
});
