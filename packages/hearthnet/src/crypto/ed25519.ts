import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { assertBytes, hexDecode } from '../encoding.js';
import { HearthNetLocalError } from '../errors.js';

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

/**
 * One Ed25519 implementation (RFC 8032, pure Ed25519): the primitives the SDK signs and verifies
 * with. Callers go through {@link ed25519Verify}, which applies the libsodium verification rule in
 * front of the backend, so every backend gives the same verdicts.
 */
export interface Ed25519Backend {
  /** A short name for diagnostics, e.g. `'node:crypto'`. */
  readonly name: string;
  /** The 32-byte public key of a 32-byte seed (RFC 8032's private key). */
  publicKeyFromSeed(seed: Uint8Array): Uint8Array;
  /** The deterministic 64-byte signature of `message` under the key of `seed`. */
  sign(message: Uint8Array, seed: Uint8Array): Uint8Array;
  /**
   * The cofactorless RFC 8032 check: true when the encoding of `[S]B − [k]A` equals the
   * signature's `R` bytes. May throw on malformed input; callers treat a throw as `false`.
   */
  verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
}

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

/**
 * `node:crypto`, looked up at run time so this file stays importable in browsers and other
 * runtimes: `process.getBuiltinModule` exists from Node 20.16 and is absent elsewhere.
 */
function loadNodeCrypto() {
  return globalThis.process?.getBuiltinModule?.('node:crypto');
}

type NodeCrypto = NonNullable<ReturnType<typeof loadNodeCrypto>>;
type KeyObject = ReturnType<NodeCrypto['createPublicKey']>;

/** DER header of a PKCS#8 Ed25519 private key; the 32-byte seed follows. */
const PKCS8_ED25519_HEADER = hexDecode('302e020100300506032b657004220420');
/** DER header of an SPKI Ed25519 public key; the 32-byte key follows. */
const SPKI_ED25519_HEADER = hexDecode('302a300506032b6570032100');

/** Importing a public key costs about as much as one verification, so imported keys are kept. */
const PUBLIC_KEY_CACHE_ENTRIES = 1024;

function withHeader(header: Uint8Array, key: Uint8Array): Uint8Array {
  const der = new Uint8Array(header.length + key.length);
  der.set(header);
  der.set(key, header.length);
  return der;
}

function createNodeCryptoBackend(nodeCrypto: NodeCrypto): Ed25519Backend {
  const publicKeys = new LruCache<string, KeyObject>(PUBLIC_KEY_CACHE_ENTRIES);
  // Keyed by the caller's seed array, so no copy of a secret becomes a long-lived map key; the
  // entry goes when the array does. The stored copy catches a seed array rewritten in place.
  const privateKeys = new WeakMap<Uint8Array, { readonly seed: Uint8Array; readonly key: KeyObject }>();

  function privateKeyOf(seed: Uint8Array): KeyObject {
    const cached = privateKeys.get(seed);
    if (cached?.seed.every((byte, i) => byte === seed[i])) return cached.key;
    const key = nodeCrypto.createPrivateKey({
      key: withHeader(PKCS8_ED25519_HEADER, seed) as Buffer,
      format: 'der',
      type: 'pkcs8',
    });
    privateKeys.set(seed, { seed: new Uint8Array(seed), key });
    return key;
  }

  function publicKeyOf(publicKey: Uint8Array): KeyObject {
    const id = String.fromCharCode(...publicKey);
    let key = publicKeys.get(id);
    if (key === undefined) {
      key = nodeCrypto.createPublicKey({
        key: withHeader(SPKI_ED25519_HEADER, publicKey) as Buffer,
        format: 'der',
        type: 'spki',
      });
      publicKeys.set(id, key);
    }
    return key;
  }

  return Object.freeze({
    name: 'node:crypto',
    publicKeyFromSeed(seed: Uint8Array): Uint8Array {
      const spki = nodeCrypto.createPublicKey(privateKeyOf(seed)).export({ format: 'der', type: 'spki' });
      return new Uint8Array(spki.subarray(SPKI_ED25519_HEADER.length));
    },
    sign(message: Uint8Array, seed: Uint8Array): Uint8Array {
      return new Uint8Array(nodeCrypto.sign(null, message, privateKeyOf(seed)));
    },
    verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
      return nodeCrypto.verify(null, message, publicKeyOf(publicKey), signature);
    },
  });
}

let nodeBackend: Ed25519Backend | null | undefined;

/**
 * The `node:crypto` (OpenSSL) backend, 9–17× faster than the pure-JavaScript one, or `undefined`
 * where `node:crypto` cannot be reached (browsers, runtimes without `process.getBuiltinModule`).
 * Public `KeyObject`s are cached (LRU, 1024 keys); private ones live as long as the seed array.
 *
 * @example
 * const backend = nodeCryptoBackend() ?? nobleBackend;
 */
export function nodeCryptoBackend(): Ed25519Backend | undefined {
  if (nodeBackend === undefined) {
    const nodeCrypto = loadNodeCrypto();
    nodeBackend =
      nodeCrypto && typeof nodeCrypto.verify === 'function' ? createNodeCryptoBackend(nodeCrypto) : null;
  }
  return nodeBackend ?? undefined;
}

