import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { readVectorJson } from '../test/vectors.js';
import { hmacSha256, relaySign } from './auth.js';

interface Rfc4231Case {
  readonly name: string;
  readonly key_hex: string;
  readonly data_hex: string;
  readonly mac_hex: string;
  readonly truncate_bits?: number;
}

const rfc4231 = readVectorJson<Rfc4231Case[]>('rfc4231/hmac_sha256.json');

describe('hmacSha256', () => {
  it('has all seven RFC 4231 test cases', () => {
    expect(rfc4231.map((c) => c.name)).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => `Test Case ${n}`));
  });

  for (const c of rfc4231) {
    it(`RFC 4231 ${c.name}`, () => {
      const mac = hmacSha256(hexToBytes(c.key_hex), hexToBytes(c.data_hex));
      expect(mac).toHaveLength(32);
      const compared = c.truncate_bits === undefined ? mac : mac.slice(0, c.truncate_bits / 8);
      expect(bytesToHex(compared)).toBe(c.mac_hex);
    });
  }
});

describe('relaySign', () => {
  const hexSecret = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';

  it('signs the frozen connector vector with the secret text as key', () => {
    expect(relaySign('gw-instance-1:0', hexSecret)).toBe(
      '37aa7b145e8764d403ba9c639f230dd63de8ed99b88fed36aa02625a8a7e3564',
    );
  });

  it('keys with the UTF-8 text of the secret, never its hex-decoded bytes', () => {
    const asText = relaySign('m', hexSecret);
    expect(asText).toBe(
      bytesToHex(hmacSha256(new TextEncoder().encode(hexSecret), new TextEncoder().encode('m'))),
    );
    expect(asText).not.toBe(bytesToHex(hmacSha256(hexToBytes(hexSecret), new TextEncoder().encode('m'))));
  });

  it('reproduces RFC 4231 case 2, whose key and data are text', () => {
    expect(relaySign('what do ya want for nothing?', 'Jefe')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('encodes non-ASCII secrets and messages as UTF-8', () => {
    expect(relaySign('é', 'ü')).toBe(
      bytesToHex(hmacSha256(new Uint8Array([0xc3, 0xbc]), new Uint8Array([0xc3, 0xa9]))),
    );
  });

  it('refuses non-strings and unpaired surrogates with typed errors', () => {
    expect(() => relaySign(1 as unknown as string, 's')).toThrow(
      expect.objectContaining({ code: 'relay_token_invalid_argument' }),
    );
    expect(() => relaySign('m', null as unknown as string)).toThrow(
      expect.objectContaining({ code: 'relay_token_invalid_argument', path: 'secret' }),
    );
    expect(() => relaySign('m\uD800', 's')).toThrow(
      expect.objectContaining({ code: 'relay_token_unpaired_surrogate' }),
    );
    expect(() => relaySign('m', '\uDC00x')).toThrow(expect.objectContaining({ path: 'secret' }));
  });
});
