const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const PAD = 0x3d; // '='

/** Sextet value of each ASCII code in the standard alphabet, -1 elsewhere. */
const SEXTETS = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < ALPHABET.length; i++) table[ALPHABET.charCodeAt(i)] = i;
  return table;
})();

/** Why a base64 decoder refused a text. */
export interface Base64Refusal {
  readonly refused: string;
}

/** Standard base64 (RFC 4648 §4) with `=` padding: Python's `base64.b64encode`. */
export function base64Encode(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[v >> 18]! + ALPHABET[(v >> 12) & 63]! + ALPHABET[(v >> 6) & 63]! + ALPHABET[v & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const v = bytes[i]!;
    out += `${ALPHABET[v >> 2]!}${ALPHABET[(v & 3) << 4]!}==`;
  } else if (rest === 2) {
    const v = (bytes[i]! << 8) | bytes[i + 1]!;
    out += `${ALPHABET[v >> 10]!}${ALPHABET[(v >> 4) & 63]!}${ALPHABET[(v & 15) << 2]!}=`;
  }
  return out;
}

/**
 * Canonical padded standard base64 only: a length that is a multiple of 4, the alphabet
 * `A–Z a–z 0–9 + /`, `=` only as the last one or two characters, zero unused bits. Every accepted
 * text is exactly what {@link base64Encode} writes for its bytes.
 */
export function base64DecodeStrict(text: string): Uint8Array | Base64Refusal {
  if (text.length % 4 !== 0) return { refused: `length ${text.length} is not a multiple of 4` };
  const pads = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const dataLength = text.length - pads;
  const sextets = new Uint8Array(dataLength);
  for (let i = 0; i < dataLength; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? SEXTETS[code]! : -1;
    if (value < 0)
      return { refused: `character ${JSON.stringify(text[i])} at index ${i} is not standard base64` };
    sextets[i] = value;
  }
  if (pads === 1 && (sextets[dataLength - 1]! & 3) !== 0)
    return { refused: 'non-zero unused bits before `=`' };
  if (pads === 2 && (sextets[dataLength - 1]! & 15) !== 0)
    return { refused: 'non-zero unused bits before `==`' };
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
    const value = SEXTETS[code]!;
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
