import { describeValue } from '@agentwire/internal';
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { HearthNetLocalError } from './errors.js';

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

/**
 * BLAKE3 with the default 32-byte output: the hash of contract §1.4. On Node with a prebuilt binary of
 * `@napi-rs/blake-hash` for the platform (a dependency of this package), it runs natively — about 100×
 * the speed of the pure-JavaScript `@noble/hashes`, which it falls back to everywhere else (browsers,
 * other runtimes, platforms without a binary). Both give the same digests.
 */
export const blake3Hasher: Hasher = Object.freeze({
  algorithm: 'blake3',
  // Looked up on the first digest, not at import: importing the package loads no native module.
  digest: (data: Uint8Array): Uint8Array => {
    blake3Digest ??= loadNativeBlake3() ?? nobleBlake3;
    return blake3Digest(data);
  },
});

/** The BLAKE3 in use once the first digest chose it: the native binding, or `@noble/hashes`. */
let blake3Digest: ((data: Uint8Array) => Uint8Array) | undefined;

/**
 * The native BLAKE3 of `@napi-rs/blake-hash`, looked up at run time so this file stays importable in
 * browsers and other runtimes (`process.getBuiltinModule` exists from Node 20.16 and is absent
 * elsewhere), or `undefined` where it does not load or does not hash "abc" right.
 */
function loadNativeBlake3(): ((data: Uint8Array) => Uint8Array) | undefined {
  try {
    const nodeModule = globalThis.process?.getBuiltinModule?.('node:module');
    if (nodeModule === undefined) return undefined;
    const binding = nodeModule.createRequire(import.meta.url)('@napi-rs/blake-hash') as {
      blake3(input: Uint8Array): Uint8Array;
    };
    const digest = (data: Uint8Array): Uint8Array => {
      const out = binding.blake3(data);
      return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
    };
    // BLAKE3 of "abc": the binding must reproduce it before it is used.
    const abc = '6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85';
    return bytesToHex(digest(new Uint8Array([0x61, 0x62, 0x63]))) === abc ? digest : undefined;
  } catch {
    return undefined;
  }
}

/**
 * SHA-256: what a reference node publishes (`sha256:<hex>`) when its Python `blake3` module is
 * missing, as on the deployed reference Space.
 */
export const sha256Hasher: Hasher = Object.freeze({
  algorithm: 'sha256',
  digest: (data: Uint8Array): Uint8Array => nobleSha256(data),
});

/**
 * BLAKE3 with the default 32-byte output. A string is hashed as its UTF-8 bytes.
 *
 * @throws {HearthNetLocalError} `invalid_hash_input` when `data` is not bytes or a well-formed string.
 * @example
 * ```ts
 * blake3('abc').length; // 32
 * ```
 */
export function blake3(data: Uint8Array | string): Uint8Array {
  return blake3Hasher.digest(hashInputBytes(data));
}

/**
 * {@link blake3} as 64 lowercase hex characters.
 *
 * @example
 * ```ts
 * blake3Hex(''); // 'af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262'
 * ```
 */
export function blake3Hex(data: Uint8Array | string): string {
  return bytesToHex(blake3(data));
}

/** The blob chunk size of the reference chunker: 256 KiB. */
export const CHUNK_SIZE_BYTES = 262144;

/** One chunk of a blob: its position, content id and length. */
export interface ChunkRef {
  readonly index: number;
  readonly cid: string;
  readonly size_bytes: number;
}

/** A blob cut into chunks by {@link chunkBlob}, with the blob's own content id. */
export interface ChunkedBlob {
  readonly chunks: ChunkRef[];
  /** The blob CID: {@link blobCid} of the chunk ids. */
  readonly cid: string;
  readonly size_bytes: number;
}

/** Options of {@link chunkBlob}. */
export interface ChunkBlobOptions {
  /** Defaults to {@link CHUNK_SIZE_BYTES}. */
  readonly chunkSizeBytes?: number;
  /** Defaults to BLAKE3. */
  readonly hasher?: Hasher;
}

