// Base64 in the two forms the relay wire uses: standard padded base64 (passthrough bodies, Python's
// `base64.b64encode`) and unpadded base64url (channel tokens, Python's `urlsafe_b64encode` with the
// padding stripped). One encoder and one sextet decoder serve both alphabets.

const STANDARD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const PAD = 0x3d; // '='

/** Sextet value of each ASCII code in `alphabet`, -1 elsewhere. */
function sextetTable(alphabet: string): Int8Array {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
}

const STANDARD_SEXTETS = sextetTable(STANDARD_ALPHABET);
const URL_SEXTETS = sextetTable(URL_ALPHABET);

/** Why a base64 decoder refused a text. */
export interface Base64Refusal {
  readonly refused: string;
}

function encode(bytes: Uint8Array, alphabet: string, pad: boolean): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += alphabet[v >> 18]! + alphabet[(v >> 12) & 63]! + alphabet[(v >> 6) & 63]! + alphabet[v & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const v = bytes[i]!;
    out += alphabet[v >> 2]! + alphabet[(v & 3) << 4]! + (pad ? '==' : '');
  } else if (rest === 2) {
    const v = (bytes[i]! << 8) | bytes[i + 1]!;
    out += alphabet[v >> 10]! + alphabet[(v >> 4) & 63]! + alphabet[(v & 15) << 2]! + (pad ? '=' : '');
  }
  return out;
}

/** Standard base64 (RFC 4648 §4) with `=` padding: Python's `base64.b64encode`. */
export function base64Encode(bytes: Uint8Array): string {
  return encode(bytes, STANDARD_ALPHABET, true);
}

/**
 * Base64url (RFC 4648 §5) of `bytes` without `=` padding: Python's `urlsafe_b64encode(…).rstrip("=")`
 * and Node's `Buffer.toString('base64url')`.
 */
export function base64UrlEncodeNoPad(bytes: Uint8Array): string {
  return encode(bytes, URL_ALPHABET, false);
}

/**
 * Reads `length` characters of `text` as sextets of `table`; a refusal names the first character
 * outside the alphabet.
 */
function readSextets(
  text: string,
  length: number,
  table: Int8Array,
  what: string,
): Uint8Array | Base64Refusal {
  const sextets = new Uint8Array(length);
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? table[code]! : -1;
    if (value < 0) return { refused: `character ${JSON.stringify(text[i])} at index ${i} is not ${what}` };
    sextets[i] = value;
  }
  return sextets;
}

/** Whether the last sextet of an unpadded tail of 2 or 3 characters carries bits beyond the last byte. */
function hasUnusedBits(sextets: Uint8Array): boolean {
  const tail = sextets.length % 4;
  const last = sextets[sextets.length - 1] ?? 0;
  return (tail === 2 && (last & 15) !== 0) || (tail === 3 && (last & 3) !== 0);
}

/**
 * Strict unpadded base64url: only `A–Z a–z 0–9 - _`, no `=`, no whitespace, a length that is not
 * 1 more than a multiple of 4, and zero bits after the last whole byte, so each byte string has
 * exactly one accepted text. Returns the bytes, or a {@link Base64Refusal} saying what was wrong.
 */
export function base64UrlDecodeNoPad(text: string): Uint8Array | Base64Refusal {
  if (text.length % 4 === 1) return { refused: `length ${text.length} is 1 more than a multiple of 4` };
  const sextets = readSextets(text, text.length, URL_SEXTETS, 'base64url');
  if (!(sextets instanceof Uint8Array)) return sextets;
  if (hasUnusedBits(sextets)) return { refused: 'the last character carries non-zero unused bits' };
  return sextetsToBytes(sextets);
}

/**
 * Canonical padded standard base64 only: a length that is a multiple of 4, the alphabet
 * `A–Z a–z 0–9 + /`, `=` only as the last one or two characters, zero unused bits. Every accepted
 * text is exactly what {@link base64Encode} writes for its bytes.
 */
export function base64DecodeStrict(text: string): Uint8Array | Base64Refusal {
  if (text.length % 4 !== 0) return { refused: `length ${text.length} is not a multiple of 4` };
  const pads = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const sextets = readSextets(text, text.length - pads, STANDARD_SEXTETS, 'standard base64');
  if (!(sextets instanceof Uint8Array)) return sextets;
  if (hasUnusedBits(sextets)) return { refused: `non-zero unused bits before \`${'='.repeat(pads)}\`` };
  return sextetsToBytes(sextets);
}

/**
 * Python's `base64.b64decode(text)` in its default, non-validating mode (CPython `binascii.a2b_base64`
 * with `strict_mode=False`), which the gateway uses for `bodyB64`:
 * - a text with any non-ASCII character is refused (`ValueError`);
 * - characters outside the standard alphabet and `=` are skipped, so url-safe `-`/`_`, whitespace
 *   and line breaks vanish;
 * - `=` is ignored until a quantum holds at least two characters; once the padding completes that
 *   quantum, decoding stops and the rest of the text is ignored;
 * - a final quantum of one character, or of two or three characters without enough `=`, is refused
 *   (`binascii.Error`), so unpadded input is refused.
 */
export function base64DecodePythonLenient(text: string): Uint8Array | Base64Refusal {
  const nonAscii = text.search(/[^\x00-\x7f]/);
  if (nonAscii >= 0) return { refused: `non-ASCII character at index ${nonAscii}` };
  const out = new Uint8Array(Math.ceil(text.length / 4) * 3);
  let o = 0;
  let quadPos = 0;
  let left = 0;
  let pads = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === PAD) {
      if (quadPos >= 2 && quadPos + ++pads >= 4) return out.slice(0, o);
      continue;
    }
    const value = STANDARD_SEXTETS[code]!;
    if (value < 0) continue;
    pads = 0;
    switch (quadPos) {
      case 0:
        left = value;
        quadPos = 1;
        break;
      case 1:
        out[o++] = (left << 2) | (value >> 4);
        left = value & 15;
        quadPos = 2;
        break;
      case 2:
        out[o++] = (left << 4) | (value >> 2);
        left = value & 3;
        quadPos = 3;
        break;
      default:
        out[o++] = (left << 6) | value;
        quadPos = 0;
    }
  }
  if (quadPos === 1) return { refused: 'the number of data characters is 1 more than a multiple of 4' };
  if (quadPos !== 0) return { refused: 'incorrect padding' };
  return out.slice(0, o);
}

function sextetsToBytes(sextets: Uint8Array): Uint8Array {
  const out = new Uint8Array((sextets.length * 3) >> 2);
  let o = 0;
  let i = 0;
  for (; i + 3 < sextets.length; i += 4) {
    const v = (sextets[i]! << 18) | (sextets[i + 1]! << 12) | (sextets[i + 2]! << 6) | sextets[i + 3]!;
    out[o++] = v >> 16;
    out[o++] = (v >> 8) & 255;
    out[o++] = v & 255;
  }
  const rest = sextets.length - i;
  if (rest === 2) {
    out[o] = (sextets[i]! << 2) | (sextets[i + 1]! >> 4);
  } else if (rest === 3) {
    const v = (sextets[i]! << 10) | (sextets[i + 1]! << 4) | (sextets[i + 2]! >> 2);
    out[o++] = v >> 8;
    out[o] = v & 255;
  }
  return out;
}
