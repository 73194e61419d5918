import { HearthNetLocalError } from '../errors.js';
import { assertBytes, assertText } from './errors.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const PAD = 0x3d; // '='

/** The two ASCII codes of every 12-bit value, packed as `first << 8 | second`. */
const pairCodes: Uint16Array = (() => {
  const table = new Uint16Array(4096);
  for (let v = 0; v < 4096; v++) table[v] = (ALPHABET.charCodeAt(v >> 6) << 8) | ALPHABET.charCodeAt(v & 63);
  return table;
})();

/** The sextet of each ASCII code of the standard alphabet, 255 elsewhere. */
const sextets: Uint8Array = (() => {
  const table = new Uint8Array(256).fill(255);
  for (let i = 0; i < ALPHABET.length; i++) table[ALPHABET.charCodeAt(i)] = i;
  return table;
})();

const ascii = new TextDecoder('latin1');
const utf8 = new TextEncoder();

/**
 * Encodes bytes as standard base64 with `=` padding (RFC 4648 §4): the `data_b64` of `file.read` and
 * `file.put` chunk frames (contract §4.7, §4.10).
 *
 * @example
 * base64Encode(new Uint8Array([0xfb, 0xff])); // '+/8='
 */
export function base64Encode(bytes: Uint8Array): string {
  assertBytes(bytes, 'base64Encode');
  const length = bytes.length;
  const out = new Uint8Array(Math.ceil(length / 3) * 4);
  const whole = length - (length % 3);
  let o = 0;
  for (let i = 0; i < whole; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    const high = pairCodes[v >> 12]!;
    const low = pairCodes[v & 4095]!;
    out[o++] = high >> 8;
    out[o++] = high & 255;
    out[o++] = low >> 8;
    out[o++] = low & 255;
  }
  if (length - whole === 1) {
    const pair = pairCodes[bytes[whole]! << 4]!;
    out[o++] = pair >> 8;
    out[o++] = pair & 255;
    out[o++] = PAD;
    out[o] = PAD;
  } else if (length - whole === 2) {
    const v = (bytes[whole]! << 10) | (bytes[whole + 1]! << 2);
    const pair = pairCodes[v >> 6]!;
    out[o++] = pair >> 8;
    out[o++] = pair & 255;
    out[o++] = ALPHABET.charCodeAt(v & 63);
    out[o] = PAD;
  }
  return ascii.decode(out);
}

/**
 * Decodes standard padded base64 strictly: only `A–Z a–z 0–9 + /`, a length that is a multiple of 4
 * with at most two `=` at the end, no whitespace, and zero bits after the last byte — one text per byte
 * string. Throws {@link HearthNetLocalError} `invalid_base64` otherwise.
 *
 * @example
 * base64Decode('+/8='); // Uint8Array [0xfb, 0xff]
 */
export function base64Decode(text: string): Uint8Array {
  assertText(text, 'invalid_base64', 'base64Decode');
  const length = text.length;
  if (length % 4 !== 0) {
    throw new HearthNetLocalError(
      'invalid_base64',
      `standard base64 has a length that is a multiple of 4, got ${length}`,
    );
  }
  // Non-ASCII characters become multi-byte sequences, whose bytes are not in the alphabet.
  const codes = utf8.encode(text);
  if (codes.length !== length) throw invalidCharacter(text, firstNonAscii(text));
  const padding = length === 0 ? 0 : codes[length - 1] === PAD ? (codes[length - 2] === PAD ? 2 : 1) : 0;
  const out = new Uint8Array((length / 4) * 3 - padding);
  const full = padding === 0 ? length : length - 4;
  let o = 0;
  for (let i = 0; i < full; i += 4) {
    const a = sextets[codes[i]!]!;
    const b = sextets[codes[i + 1]!]!;
    const c = sextets[codes[i + 2]!]!;
    const d = sextets[codes[i + 3]!]!;
    if ((a | b | c | d) === 255) throw invalidCharacter(text, firstInvalid(codes, i));
    const v = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = v >> 16;
    out[o++] = (v >> 8) & 255;
    out[o++] = v & 255;
  }
  if (padding > 0) {
    const a = sextets[codes[full]!]!;
    const b = sextets[codes[full + 1]!]!;
    if ((a | b) === 255) throw invalidCharacter(text, firstInvalid(codes, full));
    if (padding === 2) {
      if ((b & 15) !== 0) throw nonCanonicalTail();
      out[o] = (a << 2) | (b >> 4);
    } else {
      const c = sextets[codes[full + 2]!]!;
      if (c === 255) throw invalidCharacter(text, full + 2);
      if ((c & 3) !== 0) throw nonCanonicalTail();
      out[o++] = (a << 2) | (b >> 4);
      out[o] = ((b & 15) << 4) | (c >> 2);
    }
  }
  return out;
}

function firstInvalid(codes: Uint8Array, from: number): number {
  let i = from;
  while (sextets[codes[i]!] !== 255) i++;
  return i;
}

function firstNonAscii(text: string): number {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return i;
  return 0;
}

function invalidCharacter(text: string, index: number): HearthNetLocalError {
  return new HearthNetLocalError(
    'invalid_base64',
    `invalid standard base64 character ${JSON.stringify(text[index])} at index ${index} (padding only at the end)`,
  );
}

function nonCanonicalTail(): HearthNetLocalError {
  return new HearthNetLocalError('invalid_base64', 'standard base64 text ends in non-zero padding bits');
}