/**
 * Cuts a blob into consecutive chunks the way the reference chunker does and names each chunk and the
 * whole blob. An empty blob yields exactly one empty chunk. Chunks are views, not copies.
 *
 * @throws {HearthNetLocalError} `invalid_chunk_size` when `chunkSizeBytes` is not a positive safe integer.
 * @throws {HearthNetLocalError} `invalid_hash_input` when `data` is not a `Uint8Array`.
 * @example
 * ```ts
 * const { chunks, cid } = chunkBlob(new Uint8Array(600_000));
 * chunks.map((c) => c.size_bytes); // [262144, 262144, 75712]
 * ```
 */
export function chunkBlob(data: Uint8Array, options: ChunkBlobOptions = {}): ChunkedBlob {
  const { chunkSizeBytes = CHUNK_SIZE_BYTES, hasher = blake3Hasher } = options ?? {};
  if (!(data instanceof Uint8Array))
    throw new HearthNetLocalError('invalid_hash_input', 'a blob to chunk must be a Uint8Array');
  if (!Number.isSafeInteger(chunkSizeBytes) || chunkSizeBytes <= 0) {
    throw invalidChunkSize(chunkSizeBytes);
  }
  const chunks: ChunkRef[] = [];
  let offset = 0;
  do {
    const chunk = data.subarray(offset, offset + chunkSizeBytes);
    chunks.push({ index: chunks.length, cid: contentId(chunk, hasher), size_bytes: chunk.length });
    offset += chunkSizeBytes;
  } while (offset < data.length);
  const chunkIds = chunks.map((c) => c.cid);
  return { chunks, cid: blobCid(chunkIds, hasher), size_bytes: data.length };
}

/**
 * The blob CID of the reference store: the content id of the chunk id strings sorted by code point
 * and joined with `'\n'` (no trailing newline). Chunk order does not change it.
 *
 * @throws {HearthNetLocalError} `invalid_content_id` when an entry is not a prefixed content id
 *   (`<algorithm>:<64 hex>`).
 * @example
 * ```ts
 * blobCid([chunkB, chunkA]) === blobCid([chunkA, chunkB]); // true
 * ```
 */
export function blobCid(chunkCids: readonly string[], hasher: Hasher = blake3Hasher): string {
  if (!Array.isArray(chunkCids))
    throw new HearthNetLocalError('invalid_hash_input', 'chunk ids must be an array of content ids');
  for (const cid of chunkCids) {
    if (!isPrefixedContentId(cid)) {
      throw invalidContentId(cid, 'a chunk id must be <algorithm>:<64 lowercase hex>');
    }
  }
  // Content ids are ASCII, so UTF-16 order is code-point order here.
  const sorted = [...chunkCids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return contentId(sorted.join('\n'), hasher);
}

const utf8Encoder = new TextEncoder();
// A high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The bytes that are hashed for `data`: the bytes themselves, or the UTF-8 encoding of a string.
 * A string holding a lone surrogate is rejected rather than silently encoded as U+FFFD.
 */
export function hashInputBytes(data: Uint8Array | string): Uint8Array {
  if (data instanceof Uint8Array) return data;
  if (typeof data === 'string') {
    if (loneSurrogate.test(data)) {
      throw new HearthNetLocalError(
        'invalid_hash_input',
        'cannot hash a string with a lone surrogate: it has no UTF-8 form',
      );
    }
    return utf8Encoder.encode(data);
  }
  throw new HearthNetLocalError(
    'invalid_hash_input',
    `data to hash must be a Uint8Array or a string, got ${typeName(data)}`,
  );
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  return Object.getPrototypeOf(value)?.constructor?.name ?? 'an object';
}

/**
 * The `invalid_content_id` error: `value` is not a content id this SDK accepts (`blake3:` or `sha256:`
 * followed by 64 lowercase hex characters, or 64 bare lowercase hex characters); `reason` says why.
 */
export function invalidContentId(
  value: unknown,
  reason: string,
  options?: ErrorOptions,
): HearthNetLocalError {
  return new HearthNetLocalError(
    'invalid_content_id',
    `invalid content id ${describeValue(value)}: ${reason}`,
    {
      ...options,
      details: { value },
    },
  );
}

/** The `invalid_chunk_size` error: a chunk size that is not a positive safe integer. */
export function invalidChunkSize(chunkSizeBytes: unknown): HearthNetLocalError {
  return new HearthNetLocalError(
    'invalid_chunk_size',
    `chunk size must be a positive safe integer, got ${describeValue(chunkSizeBytes)}`,
    { path: 'chunkSizeBytes', details: { value: chunkSizeBytes } },
  );
}
