// Test support only (imported by *.test.ts, never by the package entries): curve arithmetic for
// building crafted Ed25519 inputs with noble's Point API.
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';

export const { Point } = ed;
export type CurvePoint = ed.Point;
/** The prime order L of the base point's subgroup. */
export const GROUP_ORDER = Point.CURVE().n;
/** The field prime p = 2^255 − 19. */
export const FIELD_PRIME = Point.CURVE().p;

export function bigIntToLittleEndian(value: bigint, length = 32): Uint8Array {
  const out = new Uint8Array(length);
  let v = value;
  for (let i = 0; i < length; i++) {
    out[i] = Number(v & 255n);
    v >>= 8n;
  }
  return out;
}

export function littleEndianToBigInt(bytes: Uint8Array): bigint {
  let value = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) value = (value << 8n) | BigInt(bytes[i]!);
  return value;
}

/** The eight points of order dividing 8, as multiples 0..7 of one point of order 8. */
export function torsionPoints(): CurvePoint[] {
  for (let y = 2n; ; y++) {
    let q: CurvePoint;
    try {
      q = Point.fromBytes(bigIntToLittleEndian(y));
    } catch {
      continue;
    }
    // [L]Q kills the prime-order part of Q and leaves its torsion component.
    const torsion = q.multiply(GROUP_ORDER - 1n, false).add(q);
    if (!torsion.multiply(4n, false).is0()) {
      return Array.from({ length: 8 }, (_, k) => (k === 0 ? Point.ZERO : torsion.multiply(BigInt(k), false)));
    }
  }
}

/** k = SHA-512(R ‖ A ‖ M) mod L, the RFC 8032 challenge. */
export function challenge(r: Uint8Array, publicKey: Uint8Array, message: Uint8Array): bigint {
  return (
    littleEndianToBigInt(sha512.create().update(r).update(publicKey).update(message).digest()) % GROUP_ORDER
  );
}

/** A scalar in [1, L) from 64 arbitrary bytes. */
export function scalarFrom(bytes: Uint8Array): bigint {
  return (littleEndianToBigInt(bytes) % (GROUP_ORDER - 1n)) + 1n;
}

/**
 * A signature `R ‖ S` made from raw scalars: the caller chooses the encoded R and A (possibly with
 * torsion components) and the secret scalars behind their prime-order parts.
 */
export function signRaw(
  message: Uint8Array,
  encodedR: Uint8Array,
  encodedA: Uint8Array,
  nonce: bigint,
  secretScalar: bigint,
): Uint8Array {
  const k = challenge(encodedR, encodedA, message);
  const s = (nonce + k * secretScalar) % GROUP_ORDER;
  const signature = new Uint8Array(64);
  signature.set(encodedR);
  signature.set(bigIntToLittleEndian(s), 32);
  return signature;
}
