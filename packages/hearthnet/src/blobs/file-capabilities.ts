import { FILE_ADVERTISE, FILE_LIST, FILE_PUT, FILE_READ } from '../capabilities/catalogue/catalogue.js';
import { BadRequestError, NotFoundError } from '../capabilities/index.js';
import { base64Decode, base64Encode } from '../encoding.js';
import { HearthNetLocalError } from '../errors.js';
import { CHUNK_SIZE_BYTES, type Hasher, isPrefixedContentId } from '../hashing.js';
import type { BusRegistry } from '../wire/bus-handler.js';
import { ChunkFrame } from '../wire/chunk-frame.js';
import type { CallContext, CapabilityHandler } from '../wire/index.js';
import { parseBlobManifest } from './blob-manifest.js';
import type { BlobManifest, BlobStore } from './blob-store.js';

/** Options of {@link fileCapabilityHandlers} and {@link registerFileCapabilities}. */
export interface FileCapabilityOptions {
  /** Where blobs are read from and put into. */
  readonly store: BlobStore;
  /** Where `file.advertise` records who holds what. Without it `file.advertise` records nothing (`recorded: 0`). */
  readonly directory?: BlobDirectory;
  /** Pin blobs received with `file.put` (shared documents that must survive garbage collection). Default `false`. */
  readonly pinPuts?: boolean;
  /** Checks `blake3:` ids of received manifests (an injected, faster BLAKE3). Default: the built-in one. */
  readonly hasher?: Hasher;
  /** The clock for `ms` fields, epoch ms. Default `Date.now`. */
  readonly now?: () => number;
}

/** The four `file.*` handlers, by capability name. */
export interface FileCapabilityHandlers {
  readonly 'file.read': CapabilityHandler;
  readonly 'file.list': CapabilityHandler;
  readonly 'file.advertise': CapabilityHandler;
  readonly 'file.put': CapabilityHandler;
}

/**
 * The handlers of `file.read`, `file.list`, `file.advertise` and `file.put` (contract §4.7–§4.10) over
 * a {@link BlobStore}:
 * - `file.read`: a chunk CID answers `{cid, size_bytes, data_b64}` (standard base64), or — asked for
 *   a stream — one `chunk` frame and `done`; a blob CID streams `manifest`, every `chunk` in order and
 *   `done {chunks, ms}` (a blob CID without a stream is `bad_request`); an unknown CID is `not_found`.
 * - `file.list`: the blob CIDs held under an optional prefix.
 * - `file.advertise`: records the caller as a holder of the CIDs in the directory.
 * - `file.put` (a client stream): checks the manifest, answers `ready {needed}` with the chunk indexes
 *   the store lacks, stores each `chunk` the client sends after checking its index, CID and bytes
 *   (a wrong one ends the stream with `bad_request`; the chunks stored before it stay, so a second
 *   `file.put` of the same manifest is asked only for what is still missing), stores the manifest once
 *   every chunk is held and ends with `done {received, ms}`. A client that ends its frames early gets
 *   `bad_request` naming the missing chunks. A full store answers `capacity_exceeded`.
 */
