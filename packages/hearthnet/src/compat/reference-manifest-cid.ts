import { formatJsonPath } from '../canonical-json/json-path.js';
import { HearthNetLocalError } from '../errors.js';
import { contentId, isPrefixedContentId } from '../hashing/content-id.js';
import { blake3Hasher, type Hasher } from '../hashing/hasher.js';

/**
 * The fields of a blob manifest that the reference's `manifest_cid` hashes. A `BlobManifest` of
 * `@agentwire/hearthnet/blobs` fits; other fields (`cid`, a chunk's `i` or `index`) are ignored.
 */
export interface ReferenceManifestCidInput {
  readonly size_bytes: number;
  readonly chunk_size_bytes: number;
  readonly chunks: readonly { readonly cid: string; readonly size_bytes: number }[];
}

/**
 * The reference's `manifest_cid(manifest)` (`blobs/chunker.py`): the content id of the UTF-8 JSON
 * `{"chunk_size_bytes":…,"chunks":[{"cid":…,"size_bytes":…},…],"size_bytes":…}` — keys sorted,
 * compact, chunks in manifest order. The reference defines it but files blobs under the blob CID
 * (`blobCid` of `@agentwire/hearthnet/hashing`), not under this one.
 *
 * @param hasher - defaults to BLAKE3; `sha256Hasher` gives what a reference node without the Python
 *   `blake3` module computes.
 * @throws {HearthNetLocalError} `malformed_reference_blob_manifest` when a size is not a non-negative integer
 *   or a chunk id is not `<algorithm>:<64 lowercase hex>`.
 * @example
 * referenceManifestCid({ size_bytes: 5, chunk_size_bytes: 262144, chunks: [{ cid, size_bytes: 5 }] });
 * // 'blake3:…'
 */
export function referenceManifestCid(
  manifest: ReferenceManifestCidInput,
  hasher: Hasher = blake3Hasher,
): string {
  if (typeof manifest !== 'object' || manifest === null) {
    throw new HearthNetLocalError('malformed_reference_blob_manifest', 'a blob manifest must be an object', {
      path: '$',
    });
  }
  const chunks = manifest.chunks;
  if (!Array.isArray(chunks)) {
    throw new HearthNetLocalError('malformed_reference_blob_manifest', '$.chunks must be an array', {
      path: '$.chunks',
    });
  }
  const chunkTexts = chunks.map((chunk: unknown, index) => {
    const record = (typeof chunk === 'object' && chunk !== null ? chunk : {}) as Record<string, unknown>;
    if (!isPrefixedContentId(record.cid)) {
      const path = formatJsonPath(['chunks', index, 'cid']);
      throw new HearthNetLocalError(
        'malformed_reference_blob_manifest',
        `${path} must be <algorithm>:<64 lowercase hex>`,
        { path },
      );
    }
    return `{"cid":"${record.cid}","size_bytes":${size(record.size_bytes, ['chunks', index, 'size_bytes'])}}`;
  });
  // Every value is an integer or an ASCII content id, so this is Python's sorted compact JSON byte for byte.
  const json =
    `{"chunk_size_bytes":${size(manifest.chunk_size_bytes, ['chunk_size_bytes'])},` +
    `"chunks":[${chunkTexts.join(',')}],"size_bytes":${size(manifest.size_bytes, ['size_bytes'])}}`;
  return contentId(json, hasher);
}

/** A size as Python writes an `int`. */
function size(value: unknown, path: (string | number)[]): string {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    const at = formatJsonPath(path);
    throw new HearthNetLocalError(
      'malformed_reference_blob_manifest',
      `${at} must be a non-negative integer`,
      { path: at },
    );
  }
  return String(value);
}
