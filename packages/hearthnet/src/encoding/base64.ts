import { base64UrlDecode, base64UrlEncode } from './base64url.js';
import { assertText, EncodingError } from './errors.js';

const STANDARD_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Encodes bytes as standard base64 with `=` padding (RFC 4648 §4): the `data_b64` of `file.read` and
 * `file.put` chunk frames (contract §4.7, §4.10).
 *
 * @example
 * base64Encode(new Uint8Array([0xfb, 0xff])); // '+/8='
 */
export function base64Encode(bytes: Uint8Array): string {
  const url = base64UrlEncode(bytes);
  const padded = url.length % 4 === 0 ? url : url + '='.repeat(4 - (url.length % 4));
  return padded.replaceAll('-', '+').replaceAll('_', '/');
}

/**
 * Decodes standard padded base64 strictly: only `A–Z a–z 0–9 + /`, a length that is a multiple of 4
 * with at most two `=` at the end, no whitespace, and zero bits after the last byte — one text per byte
 * string. Throws {@link EncodingError} `invalid_base64` otherwise.
 *
 * @example
 * base64Decode('+/8='); // Uint8Array [0xfb, 0xff]
 */
export function base64Decode(text: string): Uint8Array {
  assertText(text, 'invalid_base64', 'base64Decode');
  if (text.length % 4 !== 0 || !STANDARD_BASE64.test(text)) {
    throw new EncodingError(
      'invalid_base64',
      'standard base64 has a length that is a multiple of 4, the alphabet A–Z a–z 0–9 + / and at most two trailing =',
    );
  }
  const unpadded = text.endsWith('==') ? text.slice(0, -2) : text.endsWith('=') ? text.slice(0, -1) : text;
  try {
    return base64UrlDecode(unpadded.replaceAll('+', '-').replaceAll('/', '_'));
  } catch (error) {
    throw new EncodingError('invalid_base64', (error as Error).message.replaceAll('base64url', 'base64'), {
      cause: error,
    });
  }
}
