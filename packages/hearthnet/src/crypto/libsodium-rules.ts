import { hexDecode } from '../encoding/index.js';

/**
 * The checks libsodium's `crypto_sign_verify_detached` (what PyNaCl peers run) makes before the
 * group equation, as byte comparisons. Together with a cofactorless equation compared byte-wise
 * against `R`, they give libsodium's verdict on every input.
 */

/** Bytes of an Ed25519 signature: `R` (32) then `S` (32, little-endian). */
export const SIGNATURE_BYTES = 64;
/** Bytes of an Ed25519 public key, and of the seed that is its private key. */
export const KEY_BYTES = 32;

/** The group order L = 2^252 + 27742317777372353535851937790883648493, little-endian. */
const GROUP_ORDER_LE = hexDecode('edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010');

/**
 * Every 32-byte encoding (sign bit cleared) whose y names a point of order 1, 2, 4 or 8. The eight
 * small-order points have only five y values: 1 (the identity), p − 1 (order 2), 0 (the two points
 * of order 4) and ±y₈ (the four of order 8). Two of them also have a non-canonical encoding below
 * 2^255: y = p and y = p + 1. `libsodium-rules.test.ts` derives this list from the curve.
 */
const SMALL_ORDER_ENCODINGS: readonly Uint8Array[] = [
  '0000000000000000000000000000000000000000000000000000000000000000', // y = 0
  '0100000000000000000000000000000000000000000000000000000000000000', // y = 1
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05', // y = y₈
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a', // y = p − y₈
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // y = p − 1
  'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // y = p, non-canonical 0
  'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // y = p + 1, non-canonical 1
].map(hexDecode);

/** True when the 32 little-endian bytes at `offset` are an integer below L (a canonical `S`). */
export function isCanonicalScalar(bytes: Uint8Array, offset = 0): boolean {
  for (let i = KEY_BYTES - 1; i >= 0; i--) {
    const byte = bytes[offset + i]!;
    const limit = GROUP_ORDER_LE[i]!;
    if (byte !== limit) return byte < limit;
  }
  return false;
}

/**
 * True when the 32 bytes at `offset` encode y < p = 2^255 − 19 (the sign bit is not part of y).
 * This is libsodium's `ge25519_is_canonical`.
 */
export function isCanonicalPointEncoding(bytes: Uint8Array, offset = 0): boolean {
  if ((bytes[offset + 31]! & 0x7f) !== 0x7f) return true;
  for (let i = 30; i >= 1; i--) {
    if (bytes[offset + i] !== 0xff) return true;
  }
  return bytes[offset]! < 0xed;
}

/**
 * True when the 32 bytes at `offset` are one of {@link SMALL_ORDER_ENCODINGS}, comparing the last
 * byte without its sign bit (libsodium's `ge25519_has_small_order` blocklist). Any x sign is refused.
 */
export function hasSmallOrderEncoding(bytes: Uint8Array, offset = 0): boolean {
  for (const encoding of SMALL_ORDER_ENCODINGS) {
    let difference = (bytes[offset + 31]! & 0x7f) ^ encoding[31]!;
    for (let i = 0; i < 31 && difference === 0; i++) difference |= bytes[offset + i]! ^ encoding[i]!;
    if (difference === 0) return true;
  }
  return false;
}

/**
 * libsodium's pre-checks on a signature and public key. Returns false when libsodium would refuse
 * the pair before evaluating the group equation; true means "go on to the cofactorless equation".
 */
export function passesLibsodiumPrechecks(signature: Uint8Array, publicKey: Uint8Array): boolean {
  // A signature is exactly 64 bytes and a public key exactly 32 (PyNaCl refuses other lengths).
  if (signature.length !== SIGNATURE_BYTES || publicKey.length !== KEY_BYTES) return false;
  // S must be reduced, S < L: otherwise S and S + L would both verify (malleability).
  if (!isCanonicalScalar(signature, KEY_BYTES)) return false;
  // R must not be a small-order point: such an R lets a forger satisfy the equation for weak keys.
  if (hasSmallOrderEncoding(signature, 0)) return false;
  // R must be canonical. libsodium has no separate test, but its final comparison of R against a
  // canonical re-encoding refuses every other R; checking here only skips the scalar multiplications.
  if (!isCanonicalPointEncoding(signature, 0)) return false;
  // A must be canonically encoded (y < p), libsodium's `ge25519_is_canonical`.
  if (!isCanonicalPointEncoding(publicKey, 0)) return false;
  // A must not be a small-order point: a signature under such a key proves nothing about a message.
  if (hasSmallOrderEncoding(publicKey, 0)) return false;
  return true;
}
