import {
  decodeBase64,
  decodeBase64PythonLenient,
  decodeBase64Url,
  decodeHex,
  describeType,
  encodeBase64,
  encodeBase64Url,
  encodeHex,
  isRefusal,
  type Refusal,
} from '@agentwire/internal';
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

/** The bytes a shared decoder returned, or its refusal as a `HearthNetLocalError` with `code`. */
function bytesOr(decoded: Uint8Array | Refusal, code: HearthNetLocalErrorCode): Uint8Array {
  if (isRefusal(decoded)) throw new HearthNetLocalError(code, decoded.refused);
  return decoded;
}

/**
 * Encodes bytes as standard base64 with `=` padding (RFC 4648 §4): the `data_b64` of `file.read` and
 * `file.put` chunk frames (contract §4.7, §4.10).
 *
 * @example
 * base64Encode(new Uint8Array([0xfb, 0xff])); // '+/8='
 */
export function base64Encode(bytes: Uint8Array): string {
  assertBytes(bytes, 'base64Encode');
  const native = nativeBuffer();
  // Node's Buffer writes the same RFC 4648 text at native speed; elsewhere the table-driven codec.
  return native === undefined || bytes.length < NATIVE_MIN_BYTES
    ? encodeBase64(bytes)
    : native.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
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
  const native = nativeBuffer();
  if (native !== undefined && text.length >= NATIVE_MIN_TEXT && text.length % 4 === 0) {
    // Buffer decodes leniently, skipping what is not base64 (whitespace, other characters, a `=` before the
    // end) and reading the url alphabet too: the text is the one canonical text of its bytes when it has
    // no url character, Buffer skipped nothing (all the bytes its length promises came out) and the bits
    // after the last byte are zero. Otherwise the codec below gives the refusal and its reason.
    const pads = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
    if (text.indexOf('-') === -1 && text.indexOf('_') === -1 && zeroBitsAfterLastByte(text, pads)) {
      const decoded = native.from(text, 'base64');
      if (decoded.byteLength === (text.length / 4) * 3 - pads) {
        return new Uint8Array(decoded.buffer, decoded.byteOffset, decoded.byteLength);
      }
    }
  }
  return bytesOr(decodeBase64(text), 'invalid_base64');
}

/**
 * Writes the standard padded base64 of `bytes` (the text {@link base64Encode} gives) as ASCII bytes into
 * `target` from `offset`, and returns the offset after it; {@link base64Length} tells the room it needs.
 * For a frame that carries a chunk: its bytes are written once, with no text made on the way.
 */
export function base64EncodeInto(input: Uint8Array, target: Uint8Array, offset: number): number {
  // Plain views whatever the caller holds (a Node Buffer is a subclass): the loop below sees one kind.
  const bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  const out = new Uint8Array(target.buffer, target.byteOffset, target.byteLength);
  const pairs = sextetPairs();
  const whole = bytes.length - (bytes.length % 3);
  let at = offset;
  for (let i = 0; i < whole; i += 3) {
    const triple = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    const high = pairs[triple >>> 12] as number;
    const low = pairs[triple & 0xfff] as number;
    out[at] = high >>> 8;
    out[at + 1] = high & 0xff;
    out[at + 2] = low >>> 8;
    out[at + 3] = low & 0xff;
    at += 4;
  }
  if (whole < bytes.length) {
    const first = bytes[whole] as number;
    const second = whole + 1 < bytes.length ? (bytes[whole + 1] as number) : undefined;
    const triple = (first << 16) | ((second ?? 0) << 8);
    out[at] = STANDARD_ALPHABET.charCodeAt(triple >>> 18);
    out[at + 1] = STANDARD_ALPHABET.charCodeAt((triple >>> 12) & 0x3f);
    out[at + 2] = second === undefined ? PAD_CODE : STANDARD_ALPHABET.charCodeAt((triple >>> 6) & 0x3f);
    out[at + 3] = PAD_CODE;
    at += 4;
  }
  return at;
}

/** The length of the padded base64 of `byteLength` bytes. */
export function base64Length(byteLength: number): number {
  return Math.ceil(byteLength / 3) * 4;
}

/**
 * Decodes the standard padded base64 held as ASCII bytes in `text[start, end)` under the rules of
 * {@link base64Decode} (only the standard alphabet, a length that is a multiple of 4, at most two `=`
 * at the end, zero bits after the last byte), or answers `undefined` for anything else. For a frame
 * read as bytes: the chunk comes out without a string made of its text.
 */
