import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { afterEach, describe, expect, it } from 'vitest';
import { hexDecode } from '../encoding.js';
import { challenge, Point, signRaw, torsionPoints } from './curve-test-support.js';
import { nobleBackend } from './ed25519.js';

const seed = hexDecode('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60'); // RFC 8032 TEST 1
const originalSha512 = ed.hashes.sha512;

afterEach(() => {
  ed.hashes.sha512 = originalSha512;
});

describe('nobleBackend', () => {
  it('installs a synchronous SHA-512 when the application has not set one', () => {
    ed.hashes.sha512 = undefined;
    expect(nobleBackend.publicKeyFromSeed(seed)).toEqual(
      hexDecode('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a'),
    );
    expect(ed.hashes.sha512).toBeTypeOf('function');
  });

  it("keeps the application's own SHA-512", () => {
    let calls = 0;
    const own: NonNullable<typeof ed.hashes.sha512> = (message) => {
      calls++;
      return sha512(message);
    };
    ed.hashes.sha512 = own;
    nobleBackend.sign(new Uint8Array(3), seed);
    expect(ed.hashes.sha512).toBe(own);
    expect(calls).toBeGreaterThan(0);
  });

  it('verifies cofactorless where noble itself is cofactored', () => {
    // A mixed-order key A + T and a challenge k with [k]T ≠ identity: only the cofactored equation holds.
    const t = torsionPoints()[1]!;
    const [secret, nonce] = [4242n, 2424n];
    const publicKey = Point.BASE.multiply(secret).add(t).toBytes();
    const r = Point.BASE.multiply(nonce).toBytes();
    let m = 0;
    while (t.multiply(challenge(r, publicKey, Uint8Array.of(m)), false).is0()) m++;
    const message = Uint8Array.of(m);
    const signature = signRaw(message, r, publicKey, nonce, secret);
    ed.hashes.sha512 = sha512;
    expect(ed.verify(signature, message, publicKey, { zip215: false })).toBe(true);
    expect(nobleBackend.verify(signature, message, publicKey)).toBe(false);
  });

  it('returns false for malformed input instead of throwing', () => {
    expect(nobleBackend.verify(new Uint8Array(63), new Uint8Array(0), new Uint8Array(32))).toBe(false);
    // y = 2 is not on the curve: A does not decode.
    const offCurve = new Uint8Array(32);
    offCurve[0] = 2;
    expect(nobleBackend.verify(new Uint8Array(64), new Uint8Array(0), offCurve)).toBe(false);
  });
});
