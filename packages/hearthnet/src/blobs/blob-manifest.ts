import { isJsonObject } from '@agentwire/internal';
import { HearthNetLocalError } from '../errors.js';
import {
  blake3Hasher,
  blobCid,
  contentId,
  type Hasher,
  type ParsedContentId,
  parseContentId,
  sha256Hasher,
} from '../hashing.js';
import type { BlobManifest, BlobManifestChunk } from './blob-store.js';

/**
 * Checks a blob manifest (received in a `file.put` initial frame or a `file.read` manifest frame, or
 * read from storage) and returns a frozen copy with only its known fields: `cid` and every chunk CID
 * are prefixed content ids of one algorithm; `chunks` run `i` = 0 … n−1; every chunk but the last
 * has `chunk_size_bytes` bytes and the last 1 … `chunk_size_bytes` (0 only for the single chunk of an
 * empty blob); the sizes add up to `size_bytes`; and `cid` is the blob CID of the chunk CIDs.
 *
 * @param hasher - used when it implements the CID's algorithm; the built-in one of that algorithm otherwise.
 * @throws {HearthNetLocalError} `invalid_blob_manifest` naming the first field that is wrong.
 * @example
 * ```ts
 * const manifest = parseBlobManifest(JSON.parse(frame.data));
 * ```
 */
export function parseBlobManifest(value: unknown, hasher?: Hasher): BlobManifest {
  if (!isJsonObject(value))
    throw new HearthNetLocalError('invalid_blob_manifest', `invalid blob manifest at $: must be an object`, {
      path: '$',
    });
  const cid = manifestCid(value['cid'], 'cid');
  const sizeBytes = count(value['size_bytes'], 'size_bytes', 0);
  const chunkSizeBytes = count(value['chunk_size_bytes'], 'chunk_size_bytes', 1);
  const rawChunks = value['chunks'];
  if (!Array.isArray(rawChunks) || rawChunks.length === 0) {
    throw new HearthNetLocalError(
      'invalid_blob_manifest',
      `invalid blob manifest at chunks: must be a non-empty array`,
      { path: 'chunks' },
    );
  }
  const chunks = rawChunks.map((raw: unknown, position): BlobManifestChunk => {
    const field = `chunks[${position}]`;
    if (!isJsonObject(raw))
      throw new HearthNetLocalError(
        'invalid_blob_manifest',
        `invalid blob manifest at ${field}: must be an object`,
        { path: field },
      );
    if (raw['i'] !== position)
      throw new HearthNetLocalError(
        'invalid_blob_manifest',
        `invalid blob manifest at ${field}.i: must be ${position}`,
        { path: `${field}.i` },
      );
    const chunkCid = manifestCid(raw['cid'], `${field}.cid`);
    if (algorithmOf(chunkCid) !== algorithmOf(cid)) {
      throw new HearthNetLocalError(
        'invalid_blob_manifest',
        `invalid blob manifest at ${field}.cid: must use the algorithm of the blob cid`,
        { path: `${field}.cid` },
      );
    }
    const chunkSize = count(raw['size_bytes'], `${field}.size_bytes`, 0);
    const isLast = position === rawChunks.length - 1;
    const expected = isLast ? `1 … ${chunkSizeBytes}` : `${chunkSizeBytes}`;
    const fits = isLast
      ? chunkSize <= chunkSizeBytes && (chunkSize > 0 || rawChunks.length === 1)
      : chunkSize === chunkSizeBytes;
    if (!fits)
      throw new HearthNetLocalError(
        'invalid_blob_manifest',
        `invalid blob manifest at ${field}.size_bytes: must be ${expected}, got ${chunkSize}`,
        { path: `${field}.size_bytes` },
      );
    return Object.freeze({ i: position, cid: chunkCid, size_bytes: chunkSize });
  });
  const total = (chunks.length - 1) * chunkSizeBytes + (chunks.at(-1)?.size_bytes ?? 0);
  if (total !== sizeBytes) {
    throw new HearthNetLocalError(
      'invalid_blob_manifest',
      `invalid blob manifest at size_bytes: must be the sum of the chunk sizes, ${total}`,
      { path: 'size_bytes' },
    );
  }
  const expectedCid = blobCid(
    chunks.map((c) => c.cid),
    hasherForAlgorithm(algorithmOf(cid), hasher),
  );
  if (expectedCid !== cid) {
    throw new HearthNetLocalError(
      'invalid_blob_manifest',
      `invalid blob manifest at cid: the chunk ids give the blob cid ${expectedCid}`,
      { path: 'cid' },
    );
  }
  return Object.freeze({
    cid,
    size_bytes: sizeBytes,
    chunk_size_bytes: chunkSizeBytes,
    chunks: Object.freeze(chunks),
  });
}

