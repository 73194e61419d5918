import { base32Encode, base64UrlDecode, base64UrlDecodeLenient, base64UrlEncode } from '../encoding.js';
import { HearthNetLocalError } from '../errors.js';
import { assertKeyBytes, type Ed25519Options, ed25519PublicKeyFromSeed, KEY_BYTES } from './ed25519.js';

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

/** Every HearthNet node id, and every signature, starts with this algorithm prefix. */
export const ED25519_PREFIX = 'ed25519:';

/** Key bytes the short display id is made of. */
const SHORT_ID_KEY_BYTES = 8;
const SHORT_ID_GROUP_CHARS = 4;

/**
 * What the reference takes for a short id after the prefix: groups of 1–4 base32 characters or `=`,
 * at least two, joined by `-`. Such ids are refused by {@link parseNodeId}, as the reference does.
 */
const SHORT_FORM = /^[A-Z2-7=]{1,4}(?:-[A-Z2-7=]{1,4})+$/;

/**
 * The full node id of a public key: `ed25519:` + unpadded base64url of the 32 key bytes (51
 * characters). Throws {@link HearthNetLocalError} `invalid_key` unless the key is 32 bytes.
 *
 * @example
 * // the RFC 8032 TEST 1 key d75a9801…f707511a
 * nodeIdFromPublicKey(publicKey); // 'ed25519:11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo'
 */
export function nodeIdFromPublicKey(publicKey: Uint8Array): string {
  assertKeyBytes(publicKey, 'a public key');
  return ED25519_PREFIX + base64UrlEncode(publicKey);
}

/**
 * The reference's short display id: `ed25519:` + padded RFC 4648 base32 of the first 8 key bytes,
 * cut into groups of 4 joined by `-` (the last group is always one character and `===`). For
 * display only: it cannot be turned back into a key. Accepts a public key or a full node id
 * (parsed strictly; throws {@link HearthNetLocalError} `invalid_key` or `invalid_node_id`).
 *
 * @example
 * shortNodeId(publicKey); // 'ed25519:25NJ-QAMC-WEFL-O===' (RFC 8032 TEST 1 key)
 */
export function shortNodeId(publicKeyOrNodeId: Uint8Array | string): string {
  const publicKey =
    typeof publicKeyOrNodeId === 'string' ? parseNodeId(publicKeyOrNodeId) : publicKeyOrNodeId;
  assertKeyBytes(publicKey, 'a public key');
  const base32 = base32Encode(publicKey.subarray(0, SHORT_ID_KEY_BYTES));
  const groups: string[] = [];
  for (let i = 0; i < base32.length; i += SHORT_ID_GROUP_CHARS)
    groups.push(base32.slice(i, i + SHORT_ID_GROUP_CHARS));
  return ED25519_PREFIX + groups.join('-');
}

/** How {@link parseNodeId} decodes the base64url part. */
export interface ParseNodeIdOptions {
  /**
   * Decode as the Python reference does (`=` padding, `+/`, stray
   * characters skipped), for ids that came from a reference peer. Default: strict base64url.
   */
  readonly lenient?: boolean;
}

/**
 * The 32-byte public key in a full node id. Requires the `ed25519:` prefix, refuses the short
 * display form and anything that does not decode to exactly 32 bytes, throwing
 * {@link HearthNetLocalError} `invalid_node_id` with the broken rule in `details.reason`.
 *
 * @example
 * const publicKey = parseNodeId('ed25519:11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo');
 */
export function parseNodeId(nodeId: string, options: ParseNodeIdOptions = {}): Uint8Array {
  if (typeof nodeId !== 'string') {
    throw new HearthNetLocalError('invalid_node_id', `a node id must be a string, got ${typeof nodeId}`, {
      details: { reason: 'not_a_string', value: nodeId },
    });
  }
  if (!nodeId.startsWith(ED25519_PREFIX)) {
    throw new HearthNetLocalError(
      'invalid_node_id',
      `node id ${quote(nodeId)} does not start with 'ed25519:'`,
      {
        details: { reason: 'missing_prefix', value: nodeId },
      },
    );
  }
  const encoded = nodeId.slice(ED25519_PREFIX.length);
  if (SHORT_FORM.test(encoded)) {
    throw new HearthNetLocalError(
      'invalid_node_id',
      `${quote(nodeId)} is a short node id; it holds no full key`,
      {
        details: { reason: 'short_form', value: nodeId },
      },
    );
  }
  let publicKey: Uint8Array;
  try {
    publicKey = options.lenient === true ? base64UrlDecodeLenient(encoded) : base64UrlDecode(encoded);
  } catch (cause) {
    throw new HearthNetLocalError('invalid_node_id', `node id ${quote(nodeId)} is not base64url`, {
      cause,
      details: { reason: 'invalid_encoding', value: nodeId },
    });
  }
  if (publicKey.length !== KEY_BYTES) {
    throw new HearthNetLocalError(
      'invalid_node_id',
      `node id ${quote(nodeId)} holds ${publicKey.length} bytes, not ${KEY_BYTES}`,
      { details: { reason: 'wrong_length', value: nodeId } },
    );
  }
  return publicKey;
}

function quote(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}
