import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import type { Ed25519Backend } from './ed25519-backend.js';

const GROUP_ORDER = ed.Point.CURVE().n;

/** noble's synchronous API needs a SHA-512; install @noble/hashes' unless the application set one. */
function ensureSyncSha512(): void {
  if (ed.hashes.sha512 === undefined) ed.hashes.sha512 = (message) => sha512(message);
}

function littleEndianToBigInt(bytes: Uint8Array): bigint {
  let value = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) value = (value << 8n) | BigInt(bytes[i]!);
  return value;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

/**
 * RFC 8032 §5.1.7 verification with the cofactorless equation: decode A strictly, require S < L,
 * k = SHA-512(R ‖ A ‖ M) mod L, and accept when the encoding of [S]B − [k]A equals R byte for byte.
 * noble's own `verify` multiplies by the cofactor, which accepts signatures libsodium refuses.
 */
function verifyCofactorless(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  const r = signature.subarray(0, 32);
  const s = littleEndianToBigInt(signature.subarray(32, 64));
  if (s >= GROUP_ORDER) return false;
  let a: ed.Point;
  try {
    a = ed.Point.fromBytes(publicKey);
  } catch {
    return false;
  }
  const k =
    littleEndianToBigInt(sha512.create().update(r).update(publicKey).update(message).digest()) % GROUP_ORDER;
  const expectedR = ed.Point.BASE.multiply(s, false).subtract(a.multiply(k, false));
  return bytesEqual(expectedR.toBytes(), r);
}

/**
 * The pure-JavaScript backend, on `@noble/ed25519` v3's synchronous API: runs in every runtime,
 * about 1 ms per verification. Its `verify` computes the cofactorless equation itself so it agrees
 * with libsodium and `node:crypto`.
 *
 * @example
 * const signature = ed25519Sign(message, seed, { backend: nobleBackend });
 */
export const nobleBackend: Ed25519Backend = Object.freeze({
  name: '@noble/ed25519',
  publicKeyFromSeed(seed: Uint8Array): Uint8Array {
    ensureSyncSha512();
    return ed.getPublicKey(seed);
  },
  sign(message: Uint8Array, seed: Uint8Array): Uint8Array {
    ensureSyncSha512();
    return ed.sign(message, seed);
  },
  verify: verifyCofactorless,
});
