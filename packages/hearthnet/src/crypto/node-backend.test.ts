import { afterEach, describe, expect, it, vi } from 'vitest';
import { nobleBackend, nodeCryptoBackend } from './ed25519.js';

const nodeCrypto = process.getBuiltinModule('node:crypto');
const randomBytes = (n: number): Uint8Array => globalThis.crypto.getRandomValues(new Uint8Array(n));

afterEach(() => {
  vi.restoreAllMocks();
  vi.resetModules();
});

describe('nodeCryptoBackend', () => {
  it('is available under Node and returns the same instance each time', () => {
    const backend = nodeCryptoBackend();
    expect(backend?.name).toBe('node:crypto');
    expect(nodeCryptoBackend()).toBe(backend);
  });

  it('returns plain Uint8Arrays that match the noble backend', () => {
    const backend = nodeCryptoBackend()!;
    const seed = randomBytes(32);
    const message = randomBytes(40);
    const publicKey = backend.publicKeyFromSeed(seed);
    const signature = backend.sign(message, seed);
    expect(Object.getPrototypeOf(publicKey)).toBe(Uint8Array.prototype);
    expect(Object.getPrototypeOf(signature)).toBe(Uint8Array.prototype);
    expect(publicKey).toEqual(nobleBackend.publicKeyFromSeed(seed));
    expect(signature).toEqual(nobleBackend.sign(message, seed));
  });

  it('imports each public key once', () => {
    const backend = nodeCryptoBackend()!;
    const seed = randomBytes(32);
    const message = randomBytes(10);
    const signature = backend.sign(message, seed);
    const publicKey = backend.publicKeyFromSeed(seed);
    const createPublicKey = vi.spyOn(nodeCrypto, 'createPublicKey');
    for (let i = 0; i < 3; i++) expect(backend.verify(signature, message, publicKey.slice())).toBe(true);
    expect(createPublicKey).toHaveBeenCalledTimes(1);
  });

  it('reuses the private key of a seed array, and notices when the array is rewritten', () => {
    const backend = nodeCryptoBackend()!;
    const seed = randomBytes(32);
    const message = randomBytes(10);
    const createPrivateKey = vi.spyOn(nodeCrypto, 'createPrivateKey');
    backend.sign(message, seed);
    backend.sign(message, seed);
    expect(createPrivateKey).toHaveBeenCalledTimes(1);
    seed.set(randomBytes(32));
    expect(backend.sign(message, seed)).toEqual(nobleBackend.sign(message, seed));
    expect(createPrivateKey).toHaveBeenCalledTimes(2);
  });

  it('is undefined where process.getBuiltinModule is missing, and the default falls back to noble', async () => {
    vi.spyOn(process, 'getBuiltinModule').mockReturnValue(undefined as never);
    vi.resetModules();
    const fresh = await import('./ed25519.js');
    expect(fresh.nodeCryptoBackend()).toBeUndefined();
    const { defaultEd25519Backend } = await import('./ed25519.js');
    expect(defaultEd25519Backend().name).toBe('@noble/ed25519');
  });
});