function manifestCid(value: unknown, field: string): string {
  try {
    parseStoreContentId(value, field);
  } catch {
    throw new HearthNetLocalError(
      'invalid_blob_manifest',
      `invalid blob manifest at ${field}: must be blake3:<64 hex> or sha256:<64 hex>`,
      { path: field },
    );
  }
  return value as string;
}

function algorithmOf(cid: string): 'blake3' | 'sha256' {
  return cid.startsWith('sha256:') ? 'sha256' : 'blake3';
}

function count(value: unknown, field: string, minimum: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < minimum) {
    throw new HearthNetLocalError(
      'invalid_blob_manifest',
      `invalid blob manifest at ${field}: must be an integer ≥ ${minimum}`,
      { path: field },
    );
  }
  return value;
}

/** A prefixed content id taken apart: what a blob store files things under. */
export type StoreContentId = ParsedContentId & { readonly form: 'prefixed' };

/**
 * Takes apart a CID handed to a blob store: `blake3:<64 hex>` or `sha256:<64 hex>` only (the bare
 * ids of the reference file service name no algorithm and are refused).
 *
 * @throws {HearthNetLocalError} `invalid_blob_store_input` for anything else, naming `argument`.
 */
export function parseStoreContentId(value: unknown, argument: string): StoreContentId {
  let parsed: ParsedContentId;
  try {
    parsed = parseContentId(value as string);
  } catch (error) {
    throw new HearthNetLocalError(
      'invalid_blob_store_input',
      `invalid ${argument}: ${(error as Error).message}`,
      { cause: error, path: argument },
    );
  }
  if (parsed.form !== 'prefixed') {
    throw new HearthNetLocalError(
      'invalid_blob_store_input',
      `invalid ${argument}: a blob store takes prefixed ids (blake3:<hex> or sha256:<hex>)`,
      { path: argument },
    );
  }
  return parsed as StoreContentId;
}

/**
 * The hasher that checks ids of `algorithm`: `preferred` when it implements that algorithm (an
 * injected BLAKE3, say), else the built-in BLAKE3 or SHA-256.
 */
export function hasherForAlgorithm(algorithm: ParsedContentId['algorithm'], preferred?: Hasher): Hasher {
  if (preferred?.algorithm === algorithm) return preferred;
  return algorithm === 'sha256' ? sha256Hasher : blake3Hasher;
}

/**
 * Checks that chunk bytes hash to their CID, with the algorithm the CID names (what a `file.read`
 * client does with every chunk it receives before storing it).
 *
 * @param hasher - used when it implements the CID's algorithm; the built-in one of that algorithm otherwise.
 * @throws {HearthNetLocalError} `invalid_blob_store_input` when `cid` is not a prefixed content id or `bytes`
 *   is not a `Uint8Array`.
 * @throws {HearthNetLocalError} `chunk_mismatch` when the bytes hash to another CID.
 * @example
 * ```ts
 * verifyChunkBytes(contentId('hi'), new TextEncoder().encode('hi')); // passes
 * ```
 */
export function verifyChunkBytes(cid: string, bytes: Uint8Array, hasher?: Hasher): void {
  const { algorithm } = parseStoreContentId(cid, 'cid');
  if (!(bytes instanceof Uint8Array))
    throw new HearthNetLocalError('invalid_blob_store_input', `invalid bytes: must be a Uint8Array`, {
      path: 'bytes',
    });
  const actual = contentId(bytes, hasherForAlgorithm(algorithm, hasher));
  if (actual !== cid)
    throw new HearthNetLocalError('chunk_mismatch', `chunk bytes hash to ${actual}, not ${cid}`, {
      details: { expectedCid: cid, actualCid: actual },
    });
}

/** The 64 hex digits of a checked prefixed content id: what the store files the chunk or blob under. */
export function digestHexOf(cid: string): string {
  return cid.slice(cid.indexOf(':') + 1);
}
