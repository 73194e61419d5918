import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { assertString } from './arguments.js';
import { utf8Strict } from './utf8.js';

/** HMAC-SHA-256 (RFC 2104 over FIPS 180-4) of `message` under `key`: 32 bytes. */
export function hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array {
  return hmac(sha256, key, message);
}

/**
 * The gateway's and connector's `sign`: lowercase hex HMAC-SHA-256 of the UTF-8 bytes of `message`,
 * keyed with the UTF-8 bytes of `secret` exactly as written. A secret that looks like hex is not
 * hex-decoded.
 *
 * @example
 * relaySign('gw-1:0', 'secret'); // 64 lowercase hex characters
 */
export function relaySign(message: string, secret: string): string {
  assertString(message, 'message');
  assertString(secret, 'secret');
  return bytesToHex(hmacSha256(utf8Strict(secret, 'secret'), utf8Strict(message, 'message')));
}