/**
 * The checks libsodium's `crypto_sign_verify_detached` (what PyNaCl peers run) makes before the
 * group equation, as byte comparisons. Together with a cofactorless equation compared byte-wise
 * against `R`, they give libsodium's verdict on every input.
 */

/** Bytes of an Ed25519 signature: `R` (32) then `S` (32, little-endian). */
export const SIGNATURE_BYTES = 64;
/** Bytes of an Ed25519 public key, and of the seed that is its private key. */
export const KEY_BYTES = 32;

/** The group order L = 2^252 + 27742317777372353535851937790883648493, little-endian. */
const GROUP_ORDER_LE = hexDecode('edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010');

/**
 * Every 32-byte encoding (sign bit cleared) whose y names a point of order 1, 2, 4 or 8. The eight
 * small-order points have only five y values: 1 (the identity), p − 1 (order 2), 0 (the two points
 * of order 4) and ±y₈ (the four of order 8). Two of them also have a non-canonical encoding below
 * 2^255: y = p and y = p + 1. `libsodium-rules.test.ts` derives this list from the curve.
 */
const SMALL_ORDER_ENCODINGS: readonly Uint8Array[] = [
  '0000000000000000000000000000000000000000000000000000000000000000', // y = 0
  '0100000000000000000000000000000000000000000000000000000000000000', // y = 1
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05', // y = y₈
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a', // y = p − y₈
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // y = p − 1
  'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // y = p, non-canonical 0
  'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // y = p + 1, non-canonical 1
].map(hexDecode);

/** True when the 32 little-endian bytes at `offset` are an integer below L (a canonical `S`). */
export function isCanonicalScalar(bytes: Uint8Array, offset = 0): boolean {
  for (let i = KEY_BYTES - 1; i >= 0; i--) {
    const byte = bytes[offset + i]!;
    const limit = GROUP_ORDER_LE[i]!;
    if (byte !== limit) return byte < limit;
  }
  return false;
}

/**
 * True when the 32 bytes at `offset` encode y < p = 2^255 − 19 (the sign bit is not part of y).
 * This is libsodium's `ge25519_is_canonical`.
 */
export function isCanonicalPointEncoding(bytes: Uint8Array, offset = 0): boolean {
  if ((bytes[offset + 31]! & 0x7f) !== 0x7f) return true;
  for (let i = 30; i >= 1; i--) {
    if (bytes[offset + i] !== 0xff) return true;
  }
  return bytes[offset]! < 0xed;
}

/**
 * True when the 32 bytes at `offset` are one of {@link SMALL_ORDER_ENCODINGS}, comparing the last
 * byte without its sign bit (libsodium's `ge25519_has_small_order` blocklist). Any x sign is refused.
 */
export function hasSmallOrderEncoding(bytes: Uint8Array, offset = 0): boolean {
  for (const encoding of SMALL_ORDER_ENCODINGS) {
    let difference = (bytes[offset + 31]! & 0x7f) ^ encoding[31]!;
    for (let i = 0; i < 31 && difference === 0; i++) difference |= bytes[offset + i]! ^ encoding[i]!;
    if (difference === 0) return true;
  }
  return false;
}

/**
 * libsodium's pre-checks on a signature and public key. Returns false when libsodium would refuse
 * the pair before evaluating the group equation; true means "go on to the cofactorless equation".
 */
export function passesLibsodiumPrechecks(signature: Uint8Array, publicKey: Uint8Array): boolean {
  // A signature is exactly 64 bytes and a public key exactly 32 (PyNaCl refuses other lengths).
  if (signature.length !== SIGNATURE_BYTES || publicKey.length !== KEY_BYTES) return false;
  // S must be reduced, S < L: otherwise S and S + L would both verify (malleability).
  if (!isCanonicalScalar(signature, KEY_BYTES)) return false;
  // R must not be a small-order point: such an R lets a forger satisfy the equation for weak keys.
  if (hasSmallOrderEncoding(signature, 0)) return false;
  // R must be canonical. libsodium has no separate test, but its final comparison of R against a
  // canonical re-encoding refuses every other R; checking here only skips the scalar multiplications.
  if (!isCanonicalPointEncoding(signature, 0)) return false;
  // A must be canonically encoded (y < p), libsodium's `ge25519_is_canonical`.
  if (!isCanonicalPointEncoding(publicKey, 0)) return false;
  // A must not be a small-order point: a signature under such a key proves nothing about a message.
  if (hasSmallOrderEncoding(publicKey, 0)) return false;
  return true;
}

/** A size-bounded map that evicts the least recently used entry (Map keeps insertion order). */
export class LruCache<K, V> {
  readonly #entries = new Map<K, V>();
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** The value for `key`, marking it most recently used. */
  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  /** Stores `value`, evicting the least recently used entry when full. */
  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }

  /** How many entries are held. */
  get size(): number {
    return this.#entries.size;
  }
}
