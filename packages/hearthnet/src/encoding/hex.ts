import { HearthNetLocalError } from '../errors.js';
import { assertBytes, assertText } from './errors.js';

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
