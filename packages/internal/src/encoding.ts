// Base64 and hex, one copy for every package. The codecs never throw on bad input: a decoder returns
// the bytes or a `Refusal` saying what was wrong, and each package turns a refusal into its own error.

/** Why a decoder refused a text: a sentence naming the first problem. */
export interface Refusal {
  /** What was wrong, in a sentence that names the first offending character or the length. */
  readonly refused: string;
}

/** Whether a decoder's answer is a refusal. */
export function isRefusal(value: Uint8Array | Refusal): value is Refusal {
  return !(value instanceof Uint8Array);
}

const STANDARD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const PAD = 0x3d; // '='

/** The two ASCII codes of every 12-bit value, packed as `first << 8 | second`. */
function pairCodes(alphabet: string): Uint16Array {
  const table = new Uint16Array(4096);
  for (let v = 0; v < 4096; v++) table[v] = (alphabet.charCodeAt(v >> 6) << 8) | alphabet.charCodeAt(v & 63);
  return table;
}

/** Sextet value of each byte in `alphabet`, 255 elsewhere. */
function sextetTable(alphabet: string): Uint8Array {
  const table = new Uint8Array(256).fill(255);
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
}

const STANDARD_PAIRS = /* @__PURE__ */ pairCodes(STANDARD_ALPHABET);
const URL_PAIRS = /* @__PURE__ */ pairCodes(URL_ALPHABET);
const STANDARD_SEXTETS = /* @__PURE__ */ sextetTable(STANDARD_ALPHABET);
const URL_SEXTETS = /* @__PURE__ */ sextetTable(URL_ALPHABET);
/** Python's `urlsafe_b64decode` maps `-`/`_` to `+`/`/` first, so it reads both alphabets. */
const EITHER_SEXTETS = /* @__PURE__ */ (() => {
  const table = sextetTable(STANDARD_ALPHABET);
  table[0x2d] = 62; // '-'
  table[0x5f] = 63; // '_'
  return table;
})();

const latin1 = /* @__PURE__ */ new TextDecoder('latin1');

function encode(bytes: Uint8Array, pairs: Uint16Array, alphabet: string, pad: boolean): string {
  const length = bytes.length;
  const whole = length - (length % 3);
  const rest = length - whole;
  const out = new Uint8Array((whole / 3) * 4 + (rest === 0 ? 0 : pad ? 4 : rest + 1));
  let o = 0;
  for (let i = 0; i < whole; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    const high = pairs[v >> 12]!;
    const low = pairs[v & 4095]!;
    out[o++] = high >> 8;
    out[o++] = high & 255;
    out[o++] = low >> 8;
    out[o++] = low & 255;
  }
  if (rest === 1) {
    const pair = pairs[bytes[whole]! << 4]!;
    out[o++] = pair >> 8;
    out[o++] = pair & 255;
    if (pad) {
      out[o++] = PAD;
      out[o] = PAD;
    }
  } else if (rest === 2) {
    const v = (bytes[whole]! << 10) | (bytes[whole + 1]! << 2);
    const pair = pairs[v >> 6]!;
    out[o++] = pair >> 8;
    out[o++] = pair & 255;
    out[o++] = alphabet.charCodeAt(v & 63);
    if (pad) out[o] = PAD;
  }
  return latin1.decode(out);
}

/** Standard base64 (RFC 4648 §4) with `=` padding: Python's `base64.b64encode`. */
export function encodeBase64(bytes: Uint8Array): string {
  return encode(bytes, STANDARD_PAIRS, STANDARD_ALPHABET, true);
}

/** Base64url (RFC 4648 §5) without `=` padding: Python's `urlsafe_b64encode(…).rstrip("=")`. */
export function encodeBase64Url(bytes: Uint8Array): string {
  return encode(bytes, URL_PAIRS, URL_ALPHABET, false);
}

/**
 * Decodes `length` characters of `text` in one alphabet, strictly: every character in the alphabet,
 * zero bits after the last whole byte. `name` names the alphabet in a refusal.
 */
function decodeExact(text: string, length: number, sextets: Uint8Array, name: string): Uint8Array | Refusal {
  const tail = length & 3;
  const out = new Uint8Array((length * 3) >> 2);
  const whole = length - tail;
  let o = 0;
  for (let i = 0; i < whole; i += 4) {
    const a = sextetOf(text, i, sextets);
    const b = sextetOf(text, i + 1, sextets);
    const c = sextetOf(text, i + 2, sextets);
    const d = sextetOf(text, i + 3, sextets);
    if ((a | b | c | d) === 255) return invalidCharacter(text, i, sextets, name);
    const v = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = v >> 16;
    out[o++] = (v >> 8) & 255;
    out[o++] = v & 255;
  }
  if (tail === 2) {
    const a = sextetOf(text, whole, sextets);
    const b = sextetOf(text, whole + 1, sextets);
    if ((a | b) === 255) return invalidCharacter(text, whole, sextets, name);
    if ((b & 15) !== 0) return { refused: `${name} text ends in non-zero padding bits` };
    out[o] = (a << 2) | (b >> 4);
  } else if (tail === 3) {
    const a = sextetOf(text, whole, sextets);
    const b = sextetOf(text, whole + 1, sextets);
    const c = sextetOf(text, whole + 2, sextets);
    if ((a | b | c) === 255) return invalidCharacter(text, whole, sextets, name);
    if ((c & 3) !== 0) return { refused: `${name} text ends in non-zero padding bits` };
    out[o++] = (a << 2) | (b >> 4);
    out[o] = ((b & 15) << 4) | (c >> 2);
  }
  return out;
}

