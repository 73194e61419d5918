import { HearthNetLocalError } from '../errors.js';
import { assertBytes, assertText } from './errors.js';

const URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const PAD = 0x3d; // '='

/** Two output characters for every 12-bit value: one lookup per 12 input bits. */
const pairTable: readonly string[] = Array.from({ length: 4096 }, (_, v) => {
  return URL_ALPHABET[v >> 6]! + URL_ALPHABET[v & 63]!;
});

/** Sextet value of each ASCII code in the url alphabet, -1 elsewhere. */
const urlSextets = sextetTable(URL_ALPHABET);

/** The lenient decoder reads both alphabets: `-`/`+` are 62 and `_`/`/` are 63. */
const eitherAlphabetSextets = sextetTable(URL_ALPHABET);
eitherAlphabetSextets[0x2b] = 62; // '+'
eitherAlphabetSextets[0x2f] = 63; // '/'

function sextetTable(alphabet: string): Int8Array {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
}

/**
 * Encodes bytes as base64url (RFC 4648 §5) without padding, the form every HearthNet id, key and
 * signature uses.
 *
 * @example
 * base64UrlEncode(new Uint8Array([0xfb, 0xff])); // '-_8'
 */
export function base64UrlEncode(bytes: Uint8Array): string {
  assertBytes(bytes, 'base64UrlEncode');
  const length = bytes.length;
  const whole = length - (length % 3);
  let out = '';
  for (let i = 0; i < whole; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += pairTable[v >> 12]! + pairTable[v & 4095]!;
  }
  if (length - whole === 1) {
    out += pairTable[bytes[whole]! << 4]!;
  } else if (length - whole === 2) {
    const v = (bytes[whole]! << 10) | (bytes[whole + 1]! << 2);
    out += pairTable[v >> 6]! + URL_ALPHABET[v & 63]!;
  }
  return out;
}

/**
 * Decodes unpadded base64url strictly: only the url alphabet `A–Z a–z 0–9 - _`, no `=`, no
 * whitespace, a length that is not 1 more than a multiple of 4, and zero bits after the last full
 * byte, so every byte string has exactly one accepted text. Throws {@link HearthNetLocalError} with code
 * `invalid_base64url` otherwise.
 *
 * @example
 * base64UrlDecode('-_8'); // Uint8Array [0xfb, 0xff]
 * base64UrlDecode('-_9'); // throws: non-zero trailing bits
 */
export function base64UrlDecode(text: string): Uint8Array {
  assertText(text, 'invalid_base64url', 'base64UrlDecode');
  const length = text.length;
  const tail = length & 3;
  if (tail === 1) {
    throw new HearthNetLocalError(
      'invalid_base64url',
      `base64url length ${length} is 1 more than a multiple of 4`,
    );
  }
  const out = new Uint8Array((length * 3) >> 2);
  const whole = length - tail;
  let o = 0;
  for (let i = 0; i < whole; i += 4) {
    const v =
      (sextetAt(text, i) << 18) |
      (sextetAt(text, i + 1) << 12) |
      (sextetAt(text, i + 2) << 6) |
      sextetAt(text, i + 3);
    out[o++] = v >> 16;
    out[o++] = (v >> 8) & 255;
    out[o++] = v & 255;
  }
  if (tail === 2) {
    const a = sextetAt(text, whole);
    const b = sextetAt(text, whole + 1);
    if ((b & 15) !== 0) throw nonCanonicalTail(text);
    out[o] = (a << 2) | (b >> 4);
  } else if (tail === 3) {
    const v = (sextetAt(text, whole) << 12) | (sextetAt(text, whole + 1) << 6) | sextetAt(text, whole + 2);
    if ((v & 3) !== 0) throw nonCanonicalTail(text);
    out[o++] = v >> 10;
    out[o] = (v >> 2) & 255;
  }
  return out;
}

function sextetAt(text: string, index: number): number {
  const code = text.charCodeAt(index);
  const value = code < 128 ? urlSextets[code]! : -1;
  if (value < 0) {
    throw new HearthNetLocalError(
      'invalid_base64url',
      `invalid base64url character ${JSON.stringify(text[index])} at index ${index}`,
    );
  }
  return value;
}

function nonCanonicalTail(text: string): HearthNetLocalError {
  return new HearthNetLocalError(
    'invalid_base64url',
    `base64url text ends in non-zero padding bits (last character ${JSON.stringify(text.at(-1))})`,
  );
}

/**
 * Decodes base64url the way the Python reference does, for interoperability only: it re-adds `=`
 * padding when the length is not a multiple of 4, then runs Python's non-validating
 * `base64.urlsafe_b64decode`. Never use it where one byte string must have one text.
 *
 * Inputs it accepts that {@link base64UrlDecode} refuses:
 * - `=` padding: a `=` in the first two places of a 4-character group is skipped; one that
 *   completes a group (`xx==`, `xxx=`) ends decoding, and anything after it is ignored;
 * - the standard alphabet `+` and `/`, also mixed with `-` and `_`;
 * - any other ASCII character outside both alphabets (whitespace, `.`, `!` …), silently skipped;
 * - non-zero bits after the last full byte (`'AB'` decodes like `'AA'`).
 *
 * It still throws {@link HearthNetLocalError} (`invalid_base64url`) for a non-ASCII character anywhere,
 * for a data-character count 1 more than a multiple of 4, and for a final group the padding does
 * not complete (e.g. 2 stray characters make the re-added padding come out wrong).
 *
 * @example
 * base64UrlDecodeLenient('-_8='); // Uint8Array [0xfb, 0xff]
 * base64UrlDecodeLenient('+/8');  // Uint8Array [0xfb, 0xff]
 */
export function base64UrlDecodeLenient(text: string): Uint8Array {
  assertText(text, 'invalid_base64url', 'base64UrlDecodeLenient');
  // Python refuses a str that has no ASCII encoding before it decodes anything.
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) {
      throw new HearthNetLocalError('invalid_base64url', `non-ASCII character at index ${i}`);
    }
  }
  const length = text.length + ((4 - (text.length & 3)) & 3);
  const out = new Uint8Array((length * 3) >> 2);
  let o = 0;
  let groupPosition = 0;
  let carry = 0;
  let pads = 0;
  for (let i = 0; i < length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : PAD;
    if (code === PAD) {
      if (groupPosition >= 2 && groupPosition + ++pads >= 4) return out.slice(0, o);
      continue;
    }
    const value = eitherAlphabetSextets[code]!;
    if (value < 0) continue;
    pads = 0;
    if (groupPosition === 0) {
      carry = value;
    } else if (groupPosition === 1) {
      out[o++] = (carry << 2) | (value >> 4);
      carry = value & 15;
    } else if (groupPosition === 2) {
      out[o++] = (carry << 4) | (value >> 2);
      carry = value & 3;
    } else {
      out[o++] = (carry << 6) | value;
    }
    groupPosition = (groupPosition + 1) & 3;
  }
  if (groupPosition === 1) {
    throw new HearthNetLocalError(
      'invalid_base64url',
      'number of base64 data characters is 1 more than a multiple of 4',
    );
  }
  if (groupPosition !== 0) throw new HearthNetLocalError('invalid_base64url', 'incorrect base64 padding');
  return out.slice(0, o);
}
