import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { hexDecode } from '../encoding.js';
import { nobleBackend } from './ed25519.js';
import { generateKeyPair, keyPairFromSeed, nodeIdFromPublicKey } from './key-pair.js';

// RFC 8032 §7.1 TEST 2
const seed = hexDecode('4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb');
const publicKey = hexDecode('3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c');

describe('keyPairFromSeed', () => {
  it('derives the public key and node id, on either backend', () => {
    for (const kp of [keyPairFromSeed(seed), keyPairFromSeed(seed, { backend: nobleBackend })]) {
      expect(kp.publicKey).toEqual(publicKey);
      expect(kp.secretKey).toEqual(seed);
      expect(kp.nodeId).toBe('ed25519:PUAXw-hDiVqStwqnTRt-vJyYLM8uxJaMwM1V8Sr0Zgw');
      expect(kp.nodeId).toBe(nodeIdFromPublicKey(publicKey));
    }
  });

  it('copies the seed and freezes the pair', () => {
    const input = seed.slice();
    const kp = keyPairFromSeed(input);
    input.fill(0);
    expect(kp.secretKey).toEqual(seed);
    expect(Object.isFrozen(kp)).toBe(true);
  });

  it('keeps the seed out of JSON and of util.inspect, but not out of reach', () => {
    const kp = keyPairFromSeed(seed);
    const seedForms = [
      Buffer.from(seed).toString('hex'),
      Buffer.from(seed).toString('base64').slice(0, 40),
      Buffer.from(seed).toString('base64url').slice(0, 40),
      Array.from(seed).join(','),
      Array.from(seed.subarray(0, 8)).join(', '),
    ];
    const json = JSON.stringify(kp);
    expect(JSON.parse(json)).toEqual({ nodeId: kp.nodeId });
    const inspected = [
      inspect(kp),
      inspect({ identity: kp }, { depth: 5 }),
      inspect(kp, { showHidden: true }),
    ];
    for (const text of [json, ...inspected]) {
      for (const form of seedForms) expect(text).not.toContain(form);
    }
    expect(inspected[0]).toContain('[redacted]');
    expect(inspected[0]).toContain(kp.nodeId);
    expect({ ...kp }.secretKey).toEqual(seed);
    expect(Object.keys(kp).sort()).toEqual(['nodeId', 'publicKey', 'secretKey']);
  });

  it('copies a Buffer seed into a plain Uint8Array', () => {
    const kp = keyPairFromSeed(Buffer.from(seed));
    expect(Object.getPrototypeOf(kp.secretKey)).toBe(Uint8Array.prototype);
  });

  it('refuses anything but 32 bytes with invalid_key', () => {
    for (const bad of [new Uint8Array(31), new Uint8Array(33), 'seed', undefined, Array.from(seed)]) {
      expect(() => keyPairFromSeed(bad as Uint8Array)).toThrow(
        expect.objectContaining({ code: 'invalid_key' }),
      );
    }
    expect(() => keyPairFromSeed(new Uint8Array(31))).toThrow(
      expect.objectContaining({ code: 'invalid_key' }),
    );
  });
});

describe('generateKeyPair', () => {
  it('makes a fresh, consistent key pair each time', () => {
    const a = generateKeyPair();
    const b = generateKeyPair();
    expect(a.secretKey).toHaveLength(32);
    expect(a.secretKey).not.toEqual(b.secretKey);
    expect(keyPairFromSeed(a.secretKey).publicKey).toEqual(a.publicKey);
    expect(a.nodeId).toBe(nodeIdFromPublicKey(a.publicKey));
  });
});
