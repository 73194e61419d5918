import { assertBytes } from '../encoding/errors.js';
import { HearthNetLocalError } from '../errors.js';
import type { Ed25519Backend } from './ed25519-backend.js';
import { KEY_BYTES, passesLibsodiumPrechecks } from './libsodium-rules.js';
import { nobleBackend } from './noble-backend.js';
import { nodeCryptoBackend } from './node-backend.js';

/** Chooses the backend of one call; the default is {@link defaultEd25519Backend}. */
export interface Ed25519Options {
  readonly backend?: Ed25519Backend;
}

/** `node:crypto` where it can be reached, else `@noble/ed25519`. */
export function defaultEd25519Backend(): Ed25519Backend {
  return nodeCryptoBackend() ?? nobleBackend;
}

/** Throws {@link HearthNetLocalError} `invalid_key` unless `key` is a `Uint8Array` of 32 bytes. */
export function assertKeyBytes(key: unknown, what: string): asserts key is Uint8Array {
  if (!(key instanceof Uint8Array) || key.length !== KEY_BYTES) {
    const got = key instanceof Uint8Array ? `${key.length} bytes` : typeof key;
    throw new HearthNetLocalError(
      'invalid_key',
      `${what} must be a Uint8Array of ${KEY_BYTES} bytes, got ${got}`,
    );
  }
}

/**
 * The 32-byte Ed25519 public key of a 32-byte seed. Throws {@link HearthNetLocalError} `invalid_key` for a
 * bad seed.
 *
 * @example
 * const publicKey = ed25519PublicKeyFromSeed(seed);
 */
export function ed25519PublicKeyFromSeed(seed: Uint8Array, options: Ed25519Options = {}): Uint8Array {
  assertKeyBytes(seed, 'an Ed25519 seed');
  return (options.backend ?? defaultEd25519Backend()).publicKeyFromSeed(seed);
}

/**
 * Signs `message` with the key of a 32-byte seed (RFC 8032, deterministic). Throws
 * {@link HearthNetLocalError} `invalid_key` for a bad seed and `invalid_bytes` for a message that
 * is not a `Uint8Array`.
 *
 * @example
 * const signature = ed25519Sign(new TextEncoder().encode('hello'), seed); // 64 bytes
 */
export function ed25519Sign(message: Uint8Array, seed: Uint8Array, options: Ed25519Options = {}): Uint8Array {
  assertBytes(message, 'ed25519Sign');
  assertKeyBytes(seed, 'an Ed25519 seed');
  return (options.backend ?? defaultEd25519Backend()).sign(message, seed);
}

/**
 * Verifies an Ed25519 signature under libsodium's rule (`crypto_sign_verify_detached`, what PyNaCl
 * peers run): 64-byte signature, 32-byte key, S < L, R and A canonical and not of small order, then
 * the cofactorless equation. Every backend gives the same verdict. Never throws: any malformed
 * input is simply `false`.
 *
 * @example
 * if (!ed25519Verify(signature, message, publicKey)) throw new Error('forged');
 */
export function ed25519Verify(
  signature: Uint8Array,
  message: Uint8Array,
  publicKey: Uint8Array,
  options: Ed25519Options = {},
): boolean {
  if (
    !(signature instanceof Uint8Array && message instanceof Uint8Array && publicKey instanceof Uint8Array)
  ) {
    return false;
  }
  if (!passesLibsodiumPrechecks(signature, publicKey)) return false;
  try {
    return (options.backend ?? defaultEd25519Backend()).verify(signature, message, publicKey) === true;
  } catch {
    return false;
  }
}
