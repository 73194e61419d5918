import { base64Decode } from '../../encoding/index.js';
import { HearthNetLocalError } from '../../errors.js';
import { contentId, type Hasher } from '../../hashing/index.js';
import type { HearthNetClient } from '../../wire/index.js';
import type { BlobManifest, BlobStore } from '../store/blob-store.js';
import { hasherForAlgorithm } from '../store/content-ids.js';
import { manifestFromWire } from './wire-manifest.js';

/** Options of {@link readBlob}. */
export interface ReadBlobOptions {
  /** Aborts the transfer (and the call on the serving node). */
  readonly signal?: AbortSignal;
  /** Used for `blake3:` ids when given (an injected, faster BLAKE3); `sha256:` ids use SHA-256. */
  readonly hasher?: Hasher;
  /** Also store every verified chunk, and the manifest at the end, in this store. */
  readonly store?: BlobStore;
}

/** A blob read with {@link readBlob}: its bytes and, for a blob CID, its manifest. */
export interface ReadBlobResult {
  readonly bytes: Uint8Array;
  /** The manifest the node sent; `undefined` when the CID named a single chunk. */
  readonly manifest: BlobManifest | undefined;
}

/**
 * Fetches a blob (or a single chunk) from a node with a streamed `file.read` (contract §4.7) and verifies
 * everything before accepting it: the manifest must be the blob asked for (its chunk ids hash to `cid`),
 * every chunk's bytes must hash to the manifest's CID for it — a chunk that does not is refused with {@link
 * HearthNetLocalError} `blob_transfer` and nothing is returned — and the blob is reassembled in manifest
 * order once every chunk has come exactly once.
 *
 * @throws {HearthNetLocalError} `blob_transfer` a chunk's bytes do not match its CID (or its size).
 * @throws {HearthNetLocalError} `blob_transfer` the manifest is not the blob asked for, or the frames do not
 *   add up.
 * @throws the node's `HearthNetError` (`not_found`, …) or a `PartitionError`.
 * @example
 * const { bytes } = await readBlob(client, 'blake3:9f2c…');
 */
export async function readBlob(
  client: HearthNetClient,
  cid: string,
  options: ReadBlobOptions = {},
): Promise<ReadBlobResult> {
  const stream = await client.call(
    'file.read',
    { params: {}, input: { cid } },
    { stream: true, ...(options.signal === undefined ? {} : { signal: options.signal }) },
  );
  const hasherFor = (id: string) =>
    hasherForAlgorithm(id.startsWith('sha256:') ? 'sha256' : 'blake3', options.hasher);
  let manifest: BlobManifest | undefined;
  let parts: (Uint8Array | undefined)[] | undefined;
  let single: Uint8Array | undefined;
  let done = false;
  try {
    for await (const frame of stream) {
      if (frame.event === 'manifest') {
        if (manifest !== undefined || parts !== undefined || single !== undefined) {
          throw new HearthNetLocalError(
            'blob_transfer',
            'a second manifest frame, or a manifest after chunks',
            { details: { reason: 'incomplete' } },
          );
        }
        try {
          manifest = manifestFromWire(frame.data, options.hasher);
        } catch (error) {
          throw new HearthNetLocalError(
            'blob_transfer',
            `the manifest is malformed: ${(error as Error).message}`,
            { cause: error, details: { reason: 'manifest_mismatch' } },
          );
        }
        if (manifest.cid !== cid) {
          throw new HearthNetLocalError(
            'blob_transfer',
            `the node sent the manifest of ${manifest.cid}, not of ${cid}`,
            { details: { reason: 'manifest_mismatch' } },
          );
        }
        parts = new Array(manifest.chunks.length).fill(undefined);
      } else if (frame.event === 'chunk') {
        const chunk = frame.data as { i: number; cid: string; data_b64: string };
        const bytes = decodeChunkData(chunk);
        if (manifest === undefined || parts === undefined) {
          // A single-chunk read: the chunk must be the one asked for.
          if (single !== undefined || chunk.cid !== cid) {
            throw new HearthNetLocalError(
              'blob_transfer',
              `a chunk frame for ${chunk.cid} without a manifest`,
              { details: { reason: 'incomplete' } },
            );
          }
          const actual = contentId(bytes, hasherFor(cid));
          if (actual !== cid)
            throw new HearthNetLocalError(
              'blob_transfer',
              `chunk ${chunk.i} hashes to ${actual}, the manifest says ${cid}`,
              { details: { reason: 'chunk_mismatch', index: chunk.i, expectedCid: cid, actualCid: actual } },
            );
          single = bytes;
          await options.store?.putChunk(cid, bytes);
          continue;
        }
        const expected = manifest.chunks[chunk.i];
        if (expected === undefined || parts[chunk.i] !== undefined) {
          throw new HearthNetLocalError(
            'blob_transfer',
            `chunk ${chunk.i} is not in the manifest or came twice`,
            { details: { reason: 'incomplete' } },
          );
        }
        const actual = contentId(bytes, hasherFor(expected.cid));
        if (actual !== expected.cid || bytes.length !== expected.size_bytes) {
          throw new HearthNetLocalError(
            'blob_transfer',
            `chunk ${chunk.i} hashes to ${actual}, the manifest says ${expected.cid}`,
            {
              details: {
                reason: 'chunk_mismatch',
                index: chunk.i,
                expectedCid: expected.cid,
                actualCid: actual,
              },
            },
          );
        }
        parts[chunk.i] = bytes;
        await options.store?.putChunk(expected.cid, bytes);
      } else if (frame.event === 'done') {
        done = true;
      }
    }
  } finally {
    if (!done) await stream.close();
  }
  if (single !== undefined && manifest === undefined) return { bytes: single, manifest: undefined };
  if (manifest === undefined || parts === undefined) {
    throw new HearthNetLocalError('blob_transfer', `the node streamed no manifest and no chunk for ${cid}`, {
      details: { reason: 'incomplete' },
    });
  }
  const missing = parts.flatMap((part, index) => (part === undefined ? [index] : []));
  if (missing.length > 0) {
    throw new HearthNetLocalError(
      'blob_transfer',
      `the stream ended with chunks missing: ${missing.slice(0, 20).join(', ')}`,
      { details: { reason: 'incomplete' } },
    );
  }
  const bytes = new Uint8Array(manifest.size_bytes);
  let offset = 0;
  for (const part of parts as Uint8Array[]) {
    bytes.set(part, offset);
    offset += part.length;
  }
  await options.store?.putManifest(manifest);
  return { bytes, manifest };
}

/** A chunk frame's bytes; data that is not standard base64 cannot be the chunk the manifest names. */
function decodeChunkData(chunk: { i: number; data_b64: string }): Uint8Array {
  try {
    return base64Decode(chunk.data_b64);
  } catch (error) {
    if (!(error instanceof HearthNetLocalError && error.code === 'invalid_base64')) throw error;
    throw new HearthNetLocalError('blob_transfer', `chunk ${chunk.i}: data_b64 is not standard base64`, {
      cause: error,
      details: { reason: 'chunk_mismatch' },
    });
  }
}