function sextetOf(text: string, index: number, sextets: Uint8Array): number {
  const code = text.charCodeAt(index);
  return code < 128 ? sextets[code]! : 255;
}

function invalidCharacter(text: string, from: number, sextets: Uint8Array, name: string): Refusal {
  let i = from;
  while (sextetOf(text, i, sextets) !== 255) i++;
  return { refused: `invalid ${name} character ${JSON.stringify(text[i])} at index ${i}` };
}

/**
 * Canonical padded standard base64 only: a length that is a multiple of 4, the alphabet
 * `A–Z a–z 0–9 + /`, `=` only as the last one or two characters, zero unused bits — exactly the texts
 * {@link encodeBase64} writes.
 */
export function decodeBase64(text: string): Uint8Array | Refusal {
  const length = text.length;
  if (length % 4 !== 0) return { refused: `standard base64 length ${length} is not a multiple of 4` };
  const pads = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return decodeExact(text, length - pads, STANDARD_SEXTETS, 'standard base64');
}

/**
 * Strict unpadded base64url: only `A–Z a–z 0–9 - _`, no `=`, no whitespace, a length that is not
 * 1 more than a multiple of 4, zero bits after the last whole byte — one text per byte string.
 */
export function decodeBase64Url(text: string): Uint8Array | Refusal {
  if (text.length % 4 === 1)
    return { refused: `base64url length ${text.length} is 1 more than a multiple of 4` };
  return decodeExact(text, text.length, URL_SEXTETS, 'base64url');
}

/** How {@link decodeBase64PythonLenient} reads a text. */
export interface PythonLenientOptions {
  /** `urlsafe_b64decode`: `-` and `_` count as `+` and `/` (both alphabets are read). Default `false`. */
  readonly urlSafe?: boolean;
  /** Add the `=` padding a length that is not a multiple of 4 lacks before decoding. Default `false`. */
  readonly addPadding?: boolean;
}

/**
 * Python's `base64.b64decode(text)` (or `urlsafe_b64decode`) in its default, non-validating mode
 * (CPython `binascii.a2b_base64` with `strict_mode=False`), for reading what a Python peer wrote:
 * - a text with any non-ASCII character is refused;
 * - characters outside the alphabet and `=` are skipped (whitespace, line breaks, `.`);
 * - `=` is ignored until a quantum holds at least two characters; once the padding completes that
 *   quantum, decoding stops and the rest of the text is ignored;
 * - a final quantum of one character, or of two or three characters without enough `=`, is refused.
 * Never use it where one byte string must have one text.
 */
export function decodeBase64PythonLenient(
  text: string,
  options: PythonLenientOptions = {},
): Uint8Array | Refusal {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) return { refused: `non-ASCII character at index ${i}` };
  }
  const sextets = options.urlSafe === true ? EITHER_SEXTETS : STANDARD_SEXTETS;
  const length = options.addPadding === true ? text.length + ((4 - (text.length & 3)) & 3) : text.length;
  const out = new Uint8Array(Math.ceil(length / 4) * 3);
  let o = 0;
  let position = 0;
  let carry = 0;
  let pads = 0;
  for (let i = 0; i < length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : PAD;
    if (code === PAD) {
      if (position >= 2 && position + ++pads >= 4) return out.slice(0, o);
      continue;
    }
    const value = sextets[code]!;
    if (value === 255) continue;
    pads = 0;
    if (position === 0) {
      carry = value;
    } else if (position === 1) {
      out[o++] = (carry << 2) | (value >> 4);
      carry = value & 15;
    } else if (position === 2) {
      out[o++] = (carry << 4) | (value >> 2);
      carry = value & 3;
    } else {
      out[o++] = (carry << 6) | value;
    }
    position = (position + 1) & 3;
  }
  if (position === 1) return { refused: 'the number of data characters is 1 more than a multiple of 4' };
  if (position !== 0) return { refused: 'incorrect padding' };
  return out.slice(0, o);
}

const BYTE_TO_HEX: readonly string[] = /* @__PURE__ */ Array.from({ length: 256 }, (_, b) =>
  b.toString(16).padStart(2, '0'),
);

/** Lowercase hex of `bytes`. */
export function encodeHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += BYTE_TO_HEX[bytes[i]!]!;
  return out;
}

function nibbleOf(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

/** Strict hex: an even number of characters, each `0–9 a–f A–F`. */
export function decodeHex(text: string): Uint8Array | Refusal {
  if (text.length % 2 !== 0) return { refused: `hex length ${text.length} is odd` };
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < text.length; i++) {
    const value = nibbleOf(text.charCodeAt(i));
    if (value < 0) return { refused: `invalid hex character ${JSON.stringify(text[i])} at index ${i}` };
    out[i >> 1] = (out[i >> 1]! << 4) | value;
  }
  return out;
}
