import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';

/**
 * A 32-byte hash function with the name it carries in content ids (`<algorithm>:<hex>`).
 * Pass one to {@link contentId}, {@link chunkBlob} or {@link blobCid} to hash with something other
 * than BLAKE3.
 */
export interface Hasher {
  /** Lowercase algorithm name used as the content-id prefix, e.g. `'blake3'` or `'sha256'`. */
  readonly algorithm: string;
  /** Hashes `data` to a 32-byte digest. */
  digest(data: Uint8Array): Uint8Array;
}

/** BLAKE3 with the default 32-byte output: the hash of contract §1.4. */
export const blake3Hasher: Hasher = Object.freeze({
  algorithm: 'blake3',
  digest: (data: Uint8Array): Uint8Array => nobleBlake3(data),
});

/**
 * SHA-256: what a reference node publishes (`sha256:<hex>`) when its Python `blake3` module is
 * missing, as on the deployed reference Space.
 */
export const sha256Hasher: Hasher = Object.freeze({
  algorithm: 'sha256',
  digest: (data: Uint8Array): Uint8Array => nobleSha256(data),
});