export function fileCapabilityHandlers(options: FileCapabilityOptions): FileCapabilityHandlers {
  const { store, directory, hasher } = options;
  const now = options.now ?? Date.now;
  const pinPuts = options.pinPuts === true;

  const read: CapabilityHandler = async ({ input }, context) => {
    const started = now();
    const cid = input['cid'] as string;
    const manifest = await store.getManifest(cid);
    if (manifest !== undefined) {
      if (!context.stream) {
        throw new BadRequestError(
          `${cid} is a blob manifest: call file.read with a stream to receive its chunks`,
        );
      }
      return streamBlob(manifest, started);
    }
    const bytes = await store.getChunk(cid);
    if (bytes === undefined) throw new NotFoundError(`this node does not hold ${cid}`);
    if (!context.stream) {
      return {
        output: { cid, size_bytes: bytes.length, data_b64: base64Encode(bytes) },
        meta: { ms: now() - started },
      };
    }
    return (async function* () {
      yield new ChunkFrame({ i: 0, cid, withSize: true }, bytes);
      yield { event: 'done', data: { chunks: 1, ms: now() - started } };
    })();
  };

  async function* streamBlob(manifest: BlobManifest, started: number) {
    yield { event: 'manifest', data: manifestToWire(manifest) };
    for (const chunk of manifest.chunks) {
      const bytes = await store.getChunk(chunk.cid);
      if (bytes === undefined) throw new NotFoundError(`chunk ${chunk.i} (${chunk.cid}) is no longer held`);
      yield new ChunkFrame({ i: chunk.i, cid: chunk.cid, withSize: true }, bytes);
    }
    yield { event: 'done', data: { chunks: manifest.chunks.length, ms: now() - started } };
  }

  const list: CapabilityHandler = async ({ input }) => {
    const started = now();
    const prefix = input['prefix'] as string | undefined;
    return { output: { cids: await store.list(prefix) }, meta: { ms: now() - started } };
  };

  const advertise: CapabilityHandler = async ({ input }, context) => {
    const started = now();
    const cids = input['cids'] as string[];
    const recorded =
      directory === undefined || context.caller === undefined
        ? 0
        : await directory.record(context.caller, cids);
    return { output: { recorded }, meta: { ms: now() - started } };
  };

  const put: CapabilityHandler = async ({ input }, context) => {
    const started = now();
    if (context.clientFrames === undefined || !context.stream) {
      throw new BadRequestError('file.put is a client stream: send the chunks on the same call (duplex)');
    }
    const manifest = manifestFromWire(input['manifest'], hasher);
    const needed = await store.missingChunks(manifest);
    return receiveChunks(manifest, needed, context, started);
  };

  async function* receiveChunks(
    manifest: BlobManifest,
    needed: number[],
    context: CallContext,
    started: number,
  ) {
    yield { event: 'ready', data: { needed } };
    const pending = new Set(needed);
    let received = 0;
    if (pending.size > 0) {
      for await (const frame of context.clientFrames as AsyncIterable<{ event: string; data: unknown }>) {
        if (frame.event !== 'chunk')
          throw new BadRequestError(`file.put expects chunk frames, got "${frame.event}"`);
        // Read from its bytes (ChunkFrame) by this SDK's node; else its JSON, decoded once it is asked for.
        const { i, cid, data_b64 } =
          frame instanceof ChunkFrame
            ? { i: frame.index, cid: frame.cid, data_b64: undefined }
            : (frame.data as { i: number; cid: string; data_b64: string });
        const expected = manifest.chunks[i];
        if (expected === undefined || !pending.has(i)) {
          throw new BadRequestError(`chunk ${i} was not asked for (needed: ${[...pending].join(', ')})`);
        }
        if (cid !== expected.cid) throw new BadRequestError(`chunk ${i} is ${expected.cid}, not ${cid}`);
        let bytes: Uint8Array;
        try {
          bytes = frame instanceof ChunkFrame ? frame.bytes : base64Decode(data_b64 as string);
        } catch (error) {
          if (!(error instanceof HearthNetLocalError && error.code === 'invalid_base64')) throw error;
          throw new BadRequestError(`chunk ${i}: data_b64 is not standard base64`, { cause: error });
        }
        if (bytes.length !== expected.size_bytes) {
          throw new BadRequestError(
            `chunk ${i} has ${bytes.length} bytes, the manifest says ${expected.size_bytes}`,
          );
        }
        await store.putChunk(cid, bytes);
        pending.delete(i);
        received += 1;
        if (pending.size === 0) break;
      }
      if (pending.size > 0) {
        throw new BadRequestError(
          `the client stream ended with ${pending.size} chunk(s) missing: ${[...pending].slice(0, 20).join(', ')}`,
        );
      }
    }
    await store.putManifest(manifest);
    if (pinPuts) await store.pin(manifest.cid);
    yield { event: 'done', data: { received, ms: now() - started } };
  }

  return { 'file.read': read, 'file.list': list, 'file.advertise': advertise, 'file.put': put };
}

/** `max_concurrent` of each `file.*` capability registered by {@link registerFileCapabilities}. */
export interface FileCapabilityLimits {
  readonly read?: number;
  readonly list?: number;
  readonly advertise?: number;
  readonly put?: number;
}

/**
 * Registers `file.read`, `file.list`, `file.advertise` and `file.put` (see
 * {@link fileCapabilityHandlers}) with their catalogue descriptors.
 *
 * @example
 * const store = new InMemoryBlobStore();
 * registerFileCapabilities(registry, { store, directory: new InMemoryBlobDirectory() });
 * const handler = createBusHandler({ identity, registry, trust, community });
 */
export function registerFileCapabilities(
  registry: BusRegistry,
  options: FileCapabilityOptions & { readonly maxConcurrent?: FileCapabilityLimits },
): void {
  const handlers = fileCapabilityHandlers(options);
  const limits = options.maxConcurrent ?? {};
  registry.register(FILE_READ, handlers['file.read'], { maxConcurrent: limits.read ?? 8 });
  registry.register(FILE_LIST, handlers['file.list'], { maxConcurrent: limits.list ?? 8 });
  registry.register(FILE_ADVERTISE, handlers['file.advertise'], { maxConcurrent: limits.advertise ?? 8 });
  registry.register(FILE_PUT, handlers['file.put'], { maxConcurrent: limits.put ?? 2 });
}

/**
 * Who holds which blob, as peers announced with `file.advertise` (contract §4.9, gossip): the
 * `file.advertise` handler records into it, and a node that wants a CID asks it where to `file.read`.
 */
export interface BlobDirectory {
  /** Records that `holder` holds `cids`; returns how many pairs were new. */
  record(holder: string, cids: readonly string[]): Promise<number>;
  /** The node ids that announced `cid`, in the order they did. */
  holdersOf(cid: string): Promise<string[]>;
}

/** A {@link BlobDirectory} in memory (one process). */
export class InMemoryBlobDirectory implements BlobDirectory {
  readonly #holders = new Map<string, Set<string>>();

  async record(holder: string, cids: readonly string[]): Promise<number> {
    let added = 0;
    for (const cid of cids) {
      if (!isPrefixedContentId(cid)) continue;
      let holders = this.#holders.get(cid);
      if (holders === undefined) {
        holders = new Set();
        this.#holders.set(cid, holders);
      }
      if (!holders.has(holder)) {
        holders.add(holder);
        added += 1;
      }
    }
    return added;
  }

  async holdersOf(cid: string): Promise<string[]> {
    return [...(this.#holders.get(cid) ?? [])];
  }
}

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
