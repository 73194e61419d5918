import { describe, expect, it } from 'vitest';
import type { Ed25519Backend } from './ed25519.js';
import {
  defaultEd25519Backend,
  ed25519PublicKeyFromSeed,
  ed25519Sign,
  ed25519Verify,
  nobleBackend,
  nodeCryptoBackend,
} from './ed25519.js';

const seed = Uint8Array.from({ length: 32 }, (_, i) => i);
const message = new TextEncoder().encode('hearth');
const publicKey = ed25519PublicKeyFromSeed(seed);
const signature = ed25519Sign(message, seed);

describe('defaultEd25519Backend', () => {
  it('is node:crypto under Node', () => {
    expect(defaultEd25519Backend()).toBe(nodeCryptoBackend());
    expect(defaultEd25519Backend().name).toBe('node:crypto');
  });
});

describe('ed25519Sign', () => {
  it('is deterministic and the same on both backends', () => {
    expect(ed25519Sign(message, seed, { backend: nobleBackend })).toEqual(signature);
    expect(signature).toBeInstanceOf(Uint8Array);
    expect(signature).toHaveLength(64);
  });

  it('refuses a seed that is not 32 bytes with invalid_key', () => {
    for (const bad of [new Uint8Array(31), new Uint8Array(33), new Uint8Array(64), 'seed', null]) {
      expect(() => ed25519Sign(message, bad as Uint8Array)).toThrow(
        expect.objectContaining({ code: 'invalid_key' }),
      );
      expect(() => ed25519PublicKeyFromSeed(bad as Uint8Array)).toThrow(
        expect.objectContaining({ code: 'invalid_key' }),
      );
    }
  });

  it('refuses a message that is not bytes with invalid_bytes', () => {
    expect(() => ed25519Sign('hearth' as unknown as Uint8Array, seed)).toThrow(
      expect.objectContaining({ code: 'invalid_bytes' }),
    );
  });

  it('uses the backend it is given', () => {
    const calls: string[] = [];
    const recording: Ed25519Backend = {
      name: 'recording',
      publicKeyFromSeed(s) {
        calls.push('publicKeyFromSeed');
        return nobleBackend.publicKeyFromSeed(s);
      },
      sign(m, s) {
        calls.push('sign');
        return nobleBackend.sign(m, s);
      },
      verify(sig, m, pk) {
        calls.push('verify');
        return nobleBackend.verify(sig, m, pk);
      },
    };
    ed25519PublicKeyFromSeed(seed, { backend: recording });
    ed25519Sign(message, seed, { backend: recording });
    expect(ed25519Verify(signature, message, publicKey, { backend: recording })).toBe(true);
    expect(calls).toEqual(['publicKeyFromSeed', 'sign', 'verify']);
  });
});

describe('ed25519Verify', () => {
  it('accepts a valid signature and refuses another message', () => {
    expect(ed25519Verify(signature, message, publicKey)).toBe(true);
    expect(ed25519Verify(signature, new TextEncoder().encode('hearth!'), publicKey)).toBe(false);
  });

  it('returns false, never throws, for malformed input', () => {
    const inputs: [unknown, unknown, unknown][] = [
      [signature.subarray(0, 63), message, publicKey],
      [new Uint8Array(65), message, publicKey],
      [signature, message, publicKey.subarray(0, 31)],
      ['not bytes', message, publicKey],
      [signature, 'not bytes', publicKey],
      [signature, message, null],
      [undefined, undefined, undefined],
      [Array.from(signature), message, publicKey],
    ];
    for (const [sig, msg, pk] of inputs) {
      expect(ed25519Verify(sig as Uint8Array, msg as Uint8Array, pk as Uint8Array)).toBe(false);
    }
  });

  it('does not ask the backend about pairs the libsodium rule refuses', () => {
    let asked = false;
    const backend: Ed25519Backend = {
      ...nobleBackend,
      verify() {
        asked = true;
        return true;
      },
    };
    const identityR = signature.slice();
    identityR.set(Uint8Array.of(1, ...new Uint8Array(31)));
    expect(ed25519Verify(identityR, message, publicKey, { backend })).toBe(false);
    expect(asked).toBe(false);
  });

  it('treats a throwing backend as a refusal', () => {
    const backend: Ed25519Backend = {
      ...nobleBackend,
      verify: () => {
        throw new Error('boom');
      },
    };
    expect(ed25519Verify(signature, message, publicKey, { backend })).toBe(false);
  });
});
