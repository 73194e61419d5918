import { bytesToHex } from '@noble/hashes/utils.js';
import { hashInputBytes } from './hash-input.js';
import { blake3Hasher } from './hasher.js';

/**
 * BLAKE3 with the default 32-byte output. A string is hashed as its UTF-8 bytes.
 *
 * @throws {HearthNetLocalError} `invalid_hash_input` when `data` is not bytes or a well-formed string.
 * @example
 * ```ts
 * blake3('abc').length; // 32
 * ```
 */
export function blake3(data: Uint8Array | string): Uint8Array {
  return blake3Hasher.digest(hashInputBytes(data));
}

/**
 * {@link blake3} as 64 lowercase hex characters.
 *
 * @example
 * ```ts
 * blake3Hex(''); // 'af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262'
 * ```
 */
export function blake3Hex(data: Uint8Array | string): string {
  return bytesToHex(blake3(data));
}
