import type { Hasher } from '../../hashing/index.js';
import { CHUNK_SIZE_BYTES } from '../../hashing/index.js';
import type { BlobManifest } from '../store/blob-store.js';
import { parseBlobManifest } from '../store/index.js';

/**
 * A blob manifest as it travels (the `file.put` initial frame, the `file.read` manifest frame):
 * `chunk_size_bytes` and the chunks' `size_bytes` may be left out (contract §4.10 shows neither) and
 * are then taken as the reference chunker's: 256 KiB chunks, the last one holding the rest.
 *
 * @throws {HearthNetLocalError} `invalid_blob_manifest` (`bad_request` on the wire) when the manifest is
 *   malformed or its CID does not match its chunks.
 */
export function manifestFromWire(value: unknown, hasher?: Hasher): BlobManifest {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return parseBlobManifest(value, hasher);
  const fields = value as Record<string, unknown>;
  const chunkSize = fields['chunk_size_bytes'] ?? CHUNK_SIZE_BYTES;
  const chunks = fields['chunks'];
  const size = fields['size_bytes'];
  if (!Array.isArray(chunks) || typeof chunkSize !== 'number' || typeof size !== 'number') {
    return parseBlobManifest({ ...fields, chunk_size_bytes: chunkSize }, hasher);
  }
  const filled = chunks.map((chunk: unknown, position) => {
    if (chunk === null || typeof chunk !== 'object' || 'size_bytes' in chunk) return chunk;
    const isLast = position === chunks.length - 1;
    return { ...chunk, size_bytes: isLast ? size - chunkSize * (chunks.length - 1) : chunkSize };
  });
  return parseBlobManifest({ ...fields, chunk_size_bytes: chunkSize, chunks: filled }, hasher);
}

/** The wire form of a manifest: `{cid, size_bytes, chunk_size_bytes, chunks: [{i, cid, size_bytes}]}`. */
export function manifestToWire(manifest: BlobManifest): {
  cid: string;
  size_bytes: number;
  chunk_size_bytes: number;
  chunks: { i: number; cid: string; size_bytes: number }[];
} {
  return {
    cid: manifest.cid,
    size_bytes: manifest.size_bytes,
    chunk_size_bytes: manifest.chunk_size_bytes,
    chunks: manifest.chunks.map(({ i, cid, size_bytes }) => ({ i, cid, size_bytes })),
  };
}