export function base64DecodeBytes(bytes: Uint8Array, start: number, end: number): Uint8Array | undefined {
  const length = end - start;
  if (length < 0 || length % 4 !== 0) return undefined;
  if (length === 0) return new Uint8Array(0);
  // A plain view whatever the caller holds (a Node Buffer is a subclass): the loop below sees one kind.
  const text = new Uint8Array(bytes.buffer, bytes.byteOffset + start, length);
  const pads = text[length - 1] === PAD_CODE ? (text[length - 2] === PAD_CODE ? 2 : 1) : 0;
  const sextets = sextetTable();
  const out = new Uint8Array((length / 4) * 3 - pads);
  const whole = pads === 0 ? length : length - 4;
  let invalid = 0;
  let at = 0;
  for (let i = 0; i < whole; i += 4) {
    const a = sextets[text[i] as number] as number;
    const b = sextets[text[i + 1] as number] as number;
    const c = sextets[text[i + 2] as number] as number;
    const d = sextets[text[i + 3] as number] as number;
    invalid |= a | b | c | d;
    out[at] = (a << 2) | (b >> 4);
    out[at + 1] = (b << 4) | (c >> 2);
    out[at + 2] = (c << 6) | d;
    at += 3;
  }
  if (pads > 0) {
    const a = sextets[text[whole] as number] as number;
    const b = sextets[text[whole + 1] as number] as number;
    const c = pads === 2 ? 0 : (sextets[text[whole + 2] as number] as number);
    invalid |= a | b | c;
    // The bits after the last byte must be zero: one text per byte string.
    if ((pads === 2 ? b & 0x0f : c & 0x03) !== 0) return undefined;
    out[at] = (a << 2) | (b >> 4);
    if (pads === 1) out[at + 1] = (b << 4) | (c >> 2);
  }
  return invalid < 0 ? undefined : out;
}

let sextetTableOnce: Int16Array | undefined;

/** Each byte's sextet in the standard alphabet, or a negative value for a byte outside it (built on first use). */
function sextetTable(): Int16Array {
  if (sextetTableOnce === undefined) {
    sextetTableOnce = new Int16Array(256).fill(-256);
    for (let sextet = 0; sextet < 64; sextet += 1)
      sextetTableOnce[STANDARD_ALPHABET.charCodeAt(sextet)] = sextet;
  }
  return sextetTableOnce;
}

const PAD_CODE = 0x3d;
let sextetPairTable: Uint16Array | undefined;

/** The two alphabet characters of every 12-bit value, high character in the high byte (built on first use). */
function sextetPairs(): Uint16Array {
  if (sextetPairTable === undefined) {
    sextetPairTable = new Uint16Array(4096);
    for (let value = 0; value < 4096; value += 1) {
      sextetPairTable[value] =
        (STANDARD_ALPHABET.charCodeAt(value >>> 6) << 8) | STANDARD_ALPHABET.charCodeAt(value & 0x3f);
    }
  }
  return sextetPairTable;
}

/** What base64 needs of Node's `Buffer`. */
interface NativeBuffer {
  from(buffer: ArrayBufferLike, byteOffset: number, length: number): { toString(encoding: 'base64'): string };
  from(text: string, encoding: 'base64'): Uint8Array;
}

/** Node's `Buffer` where the runtime has one (never in a browser bundle: it is read from the global). */
function nativeBuffer(): NativeBuffer | undefined {
  const candidate = (globalThis as { readonly Buffer?: NativeBuffer }).Buffer;
  return typeof candidate?.from === 'function' ? candidate : undefined;
}

/** Whether the last data character of a padded text leaves zero bits after the last byte. */
function zeroBitsAfterLastByte(text: string, pads: number): boolean {
  if (pads === 0) return true;
  const sextet = STANDARD_ALPHABET.indexOf(text.charAt(text.length - pads - 1));
  return sextet !== -1 && (sextet & (pads === 2 ? 0x0f : 0x03)) === 0;
}

const STANDARD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * Below these sizes the codec is as fast, and `Buffer.from` would hand out a slice of Node's shared
 * pool (texts under 4 KiB of bytes), whose `buffer` holds other data.
 */
const NATIVE_MIN_BYTES = 1024;
const NATIVE_MIN_TEXT = 8192;

/**
 * Encodes bytes as base64url (RFC 4648 §5) without padding, the form every HearthNet id, key and
 * signature uses.
 *
 * @example
 * base64UrlEncode(new Uint8Array([0xfb, 0xff])); // '-_8'
 */
export function base64UrlEncode(bytes: Uint8Array): string {
  assertBytes(bytes, 'base64UrlEncode');
  return encodeBase64Url(bytes);
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
  return bytesOr(decodeBase64Url(text), 'invalid_base64url');
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
  return bytesOr(decodeBase64PythonLenient(text, { urlSafe: true, addPadding: true }), 'invalid_base64url');
}

/**
 * Encodes bytes as lowercase hex.
 *
 * @example
 * hexEncode(new Uint8Array([0, 171])); // '00ab'
 */
export function hexEncode(bytes: Uint8Array): string {
  assertBytes(bytes, 'hexEncode');
  return encodeHex(bytes);
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
  return bytesOr(decodeHex(text), 'invalid_hex');
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
