import { base64Encode } from '../../encoding/index.js';
import { HearthNetLocalError } from '../../errors.js';
import { CHUNK_SIZE_BYTES, chunkBlob, type Hasher } from '../../hashing/index.js';
import type { HearthNetClient } from '../../wire/index.js';
import type { BlobManifest } from '../store/blob-store.js';
import { manifestToWire } from './wire-manifest.js';

/** Options of {@link putBlob}. */
export interface PutBlobCallOptions {
  /** Aborts the transfer; chunks the node stored stay there, and a later `putBlob` sends only the rest. */
  readonly signal?: AbortSignal;
  /** Hashes the chunks (an injected, faster BLAKE3). Default: the built-in BLAKE3. */
  readonly hasher?: Hasher;
  /** Chunk size for new blobs. Default 256 KiB (the reference chunker). */
  readonly chunkSizeBytes?: number;
}

/** What {@link putBlob} did. */
export interface PutBlobResult {
  /** The manifest offered. */
  readonly manifest: BlobManifest;
  /** The chunk indexes the node asked for (its `ready` frame). */
  readonly needed: readonly number[];
  /** How many chunks the node says it received (its `done` frame). */
  readonly received: number;
}

/**
 * Offers a blob to a node with `file.put` (contract §4.10, a client stream — the node must trust the
 * caller): sends the manifest, reads the node's `ready` frame, sends only the chunks it lists (paced
 * by the connection) while watching for the node's answer, and resolves with its `done`. A transfer
 * that breaks off can simply be repeated: the node keeps the chunks it verified, so the next attempt
 * sends only what is still missing.
 *
 * @throws the node's `HearthNetError` (`unauthorized`, `capacity_exceeded`, `bad_request`, …), a
 *   `PartitionError`, or {@link HearthNetLocalError} `blob_transfer` when the node's frames do not add up.
 * @example
 * const { manifest, needed } = await putBlob(client, pdfBytes);
 */
export async function putBlob(
  client: HearthNetClient,
  bytes: Uint8Array,
  options: PutBlobCallOptions = {},
): Promise<PutBlobResult> {
  const chunked = chunkBlob(bytes, {
    ...(options.hasher === undefined ? {} : { hasher: options.hasher }),
    ...(options.chunkSizeBytes === undefined ? {} : { chunkSizeBytes: options.chunkSizeBytes }),
  });
  const manifest: BlobManifest = {
    cid: chunked.cid,
    size_bytes: chunked.size_bytes,
    chunk_size_bytes: options.chunkSizeBytes ?? CHUNK_SIZE_BYTES,
    chunks: chunked.chunks.map((chunk) => ({ i: chunk.index, cid: chunk.cid, size_bytes: chunk.size_bytes })),
  };
  const sliceOf = (index: number) => {
    const start = index * manifest.chunk_size_bytes;
    return bytes.subarray(start, start + (manifest.chunks[index]?.size_bytes ?? 0));
  };
  const stream = await client.call(
    'file.put',
    { params: {}, input: { manifest: manifestToWire(manifest) } },
    { stream: true, duplex: true, ...(options.signal === undefined ? {} : { signal: options.signal }) },
  );
  let needed: number[] | undefined;
  let sending: Promise<void> | undefined;
  let finished = false;
  try {
    for await (const frame of stream) {
      if (frame.event === 'ready') {
        if (needed !== undefined)
          throw new HearthNetLocalError('blob_transfer', 'the node sent ready twice', {
            details: { reason: 'incomplete' },
          });
        needed = [...(frame.data as { needed: number[] }).needed];
        const asked = needed;
        // Sent alongside the read loop, so that an error frame from the node is seen at once.
        sending = (async () => {
          for (const index of asked) {
            const chunk = manifest.chunks[index];
            if (chunk === undefined)
              throw new HearthNetLocalError('blob_transfer', `the node asked for chunk ${index}`, {
                details: { reason: 'incomplete' },
              });
            await stream.send({
              event: 'chunk',
              data: { i: index, cid: chunk.cid, data_b64: base64Encode(sliceOf(index)) },
            });
          }
          stream.end();
        })();
        sending.catch(() => undefined);
      } else if (frame.event === 'done') {
        if (needed === undefined)
          throw new HearthNetLocalError('blob_transfer', 'the node sent done before ready', {
            details: { reason: 'incomplete' },
          });
        await sending;
        finished = true;
        return { manifest, needed, received: (frame.data as { received?: number }).received ?? 0 };
      }
    }
  } finally {
    if (!finished) await stream.close();
  }
  throw new HearthNetLocalError('blob_transfer', 'the file.put stream ended without done', {
    details: { reason: 'incomplete' },
  });
}
