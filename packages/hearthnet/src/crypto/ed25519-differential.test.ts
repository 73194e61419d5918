import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bigIntToLittleEndian,
  type CurvePoint,
  challenge,
  FIELD_PRIME,
  GROUP_ORDER,
  littleEndianToBigInt,
  Point,
  scalarFrom,
  signRaw,
  torsionPoints,
} from './curve-test-support.js';
import {
  ed25519PublicKeyFromSeed,
  ed25519Sign,
  ed25519Verify,
  nobleBackend,
  nodeCryptoBackend,
} from './ed25519.js';

// Differential test: the node:crypto and noble backends, behind the libsodium rule, must give the
// same verdict on every input, honest or crafted. Where the right verdict is known it is asserted too.

const nodeBackend = nodeCryptoBackend()!;
const torsion = torsionPoints();
const nonIdentityTorsion = torsion.slice(1);

/** Both verdicts; fails the test when they differ. */
function verdict(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  const fromNode = ed25519Verify(signature, message, publicKey, { backend: nodeBackend });
  const fromNoble = ed25519Verify(signature, message, publicKey, { backend: nobleBackend });
  expect(fromNode, 'node:crypto and noble disagree').toBe(fromNoble);
  return fromNode;
}

const seed = fc.uint8Array({ minLength: 32, maxLength: 32 });
const message = fc.uint8Array({ maxLength: 96 });
const scalar = fc.uint8Array({ minLength: 64, maxLength: 64 }).map(scalarFrom);
const torsionPoint = fc.constantFrom(...nonIdentityTorsion);
const anyTorsionPoint = fc.constantFrom(...torsion);

/** A key pair made from a raw secret scalar, so torsion can be added to its public point. */
function rawKey(secret: bigint, extra: CurvePoint = Point.ZERO): Uint8Array {
  return Point.BASE.multiply(secret).add(extra).toBytes();
}

