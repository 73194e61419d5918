import { HearthNetLocalError } from '../errors.js';
import { assertBytes, assertText } from './errors.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const PAD = '=';

/** Value of each ASCII code in the upper-case RFC 4648 base32 alphabet, -1 elsewhere. */
const quintets = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) quintets[ALPHABET.charCodeAt(i)] = i;

/** Data characters in a final, padded group, indexed by the number of bytes it carries (1–4). */
const dataCharsForBytes = [0, 2, 4, 5, 7] as const;

/**
 * Encodes bytes as RFC 4648 §6 base32: upper-case alphabet `A–Z 2–7`, `=`-padded to a multiple of
 * 8 characters. The reference's short node ids use this form.
 *
 * @example
 * base32Encode(new TextEncoder().encode('foobar')); // 'MZXW6YTBOI======'
 */
export function base32Encode(bytes: Uint8Array): string {
  assertBytes(bytes, 'base32Encode');
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (let i = 0; i < bytes.length; i++) {
    buffer = ((buffer << 8) | bytes[i]!) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(buffer >> bits) & 31]!;
    }
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31]!;
  return out.length % 8 === 0 ? out : out + PAD.repeat(8 - (out.length % 8));
}

/**
 * Decodes RFC 4648 §6 base32 strictly: upper-case alphabet only, length a multiple of 8, `=` only as
 * the padding of the last group and only in the counts the encoder writes (1, 3, 4 or 6), zero bits
 * after the last full byte. Throws {@link HearthNetLocalError} with code `invalid_base32` otherwise.
 *
 * @example
 * base32Decode('MZXW6YQ='); // bytes of 'foob'
 */
export function base32Decode(text: string): Uint8Array {
  assertText(text, 'invalid_base32', 'base32Decode');
  if (text.length % 8 !== 0) {
    throw new HearthNetLocalError('invalid_base32', `base32 length ${text.length} is not a multiple of 8`);
  }
  let dataChars = text.length;
  while (dataChars > 0 && text.charCodeAt(dataChars - 1) === 0x3d) dataChars--;
  const lastGroupChars = dataChars % 8;
  const lastGroupBytes = dataCharsForBytes.indexOf(lastGroupChars as 0 | 2 | 4 | 5 | 7);
  if (text.length - dataChars >= 8 || (lastGroupChars !== 0 && lastGroupBytes < 0)) {
    throw new HearthNetLocalError(
      'invalid_base32',
      `base32 text has ${text.length - dataChars} padding characters`,
    );
  }
  const out = new Uint8Array(Math.floor(dataChars / 8) * 5 + (lastGroupChars === 0 ? 0 : lastGroupBytes));
  let o = 0;
  let buffer = 0;
  let bits = 0;
  for (let i = 0; i < dataChars; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? quintets[code]! : -1;
    if (value < 0) {
      throw new HearthNetLocalError(
        'invalid_base32',
        `invalid base32 character ${JSON.stringify(text[i])} at index ${i}`,
      );
    }
    buffer = ((buffer << 5) | value) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (buffer >> bits) & 255;
    }
  }
  if ((buffer & ((1 << bits) - 1)) !== 0) {
    throw new HearthNetLocalError('invalid_base32', 'base32 text ends in non-zero padding bits');
  }
  return out;
}
