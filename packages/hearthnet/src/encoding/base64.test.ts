import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64Decode, base64Encode } from './index.js';

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