describe('node:crypto and noble behind the libsodium rule', () => {
  it('both accept honest signatures from either backend', () => {
    fc.assert(
      fc.property(seed, message, fc.boolean(), (s, m, signWithNode) => {
        const backend = signWithNode ? nodeBackend : nobleBackend;
        const publicKey = ed25519PublicKeyFromSeed(s, { backend });
        expect(verdict(ed25519Sign(m, s, { backend }), m, publicKey)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('both refuse a signature with one bit flipped in the signature, the key or the message', () => {
    const nonEmptyMessage = fc.uint8Array({ minLength: 1, maxLength: 96 });
    const part = fc.constantFrom('signature', 'publicKey', 'message');
    fc.assert(
      fc.property(seed, nonEmptyMessage, fc.nat(), part, (s, m, bit, flipped) => {
        const parts = {
          signature: ed25519Sign(m, s, { backend: nodeBackend }).slice(),
          publicKey: ed25519PublicKeyFromSeed(s, { backend: nodeBackend }).slice(),
          message: m.slice(),
        };
        const target = parts[flipped];
        target[(bit >> 3) % target.length]! ^= 1 << (bit & 7);
        expect(verdict(parts.signature, parts.message, parts.publicKey)).toBe(false);
      }),
      { numRuns: 60 },
    );
  });

  it('both refuse the malleated signature S + L', () => {
    fc.assert(
      fc.property(seed, message, (s, m) => {
        const signature = ed25519Sign(m, s, { backend: nodeBackend }).slice();
        const malleated = littleEndianToBigInt(signature.subarray(32)) + GROUP_ORDER;
        fc.pre(malleated < 1n << 256n);
        signature.set(bigIntToLittleEndian(malleated), 32);
        expect(verdict(signature, m, ed25519PublicKeyFromSeed(s))).toBe(false);
      }),
      { numRuns: 20 },
    );
  });

  it('accept a mixed-order key A + T exactly when [k]T is the identity (cofactorless)', () => {
    fc.assert(
      fc.property(scalar, scalar, torsionPoint, message, (secret, nonce, t, m) => {
        const publicKey = rawKey(secret, t);
        const r = rawKey(nonce);
        const signature = signRaw(m, r, publicKey, nonce, secret);
        const k = challenge(r, publicKey, m);
        expect(verdict(signature, m, publicKey)).toBe(t.multiply(k, false).is0());
      }),
      { numRuns: 40 },
    );
  });

  it('accept a mixed-order key when the challenge happens to kill its torsion', () => {
    // Search messages until [k]T = identity (one in eight tries for T of order 8).
    const [secret, nonce, t] = [987654321n, 123456789n, torsion[1]!];
    const publicKey = rawKey(secret, t);
    const r = rawKey(nonce);
    let m = 0;
    while (!t.multiply(challenge(r, publicKey, Uint8Array.of(m)), false).is0()) m++;
    const message = Uint8Array.of(m);
    expect(verdict(signRaw(message, r, publicKey, nonce, secret), message, publicKey)).toBe(true);
    // The same signature under the next message that does not kill the torsion fails.
    let other = m + 1;
    while (t.multiply(challenge(r, publicKey, Uint8Array.of(other)), false).is0()) other++;
    const otherMessage = Uint8Array.of(other);
    expect(verdict(signRaw(otherMessage, r, publicKey, nonce, secret), otherMessage, publicKey)).toBe(false);
  });

  it('both refuse a mixed-order R + T (it passes only the cofactored equation)', () => {
    fc.assert(
      fc.property(scalar, scalar, torsionPoint, message, (secret, nonce, t, m) => {
        const publicKey = rawKey(secret);
        const r = rawKey(nonce, t);
        expect(verdict(signRaw(m, r, publicKey, nonce, secret), m, publicKey)).toBe(false);
      }),
      { numRuns: 30 },
    );
  });

  it('both refuse a small-order R, with either sign bit', () => {
    fc.assert(
      fc.property(
        scalar,
        anyTorsionPoint,
        fc.boolean(),
        fc.bigInt({ min: 0n, max: GROUP_ORDER - 1n }),
        message,
        (secret, t, sign, s, m) => {
          const signature = new Uint8Array(64);
          signature.set(t.toBytes());
          if (sign) signature[31]! |= 0x80;
          signature.set(bigIntToLittleEndian(s), 32);
          expect(verdict(signature, m, rawKey(secret))).toBe(false);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('both refuse a small-order key even when the equation holds for it', () => {
    // A = T, S = 0 and R = −[k]T satisfy [S]B − [k]A = R; libsodium refuses A anyway.
    let crafted = 0;
    for (const t of nonIdentityTorsion) {
      const publicKey = t.toBytes();
      for (const candidate of torsion) {
        for (let m = 0; m < 4; m++) {
          const message = Uint8Array.of(m);
          const r = candidate.toBytes();
          const k = challenge(r, publicKey, message);
          if (!t.multiply(k, false).negate().equals(candidate)) continue;
          const signature = new Uint8Array(64);
          signature.set(r);
          crafted++;
          expect(verdict(signature, message, publicKey)).toBe(false);
        }
      }
    }
    expect(crafted).toBeGreaterThan(0);
  });

  it('both refuse non-canonical encodings of A or R (y ≥ p)', () => {
    fc.assert(
      fc.property(
        seed,
        message,
        fc.bigInt({ min: FIELD_PRIME, max: (1n << 255n) - 1n }),
        fc.boolean(),
        fc.boolean(),
        (s, m, y, sign, inR) => {
          const encoding = bigIntToLittleEndian(y);
          if (sign) encoding[31]! |= 0x80;
          const signature = ed25519Sign(m, s).slice();
          const publicKey = ed25519PublicKeyFromSeed(s);
          if (inR) signature.set(encoding, 0);
          expect(verdict(signature, m, inR ? publicKey : encoding)).toBe(false);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('agree on random signatures and keys', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 64, maxLength: 64 }),
        seed,
        message,
        (signature, publicKey, m) => {
          expect(verdict(signature, m, publicKey)).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  });
});
