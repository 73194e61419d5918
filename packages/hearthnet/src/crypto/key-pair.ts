import { assertKeyBytes, type Ed25519Options, ed25519PublicKeyFromSeed } from './ed25519.js';
import { KEY_BYTES } from './libsodium-rules.js';
import { nodeIdFromPublicKey } from './node-id.js';

/** A node's Ed25519 identity. */
export interface KeyPair {
  /** The 32-byte public key. */
  readonly publicKey: Uint8Array;
  /** The 32-byte seed: RFC 8032's private key, what the reference stores in `device.ed25519`. */
  readonly secretKey: Uint8Array;
  /** The full node id, `ed25519:<base64url(publicKey)>`. */
  readonly nodeId: string;
}

/**
 * The key pair of a 32-byte seed (the seed is copied). Throws {@link HearthNetLocalError} `invalid_key` for
 * anything but 32 bytes. The seed stays out of `JSON.stringify` (which gives `{ nodeId }`) and of Node's
 * `util.inspect` / `console.log` (which show it as `[redacted]`); `secretKey` itself is readable as usual,
 * and a spread copy carries it like any other field.
 *
 * @example
 * const kp = keyPairFromSeed(seed);
 * kp.nodeId; // 'ed25519:…'
 */
export function keyPairFromSeed(seed: Uint8Array, options: Ed25519Options = {}): KeyPair {
  assertKeyBytes(seed, 'an Ed25519 seed');
  const secretKey = new Uint8Array(seed);
  const publicKey = ed25519PublicKeyFromSeed(secretKey, options);
  const nodeId = nodeIdFromPublicKey(publicKey);
  const keyPair = { publicKey, secretKey, nodeId };
  Object.defineProperties(keyPair, {
    toJSON: { value: () => ({ nodeId }) },
    [INSPECT]: { value: () => ({ nodeId, publicKey, secretKey: '[redacted]' }) },
  });
  return Object.freeze(keyPair);
}

/** The key Node's `util.inspect` looks up for a custom view (a registered symbol, so no `node:util` import). */
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * A fresh key pair from the platform's cryptographic random source (`crypto.getRandomValues`).
 *
 * @example
 * const { nodeId } = generateKeyPair();
 */
export function generateKeyPair(options: Ed25519Options = {}): KeyPair {
  return keyPairFromSeed(globalThis.crypto.getRandomValues(new Uint8Array(KEY_BYTES)), options);
}
