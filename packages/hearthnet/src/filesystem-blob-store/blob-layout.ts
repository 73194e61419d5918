import { join } from 'node:path';
import { parseBlobManifest } from '../blobs/store/blob-manifest.js';
import type { BlobManifest } from '../blobs/store/blob-store.js';
import { HearthNetLocalError } from '../errors.js';
import type { Hasher } from '../hashing/hasher.js';

/** The file of pinned blob CIDs, in the store's root. */
export const PINNED_FILE = 'pinned.txt';

/** A shard folder of the layout: the first two hex digits of the CIDs filed in it. */
export const SHARD_FOLDER_PATTERN = /^[0-9a-f]{2}$/;
/** A chunk file in a shard folder: the other 62 hex digits, then `.bin`. */
export const CHUNK_FILE_PATTERN = /^([0-9a-f]{62})\.bin$/;
/** A manifest file in a shard folder: the other 62 hex digits of the blob CID, then `.manifest.json`. */
export const MANIFEST_FILE_PATTERN = /^([0-9a-f]{62})\.manifest\.json$/;

const digestHex = /^[0-9a-f]{64}$/;

/** `<root>/<first 2 hex>/<other 62 hex>.bin`, the reference store's chunk path. */
export function chunkPath(root: string, hex: string): string {
  return shardedPath(root, hex, '.bin');
}

/** `<root>/<first 2 hex>/<other 62 hex>.manifest.json`, the reference store's manifest path. */
export function manifestPath(root: string, hex: string): string {
  return shardedPath(root, hex, '.manifest.json');
}

/**
 * A manifest as the reference store writes it: keys sorted, two-space indent, no final newline, chunk
 * positions under `index`, and `filename` (advisory in the reference) as `null`.
 */
export function manifestFileText(manifest: BlobManifest): string {
  const sortedForm = {
    chunk_size_bytes: manifest.chunk_size_bytes,
    chunks: manifest.chunks.map((c) => ({ cid: c.cid, index: c.i, size_bytes: c.size_bytes })),
    cid: manifest.cid,
    filename: null,
    size_bytes: manifest.size_bytes,
  };
  return JSON.stringify(sortedForm, null, 2);
}

/**
 * A manifest file's parsed JSON (reference form, `index` for the chunk position) as a checked
 * manifest; the `filename` the reference may have written is not kept.
 *
 * @throws {HearthNetLocalError} `invalid_blob_manifest` when it is not a valid manifest.
 */
export function manifestFromFileJson(value: unknown, hasher: Hasher): BlobManifest {
  const record = isRecord(value) ? value : {};
  const chunks = Array.isArray(record['chunks'])
    ? record['chunks'].map((c: unknown) =>
        isRecord(c) ? { i: c['index'], cid: c['cid'], size_bytes: c['size_bytes'] } : c,
      )
    : record['chunks'];
  return parseBlobManifest(isRecord(value) ? { ...record, chunks } : value, hasher);
}

/** `pinned.txt` as the reference writes it: the CIDs sorted, one a line, no final newline. */
export function pinnedFileText(pins: readonly string[]): string {
  return pins.join('\n');
}

/** The CIDs of a `pinned.txt`, one a line; blank lines and surrounding spaces are ignored. */
export function pinsFromFileText(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function shardedPath(root: string, hex: string, suffix: string): string {
  // Only 64 lowercase hex digits ever become a path: no separators, no `..`.
  if (!digestHex.test(hex))
    throw new HearthNetLocalError(
      'invalid_blob_store_input',
      `invalid cid: its digest is not 64 lowercase hex`,
      { path: 'cid' },
    );
  return join(root, hex.slice(0, 2), `${hex.slice(2)}${suffix}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
