import type { KeyPair } from '../crypto/key-pair.js';
import { base64Decode } from '../encoding.js';
import { HearthNetLocalError } from '../errors.js';
import { type CreateEventOptions, createEvent } from '../events/event.js';
import type { EventStore } from '../events/event-store.js';
import { CHUNK_SIZE_BYTES, chunkBlob, contentId, type Hasher } from '../hashing.js';
import { ChunkFrame } from '../wire/chunk-frame.js';
import type { HearthNetClient, SseFrame } from '../wire/index.js';
import { hasherForAlgorithm } from './blob-manifest.js';
import type { BlobManifest, BlobStore, BlobStoreEvent } from './blob-store.js';
import { manifestFromWire, manifestToWire } from './file-capabilities.js';

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
 *   `PartitionError`, or `HearthNetLocalError` `blob_transfer` when the node's frames do not add up.
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
            await stream.send(new ChunkFrame({ i: index, cid: chunk.cid, withSize: false }, sliceOf(index)));
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
 * every chunk's bytes must hash to the manifest's CID for it — a chunk that does not is refused with
 * `HearthNetLocalError` `blob_transfer` and nothing is returned — and the blob is reassembled in manifest
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
        const { bytes, ...chunk } = chunkOf(frame);
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
/**
 * A chunk frame's index, CID and bytes: as this SDK's client read it from the frame's bytes
 * ({@link ChunkFrame}), else decoded from the frame's JSON.
 */
function chunkOf(frame: SseFrame): { i: number; cid: string; bytes: Uint8Array } {
  if (frame instanceof ChunkFrame) return { i: frame.index, cid: frame.cid, bytes: frame.bytes };
  const { i, cid, data_b64 } = frame.data as { i: number; cid: string; data_b64: string };
  try {
    return { i, cid, bytes: base64Decode(data_b64) };
  } catch (error) {
    if (!(error instanceof HearthNetLocalError && error.code === 'invalid_base64')) throw error;
    throw new HearthNetLocalError('blob_transfer', `chunk ${i}: data_b64 is not standard base64`, {
      cause: error,
      details: { reason: 'chunk_mismatch' },
    });
  }
}

/** Options of {@link recordBlobEvents}. */
export interface BlobEventRecorderOptions {
  /** The community log the events are appended to. */
  readonly events: EventStore;
  /** The holder: it authors and signs the events. */
  readonly identity: KeyPair;
  /** The community the events belong to. */
  readonly communityId: string;
  /** Clock and ULID factory of the events. */
  readonly createOptions?: CreateEventOptions;
  /** Receives an append that failed (the store's change itself stands). Default: kept for `settled()` to throw. */
  readonly onError?: (error: unknown, event: BlobStoreEvent) => void;
}

/** The blob store hook made by {@link recordBlobEvents}. */
export interface BlobEventRecorder {
  /** Pass as the store's `onEvent` option. */
  readonly onEvent: (event: BlobStoreEvent) => void;
  /**
   * Resolves once every event reported so far is in the log (appends run one at a time, in order).
   *
   * @throws the first append failure not handed to `onError`.
   */
  settled(): Promise<void>;
}

/**
 * Writes what a blob store reports into the community log as signed events (contract §7.2): a newly
 * held blob as `file.cid.advertised` `{cid, sizes_bytes}` (the contract's field name), an unpinned or
 * collected one as `file.cid.unpinned` `{cid}` — each with the next Lamport value of the holder's log.
 *
 * @example
 * const recorder = recordBlobEvents({ events: eventStore, identity, communityId });
 * const store = new InMemoryBlobStore({ onEvent: recorder.onEvent });
 * await store.putBlob(pdf);
 * await recorder.settled(); // the file.cid.advertised event is in the log
 */
export function recordBlobEvents(options: BlobEventRecorderOptions): BlobEventRecorder {
  const { events, identity, communityId } = options;
  let queue: Promise<void> = Promise.resolve();
  let failure: { readonly error: unknown } | undefined;
  const append = async (event: BlobStoreEvent) => {
    await events.appendLocal(communityId, (lamport) =>
      event.type === 'file.cid.advertised'
        ? createEvent(
            {
              community_id: communityId,
              event_type: 'file.cid.advertised',
              data: { cid: event.cid, sizes_bytes: event.size_bytes },
              lamport,
            },
            identity,
            options.createOptions,
          )
        : createEvent(
            { community_id: communityId, event_type: 'file.cid.unpinned', data: { cid: event.cid }, lamport },
            identity,
            options.createOptions,
          ),
    );
  };
  return {
    onEvent: (event) => {
      queue = queue.then(() =>
        append(event).catch((error: unknown) => {
          if (options.onError !== undefined) options.onError(error, event);
          else failure ??= { error };
        }),
      );
    },
    settled: async () => {
      await queue;
      if (failure !== undefined) {
        const { error } = failure;
        failure = undefined;
        throw error;
      }
    },
  };
}
