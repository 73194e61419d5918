import { hexDecode } from '../encoding/index.js';
import type { Ed25519Backend } from './ed25519-backend.js';
import { LruCache } from './lru-cache.js';

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
