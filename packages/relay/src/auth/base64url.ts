const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Sextet value of each ASCII code in the url alphabet, -1 elsewhere. */
const SEXTETS = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < ALPHABET.length; i++) table[ALPHABET.charCodeAt(i)] = i;
  return table;
})();

/**
 * Base64url (RFC 4648 §5) of `bytes` without `=` padding: Python's `urlsafe_b64encode(…).rstrip("=")`
 * and Node's `Buffer.toString('base64url')`.
 */
export function base64UrlEncodeNoPad(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[v >> 18]! + ALPHABET[(v >> 12) & 63]! + ALPHABET[(v >> 6) & 63]! + ALPHABET[v & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const v = bytes[i]!;
    out += ALPHABET[v >> 2]! + ALPHABET[(v & 3) << 4]!;
  } else if (rest === 2) {
    const v = (bytes[i]! << 8) | bytes[i + 1]!;
    out += ALPHABET[v >> 10]! + ALPHABET[(v >> 4) & 63]! + ALPHABET[(v & 15) << 2]!;
  }
  return out;
}

/** Why {@link base64UrlDecodeNoPad} refused a text. */
export interface Base64UrlRefusal {
  readonly refused: string;
}

/**
 * Strict unpadded base64url: only `A–Z a–z 0–9 - _`, no `=`, no whitespace, a length that is not
 * 1 more than a multiple of 4, and zero bits after the last whole byte, so each byte string has
 * exactly one accepted text. Returns the bytes, or a {@link Base64UrlRefusal} saying what was wrong.
 */
export function base64UrlDecodeNoPad(text: string): Uint8Array | Base64UrlRefusal {
  const tail = text.length % 4;
  if (tail === 1) return { refused: `length ${text.length} is 1 more than a multiple of 4` };
  const sextets = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? SEXTETS[code]! : -1;
    if (value < 0) return { refused: `character ${JSON.stringify(text[i])} at index ${i} is not base64url` };
    sextets[i] = value;
  }
  const out = new Uint8Array((text.length * 3) >> 2);
  let o = 0;
  let i = 0;
  for (; i + 3 < text.length; i += 4) {
    const v = (sextets[i]! << 18) | (sextets[i + 1]! << 12) | (sextets[i + 2]! << 6) | sextets[i + 3]!;
    out[o++] = v >> 16;
    out[o++] = (v >> 8) & 255;
    out[o++] = v & 255;
  }
  if (tail === 2) {
    if ((sextets[i + 1]! & 15) !== 0) return { refused: 'the last character carries non-zero unused bits' };
    out[o] = (sextets[i]! << 2) | (sextets[i + 1]! >> 4);
  } else if (tail === 3) {
    if ((sextets[i + 2]! & 3) !== 0) return { refused: 'the last character carries non-zero unused bits' };
    const v = (sextets[i]! << 10) | (sextets[i + 1]! << 4) | (sextets[i + 2]! >> 2);
    out[o++] = v >> 8;
    out[o] = v & 255;
  }
  return out;
}
