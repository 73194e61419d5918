import { HearthNetLocalError } from '../errors.js';
import { contentId, isPrefixedContentId } from './content-id.js';
import { invalidChunkSize, invalidContentId } from './errors.js';
import { blake3Hasher, type Hasher } from './hasher.js';

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
