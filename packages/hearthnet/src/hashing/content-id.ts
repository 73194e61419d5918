import { bytesToHex } from '@noble/hashes/utils.js';
import { HearthNetLocalError } from '../errors.js';
import { invalidContentId } from './errors.js';
import { hashInputBytes } from './hash-input.js';
import { blake3Hasher, type Hasher } from './hasher.js';

/** The algorithms a content id may name: BLAKE3 (contract §1.4) and the reference's SHA-256 fallback. */
export type ContentIdAlgorithm = 'blake3' | 'sha256';

/** A content id taken apart by {@link parseContentId}. */
export interface ParsedContentId {
  /** The hash algorithm; a bare id is BLAKE3. */
  readonly algorithm: ContentIdAlgorithm;
  /** The 64 lowercase hex characters of the digest. */
  readonly hex: string;
  /** `'prefixed'` for `<algorithm>:<hex>`; `'bare'` for the prefix-less hex of the reference file service. */
  readonly form: 'prefixed' | 'bare';
}

const DIGEST_BYTES = 32;
const SHORT_HEX_CHARS = 16;
const algorithmName = /^[a-z0-9][a-z0-9-]*$/;
const digestHex = /^[0-9a-f]{64}$/;
const prefixedId = /^[a-z0-9][a-z0-9-]*:[0-9a-f]{64}$/;
const knownAlgorithms: ReadonlySet<string> = new Set<ContentIdAlgorithm>(['blake3', 'sha256']);

/**
 * The content id of `data`: `<algorithm>:<64 lowercase hex>` (contract §1.4). A string is hashed as
 * its UTF-8 bytes.
 *
 * @param hasher - defaults to BLAKE3; {@link sha256Hasher} gives the reference's `sha256:` fallback ids.
 * @throws {HearthNetLocalError} `invalid_hash_input` when `data` is not bytes or a well-formed string.
 * @throws {HearthNetLocalError} `invalid_hasher` when `hasher` has a malformed algorithm name or a digest
 *   that is not 32 bytes.
 * @example
 * ```ts
 * contentId('hello'); // 'blake3:ea8f163db38682925e4491c5e58d4bb3506ef8c14eb78a86e908c5624a67200f'
 * ```
 */
export function contentId(data: Uint8Array | string, hasher: Hasher = blake3Hasher): string {
  const bytes = hashInputBytes(data);
  if (typeof hasher?.algorithm !== 'string' || !algorithmName.test(hasher.algorithm)) {
    throw new HearthNetLocalError(
      'invalid_hasher',
      `hasher algorithm must be a lowercase name matching ${algorithmName}, got ${String(hasher?.algorithm)}`,
    );
  }
  const digest = hasher.digest(bytes);
  if (!(digest instanceof Uint8Array) || digest.length !== DIGEST_BYTES) {
    throw new HearthNetLocalError(
      'invalid_hasher',
      `hasher "${hasher.algorithm}" must return a ${DIGEST_BYTES}-byte Uint8Array digest`,
    );
  }
  return `${hasher.algorithm}:${bytesToHex(digest)}`;
}

/**
 * Takes a content id apart. Accepts `blake3:<hex>` and `sha256:<hex>`, and the bare 64-hex BLAKE3 id
 * the reference file service (`file.put`) returns. Hex must be lowercase.
 *
 * @throws {HearthNetLocalError} `invalid_content_id` for anything else.
 * @example
 * ```ts
 * parseContentId('sha256:' + '0'.repeat(64)); // { algorithm: 'sha256', hex: '000…', form: 'prefixed' }
 * ```
 */
export function parseContentId(cid: string): ParsedContentId {
  if (typeof cid !== 'string') throw invalidContentId(cid, 'not a string');
  const colon = cid.indexOf(':');
  if (colon === -1) {
    if (!digestHex.test(cid)) throw invalidContentId(cid, 'a bare id must be 64 lowercase hex characters');
    return { algorithm: 'blake3', hex: cid, form: 'bare' };
  }
  const algorithm = cid.slice(0, colon);
  const hex = cid.slice(colon + 1);
  if (!isKnownAlgorithm(algorithm)) {
    throw invalidContentId(cid, `unknown algorithm "${algorithm}" (expected blake3 or sha256)`);
  }
  if (!digestHex.test(hex)) throw invalidContentId(cid, 'the digest must be 64 lowercase hex characters');
  return { algorithm, hex, form: 'prefixed' };
}

/**
 * The display form of contract §1.4: the algorithm prefix and the first 16 hex characters. Display
 * only; protocol fields always carry the full id. A bare id is shown with its `blake3:` prefix.
 *
 * @throws {HearthNetLocalError} `invalid_content_id` when `cid` is not a content id.
 * @example
 * ```ts
 * shortContentId(contentId('hello')); // 'blake3:ea8f163db3868292'
 * ```
 */
export function shortContentId(cid: string): string {
  const { algorithm, hex } = parseContentId(cid);
  return `${algorithm}:${hex.slice(0, SHORT_HEX_CHARS)}`;
}

/**
 * Whether `value` has the shape of a prefixed content id, `<algorithm>:<64 lowercase hex>`, for any
 * algorithm name {@link contentId} accepts from a {@link Hasher}.
 */
export function isPrefixedContentId(value: unknown): value is string {
  return typeof value === 'string' && prefixedId.test(value);
}

function isKnownAlgorithm(name: string): name is ContentIdAlgorithm {
  return knownAlgorithms.has(name);
}
