import { HearthNetLocalError, type HearthNetLocalErrorCode } from './errors.js';

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const BASE32_PAD = '=';

/** Value of each ASCII code in the upper-case RFC 4648 base32 alphabet, -1 elsewhere. */
const quintets = new Int8Array(128).fill(-1);
for (let i = 0; i < BASE32_ALPHABET.length; i++) quintets[BASE32_ALPHABET.charCodeAt(i)] = i;

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
      out += BASE32_ALPHABET[(buffer >> bits) & 31]!;
    }
  }
  if (bits > 0) out += BASE32_ALPHABET[(buffer << (5 - bits)) & 31]!;
  return out.length % 8 === 0 ? out : out + BASE32_PAD.repeat(8 - (out.length % 8));
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

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const PAD_CODE = 0x3d; // '='

/** The two ASCII codes of every 12-bit value, packed as `first << 8 | second`. */
const pairCodes: Uint16Array = (() => {
  const table = new Uint16Array(4096);
  for (let v = 0; v < 4096; v++)
    table[v] = (BASE64_ALPHABET.charCodeAt(v >> 6) << 8) | BASE64_ALPHABET.charCodeAt(v & 63);
  return table;
})();

/** The sextet of each ASCII code of the standard alphabet, 255 elsewhere. */
const sextets: Uint8Array = (() => {
  const table = new Uint8Array(256).fill(255);
  for (let i = 0; i < BASE64_ALPHABET.length; i++) table[BASE64_ALPHABET.charCodeAt(i)] = i;
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
    out[o++] = PAD_CODE;
    out[o] = PAD_CODE;
  } else if (length - whole === 2) {
    const v = (bytes[whole]! << 10) | (bytes[whole + 1]! << 2);
    const pair = pairCodes[v >> 6]!;
    out[o++] = pair >> 8;
    out[o++] = pair & 255;
    out[o++] = BASE64_ALPHABET.charCodeAt(v & 63);
    out[o] = PAD_CODE;
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
  const padding =
    length === 0 ? 0 : codes[length - 1] === PAD_CODE ? (codes[length - 2] === PAD_CODE ? 2 : 1) : 0;
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
      if ((b & 15) !== 0) throw base64NonCanonicalTail();
      out[o] = (a << 2) | (b >> 4);
    } else {
      const c = sextets[codes[full + 2]!]!;
      if (c === 255) throw invalidCharacter(text, full + 2);
      if ((c & 3) !== 0) throw base64NonCanonicalTail();
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

function base64NonCanonicalTail(): HearthNetLocalError {
  return new HearthNetLocalError('invalid_base64', 'standard base64 text ends in non-zero padding bits');
}

const URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

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
    const code = i < text.length ? text.charCodeAt(i) : PAD_CODE;
    if (code === PAD_CODE) {
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

const byteToHex: readonly string[] = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** Value of each ASCII hex digit (both cases), -1 elsewhere. */
const nibbles = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  nibbles[i.toString(16).charCodeAt(0)] = i;
  nibbles[i.toString(16).toUpperCase().charCodeAt(0)] = i;
}

/**
 * Encodes bytes as lowercase hex.
 *
 * @example
 * hexEncode(new Uint8Array([0, 171])); // '00ab'
 */
export function hexEncode(bytes: Uint8Array): string {
  assertBytes(bytes, 'hexEncode');
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += byteToHex[bytes[i]!]!;
  return out;
}

/**
 * Decodes hex strictly: an even number of characters, each `0–9 a–f A–F`. Throws
 * {@link HearthNetLocalError} with code `invalid_hex` otherwise.
 *
 * @example
 * hexDecode('00AB'); // Uint8Array [0, 171]
 */
export function hexDecode(text: string): Uint8Array {
  assertText(text, 'invalid_hex', 'hexDecode');
  if (text.length % 2 !== 0) throw new HearthNetLocalError('invalid_hex', `hex length ${text.length} is odd`);
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) {
    out[i] = (nibbleAt(text, 2 * i) << 4) | nibbleAt(text, 2 * i + 1);
  }
  return out;
}

function nibbleAt(text: string, index: number): number {
  const code = text.charCodeAt(index);
  const value = code < 128 ? nibbles[code]! : -1;
  if (value < 0) {
    throw new HearthNetLocalError(
      'invalid_hex',
      `invalid hex character ${JSON.stringify(text[index])} at index ${index}`,
    );
  }
  return value;
}

/** Throws `invalid_bytes` unless `value` is a `Uint8Array`. */
export function assertBytes(value: unknown, what: string): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) {
    throw new HearthNetLocalError(
      'invalid_bytes',
      `${what} expects a Uint8Array, got ${describeType(value)}`,
    );
  }
}

/** Throws `code` unless `value` is a string. */
export function assertText(
  value: unknown,
  code: HearthNetLocalErrorCode,
  what: string,
): asserts value is string {
  if (typeof value !== 'string')
    throw new HearthNetLocalError(code, `${what} expects a string, got ${describeType(value)}`);
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? (value.constructor?.name ?? 'an object') : typeof value;
}
