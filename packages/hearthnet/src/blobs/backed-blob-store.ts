import { CapacityExceededError } from '../capabilities/hearthnet-errors.js';
import { HearthNetLocalError } from '../errors.js';
import { blake3Hasher, CHUNK_SIZE_BYTES, chunkBlob, contentId, type Hasher } from '../hashing.js';
import {
  digestHexOf,
  hasherForAlgorithm,
  parseBlobManifest,
  parseStoreContentId,
  type StoreContentId,
} from './blob-manifest.js';
import type {
  BlobManifest,
  BlobStore,
  BlobStoreBackend,
  BlobStoreEvent,
  BlobStoreUsage,
  GarbageCollectionResult,
  PutBlobOptions,
  StoredBlobState,
} from './blob-store.js';

/** Options every blob store takes. */
export interface BlobStoreOptions {
  /**
   * The most chunk bytes the store may hold (manifests and pins are not counted). A chunk that would
   * pass it first makes the store collect unpinned blobs, then is refused with
   * `CapacityExceededError` (`capacity_exceeded`). Default: no limit.
   */
  readonly capacityBytes?: number;
  /**
   * The hasher {@link BlobStore.putBlob} names new blobs with (`blake3` or `sha256`), also used to check
   * ids of its algorithm; ids of the other algorithm are checked with the built-in one. Default BLAKE3.
   */
  readonly hasher?: Hasher;
  /** The chunk size {@link BlobStore.putBlob} cuts blobs into. Default {@link CHUNK_SIZE_BYTES} (256 KiB). */
  readonly chunkSizeBytes?: number;
  /**
   * Called after a change with `file.cid.advertised` / `file.cid.unpinned` (contract §7.2), to put on
   * the event log. It should not throw: if it does, the change has still happened and the call that
   * made it rejects with the hook's error.
   */
  readonly onEvent?: (event: BlobStoreEvent) => void;
}

interface ChunkEntry {
  readonly size: number;
  /** The full CID, once known (a chunk file found on disk names only its hex digits). */
  cid: string | undefined;
}

type ChunkRead =
  | { readonly state: 'absent' }
  | { readonly state: 'intact'; readonly bytes: Uint8Array }
  | { readonly state: 'corrupt'; readonly actualCid: string };

const ABSENT: ChunkRead = Object.freeze({ state: 'absent' });
const NOTHING_PROTECTED: ReadonlySet<string> = new Set();

/**
 * The {@link BlobStore} logic over any {@link BlobStoreBackend}: argument checks, chunk verification,
 * an in-memory index of chunks, manifests and pins, capacity and garbage collection, and the event
 * hook. Changes run one at a time; reads run beside them. {@link InMemoryBlobStore} and the
 * filesystem store of `@agentwire/hearthnet/filesystem-blob-store` are this class over their backends;
 * extend it to keep blobs elsewhere.
 */
export class BackedBlobStore implements BlobStore {
  readonly #backend: BlobStoreBackend;
  readonly #capacityBytes: number | undefined;
  readonly #hasher: Hasher;
  readonly #chunkSizeBytes: number;
  readonly #onEvent: ((event: BlobStoreEvent) => void) | undefined;
  /** Chunks by the hex digits of their CID. */
  readonly #chunks = new Map<string, ChunkEntry>();
  /** Manifests by blob CID, oldest first. */
  readonly #manifests = new Map<string, BlobManifest>();
  readonly #pins = new Set<string>();
  #usedBytes = 0;
  readonly #changes = new SerialQueue();

  /**
   * @param state - what `backend` holds already (nothing for a new store).
   * @throws {HearthNetLocalError} `invalid_blob_store_options` when an option is unusable.
   */
  constructor(backend: BlobStoreBackend, state: StoredBlobState, options: BlobStoreOptions = {}) {
    const { capacityBytes, hasher, chunkSizeBytes, onEvent } = checkBlobStoreOptions(options);
    this.#backend = backend;
    this.#capacityBytes = capacityBytes;
    this.#hasher = hasher;
    this.#chunkSizeBytes = chunkSizeBytes;
    this.#onEvent = onEvent;
    for (const chunk of state.chunks) {
      this.#chunks.set(chunk.hex, { size: chunk.size_bytes, cid: undefined });
      this.#usedBytes += chunk.size_bytes;
    }
    for (const manifest of state.manifests) {
      this.#manifests.set(manifest.cid, manifest);
      for (const chunk of manifest.chunks) {
        const entry = this.#chunks.get(digestHexOf(chunk.cid));
        if (entry !== undefined) entry.cid = chunk.cid;
      }
    }
    for (const pin of state.pins) this.#pins.add(pin);
  }

  async hasChunk(cid: string): Promise<boolean> {
    const id = parseStoreContentId(cid, 'cid');
    return (await this.#readChunk(cid, id)).state === 'intact';
  }

  async getChunk(cid: string): Promise<Uint8Array | undefined> {
    const id = parseStoreContentId(cid, 'cid');
    const read = await this.#readChunk(cid, id);
    if (read.state === 'corrupt')
      throw new HearthNetLocalError(
        'corrupt_chunk',
        `stored chunk ${cid} is corrupt: its bytes hash to ${read.actualCid}`,
        { details: { cid, actualCid: read.actualCid } },
      );
    return read.state === 'intact' ? read.bytes : undefined;
  }

  async putChunk(cid: string, bytes: Uint8Array): Promise<void> {
    const id = parseStoreContentId(cid, 'cid');
    if (!(bytes instanceof Uint8Array))
      throw new HearthNetLocalError('invalid_blob_store_input', `invalid bytes: must be a Uint8Array`, {
        path: 'bytes',
      });
    const actual = contentId(bytes, hasherForAlgorithm(id.algorithm, this.#hasher));
    if (actual !== cid)
      throw new HearthNetLocalError('chunk_mismatch', `chunk bytes hash to ${actual}, not ${cid}`, {
        details: { expectedCid: cid, actualCid: actual },
      });
    await this.#change((events) => this.#storeChunk(cid, id.hex, bytes, events));
  }

  async missingChunks(manifest: BlobManifest): Promise<number[]> {
    const checked = parseBlobManifest(manifest, this.#hasher);
    const missing: number[] = [];
    const held = new Map<string, number | undefined>();
    for (const chunk of checked.chunks) {
      if (!held.has(chunk.cid)) held.set(chunk.cid, await this.#intactChunkSize(chunk.cid));
      const size = held.get(chunk.cid);
      if (size === undefined) missing.push(chunk.i);
      else if (size !== chunk.size_bytes) throw wrongChunkSize(chunk.i, size);
    }
    return missing;
  }

  async getManifest(blobCid: string): Promise<BlobManifest | undefined> {
    parseStoreContentId(blobCid, 'blobCid');
    return this.#manifests.get(blobCid);
  }

  async putManifest(manifest: BlobManifest): Promise<void> {
    const checked = parseBlobManifest(manifest, this.#hasher);
    await this.#change((events) => this.#storeManifest(checked, events));
  }

  async readBlob(blobCid: string): Promise<Uint8Array | undefined> {
    parseStoreContentId(blobCid, 'blobCid');
    const manifest = this.#manifests.get(blobCid);
    if (manifest === undefined) return undefined;
    const blob = new Uint8Array(manifest.size_bytes);
    for (const chunk of manifest.chunks) {
      const read = await this.#readChunk(chunk.cid, parseStoreContentId(chunk.cid, 'cid'));
      if (read.state === 'corrupt')
        throw new HearthNetLocalError(
          'corrupt_chunk',
          `stored chunk ${chunk.cid} is corrupt: its bytes hash to ${read.actualCid}`,
          { details: { cid: chunk.cid, actualCid: read.actualCid } },
        );
      if (read.state === 'absent' || read.bytes.length !== chunk.size_bytes) return undefined;
      blob.set(read.bytes, chunk.i * manifest.chunk_size_bytes);
    }
    return blob;
  }

  async putBlob(bytes: Uint8Array, options: PutBlobOptions = {}): Promise<BlobManifest> {
    if (!(bytes instanceof Uint8Array))
      throw new HearthNetLocalError('invalid_blob_store_input', `invalid bytes: must be a Uint8Array`, {
        path: 'bytes',
      });
    const pin = options?.pin ?? false;
    if (typeof pin !== 'boolean')
      throw new HearthNetLocalError('invalid_blob_store_input', `invalid options.pin: must be a boolean`, {
        path: 'options.pin',
      });
    const blob = chunkBlob(bytes, { chunkSizeBytes: this.#chunkSizeBytes, hasher: this.#hasher });
    const manifest: BlobManifest = Object.freeze({
      cid: blob.cid,
      size_bytes: blob.size_bytes,
      chunk_size_bytes: this.#chunkSizeBytes,
      chunks: Object.freeze(
        blob.chunks.map((c) => Object.freeze({ i: c.index, cid: c.cid, size_bytes: c.size_bytes })),
      ),
    });
    // Each chunk was hashed under its id just now: store it without hashing it again.
    for (const chunk of blob.chunks) {
      const start = chunk.index * this.#chunkSizeBytes;
      const chunkBytes = bytes.subarray(start, start + chunk.size_bytes);
      await this.#change((events) => this.#storeChunk(chunk.cid, digestHexOf(chunk.cid), chunkBytes, events));
    }
    await this.#change(async (events) => {
      await this.#storeManifest(manifest, events);
      if (pin) await this.#addPin(manifest.cid);
    });
    return manifest;
  }

  async list(prefix?: string): Promise<string[]> {
    if (prefix !== undefined && typeof prefix !== 'string') {
      throw new HearthNetLocalError('invalid_blob_store_input', `invalid prefix: must be a string`, {
        path: 'prefix',
      });
    }
    const cids = [...this.#manifests.keys()].filter((cid) => prefix === undefined || cid.startsWith(prefix));
    return cids.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  async pin(blobCid: string): Promise<void> {
    parseStoreContentId(blobCid, 'blobCid');
    await this.#change(() => this.#addPin(blobCid));
  }

  async unpin(blobCid: string): Promise<boolean> {
    parseStoreContentId(blobCid, 'blobCid');
    return this.#change(async (events) => {
      if (!this.#pins.has(blobCid)) return false;
      this.#pins.delete(blobCid);
      try {
        await this.#backend.writePins(this.#sortedPins());
      } catch (error) {
        this.#pins.add(blobCid);
        throw error;
      }
      events.push({ type: 'file.cid.unpinned', cid: blobCid });
      return true;
    });
  }

  async isPinned(blobCid: string): Promise<boolean> {
    parseStoreContentId(blobCid, 'blobCid');
    return this.#pins.has(blobCid);
  }

  async usage(): Promise<BlobStoreUsage> {
    return { bytes: this.#usedBytes, chunks: this.#chunks.size, blobs: this.#manifests.size };
  }

  async collectGarbage(targetBytes = 0): Promise<GarbageCollectionResult> {
    if (!isCount(targetBytes)) {
      throw new HearthNetLocalError(
        'invalid_blob_store_input',
        `invalid targetBytes: must be a non-negative safe integer`,
        { path: 'targetBytes' },
      );
    }
    return this.#change((events) => this.#collect(targetBytes, NOTHING_PROTECTED, events));
  }

  /** Runs a change after the ones before it, then reports the events it gathered. */
  async #change<T>(task: (events: BlobStoreEvent[]) => Promise<T>): Promise<T> {
    const events: BlobStoreEvent[] = [];
    let result: T;
    try {
      result = await this.#changes.run(() => task(events));
    } catch (error) {
      this.#emit(events, false);
      throw error;
    }
    this.#emit(events, true);
    return result;
  }

  #emit(events: readonly BlobStoreEvent[], rethrow: boolean): void {
    const onEvent = this.#onEvent;
    if (onEvent === undefined) return;
    let failure: { readonly error: unknown } | undefined;
    for (const event of events) {
      try {
        onEvent(event);
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure !== undefined && rethrow) throw failure.error;
  }

  async #readChunk(cid: string, id: StoreContentId): Promise<ChunkRead> {
    const entry = this.#chunks.get(id.hex);
    if (entry === undefined || (entry.cid !== undefined && entry.cid !== cid)) return ABSENT;
    const bytes = await this.#backend.readChunk(id.hex);
    if (bytes === undefined) return ABSENT;
    if (!this.#backend.rehashReads) return { state: 'intact', bytes };
    const actualCid = contentId(bytes, hasherForAlgorithm(id.algorithm, this.#hasher));
    if (actualCid !== cid) return { state: 'corrupt', actualCid };
    entry.cid = cid;
    return { state: 'intact', bytes };
  }

  /** The size of a held chunk whose bytes are intact (hashed again when the backend asks for it). */
  async #intactChunkSize(cid: string): Promise<number | undefined> {
    const id = parseStoreContentId(cid, 'cid');
    if (this.#backend.rehashReads) {
      const read = await this.#readChunk(cid, id);
      return read.state === 'intact' ? read.bytes.length : undefined;
    }
    return this.#indexedChunkSize(cid);
  }

  #indexedChunkSize(cid: string): number | undefined {
    const entry = this.#chunks.get(digestHexOf(cid));
    return entry === undefined || (entry.cid !== undefined && entry.cid !== cid) ? undefined : entry.size;
  }

  async #storeChunk(cid: string, hex: string, bytes: Uint8Array, events: BlobStoreEvent[]): Promise<void> {
    const existing = this.#chunks.get(hex);
    if (existing !== undefined && (existing.cid === undefined || existing.cid === cid)) {
      if (!this.#backend.rehashReads) return;
      // Rewrite only bytes found damaged or gone.
      if ((await this.#readChunk(cid, parseStoreContentId(cid, 'cid'))).state === 'intact') return;
    }
    await this.#makeRoom(bytes.length - (existing?.size ?? 0), bytes.length, hex, events);
    await this.#backend.writeChunk(hex, bytes);
    this.#usedBytes += bytes.length - (this.#chunks.get(hex)?.size ?? 0);
    this.#chunks.set(hex, { size: bytes.length, cid });
  }

  async #storeManifest(manifest: BlobManifest, events: BlobStoreEvent[]): Promise<void> {
    const stored = this.#manifests.get(manifest.cid);
    if (stored !== undefined) {
      if (sameChunkOrder(stored, manifest)) return;
      throw new HearthNetLocalError(
        'invalid_blob_manifest',
        `invalid blob manifest at chunks: a manifest with this blob cid and another chunk order is stored`,
        { path: 'chunks' },
      );
    }
    const missing: number[] = [];
    for (const chunk of manifest.chunks) {
      const size = this.#indexedChunkSize(chunk.cid);
      if (size === undefined) missing.push(chunk.i);
      else if (size !== chunk.size_bytes) throw wrongChunkSize(chunk.i, size);
    }
    if (missing.length > 0) {
      throw new HearthNetLocalError(
        'missing_chunks',
        `blob ${manifest.cid} is missing ${missing.length} chunk(s): ${missing.slice(0, 10).join(', ')}`,
        { details: { cid: manifest.cid, missing: Object.freeze([...missing]) } },
      );
    }
    await this.#backend.writeManifest(manifest);
    this.#manifests.set(manifest.cid, manifest);
    events.push({ type: 'file.cid.advertised', cid: manifest.cid, size_bytes: manifest.size_bytes });
  }

  async #addPin(blobCid: string): Promise<void> {
    if (this.#pins.has(blobCid)) return;
    this.#pins.add(blobCid);
    try {
      await this.#backend.writePins(this.#sortedPins());
    } catch (error) {
      this.#pins.delete(blobCid);
      throw error;
    }
  }

  #sortedPins(): string[] {
    return [...this.#pins].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /**
   * Frees room for `extraBytes` more chunk bytes by collecting unpinned blobs, or throws without
   * collecting anything when even collecting every one of them would not make room.
   */
  async #makeRoom(
    extraBytes: number,
    requestedBytes: number,
    keepHex: string,
    events: BlobStoreEvent[],
  ): Promise<void> {
    const capacity = this.#capacityBytes;
    if (capacity === undefined || extraBytes <= 0 || this.#usedBytes + extraBytes <= capacity) return;
    const keep = new Set([keepHex]);
    const target = capacity - extraBytes;
    if (target < 0 || this.#usedBytes - this.#collectableBytes(keep) > target) {
      throw new CapacityExceededError(
        `blob store is full: ${requestedBytes} more bytes do not fit in ${capacity} ` +
          `(${this.#usedBytes} held) even after collecting every unpinned blob`,
      );
    }
    await this.#collect(target, keep, events);
  }

  /** Chunk bytes that collecting every unpinned blob would free. */
  #collectableBytes(keep: ReadonlySet<string>): number {
    const kept = this.#keptChunks(keep);
    const freeable = new Set<string>();
    for (const manifest of this.#manifests.values()) {
      if (this.#pins.has(manifest.cid)) continue;
      for (const chunk of manifest.chunks) {
        const hex = digestHexOf(chunk.cid);
        if (!kept.has(hex)) freeable.add(hex);
      }
    }
    let bytes = 0;
    for (const hex of freeable) bytes += this.#chunks.get(hex)?.size ?? 0;
    return bytes;
  }

  /** Chunks that collection never deletes: those of pinned blobs, and `keep`. */
  #keptChunks(keep: ReadonlySet<string>): Set<string> {
    const kept = new Set(keep);
    for (const manifest of this.#manifests.values()) {
      if (!this.#pins.has(manifest.cid)) continue;
      for (const chunk of manifest.chunks) kept.add(digestHexOf(chunk.cid));
    }
    return kept;
  }

  async #collect(
    targetBytes: number,
    keep: ReadonlySet<string>,
    events: BlobStoreEvent[],
  ): Promise<GarbageCollectionResult> {
    const removedBlobs: string[] = [];
    let freedBytes = 0;
    if (this.#usedBytes <= targetBytes) return { removedBlobs, freedBytes };
    const kept = this.#keptChunks(keep);
    const users = new Map<string, number>();
    for (const manifest of this.#manifests.values()) {
      for (const hex of distinctChunkHexes(manifest)) users.set(hex, (users.get(hex) ?? 0) + 1);
    }
    for (const manifest of [...this.#manifests.values()]) {
      if (this.#usedBytes <= targetBytes) break;
      if (this.#pins.has(manifest.cid)) continue;
      const hexes = distinctChunkHexes(manifest);
      // A blob all of whose chunks must stay would free nothing: keep its manifest too.
      if (hexes.every((hex) => kept.has(hex))) continue;
      await this.#backend.deleteManifest(manifest.cid);
      this.#manifests.delete(manifest.cid);
      removedBlobs.push(manifest.cid);
      events.push({ type: 'file.cid.unpinned', cid: manifest.cid });
      for (const hex of hexes) {
        const remaining = (users.get(hex) ?? 1) - 1;
        users.set(hex, remaining);
        const entry = this.#chunks.get(hex);
        if (remaining > 0 || kept.has(hex) || entry === undefined) continue;
        await this.#backend.deleteChunk(hex);
        this.#chunks.delete(hex);
        this.#usedBytes -= entry.size;
        freedBytes += entry.size;
      }
    }
    return { removedBlobs, freedBytes };
  }
}

/**
 * The options with their defaults filled in, checked.
 *
 * @throws {HearthNetLocalError} `invalid_blob_store_options` when an option is unusable.
 */
export function checkBlobStoreOptions(options: BlobStoreOptions | undefined): CheckedBlobStoreOptions {
  const { capacityBytes, hasher = blake3Hasher, chunkSizeBytes = CHUNK_SIZE_BYTES, onEvent } = options ?? {};
  if (capacityBytes !== undefined && !isCount(capacityBytes)) {
    throw new HearthNetLocalError(
      'invalid_blob_store_options',
      'capacityBytes must be a non-negative safe integer',
    );
  }
  if (
    typeof hasher !== 'object' ||
    hasher === null ||
    (hasher.algorithm !== 'blake3' && hasher.algorithm !== 'sha256') ||
    typeof hasher.digest !== 'function'
  ) {
    throw new HearthNetLocalError('invalid_blob_store_options', 'hasher must be a blake3 or sha256 Hasher');
  }
  if (!isCount(chunkSizeBytes) || chunkSizeBytes === 0) {
    throw new HearthNetLocalError(
      'invalid_blob_store_options',
      'chunkSizeBytes must be a positive safe integer',
    );
  }
  if (onEvent !== undefined && typeof onEvent !== 'function') {
    throw new HearthNetLocalError('invalid_blob_store_options', 'onEvent must be a function');
  }
  return { capacityBytes, hasher, chunkSizeBytes, onEvent };
}

/** {@link BlobStoreOptions} after {@link checkBlobStoreOptions}. */
export interface CheckedBlobStoreOptions {
  readonly capacityBytes: number | undefined;
  readonly hasher: Hasher;
  readonly chunkSizeBytes: number;
  readonly onEvent: ((event: BlobStoreEvent) => void) | undefined;
}

function distinctChunkHexes(manifest: BlobManifest): string[] {
  return [...new Set(manifest.chunks.map((c) => digestHexOf(c.cid)))];
}

function sameChunkOrder(a: BlobManifest, b: BlobManifest): boolean {
  return (
    a.chunk_size_bytes === b.chunk_size_bytes &&
    a.chunks.length === b.chunks.length &&
    a.chunks.every((chunk, i) => chunk.cid === b.chunks[i]?.cid)
  );
}

function wrongChunkSize(index: number, heldSize: number): HearthNetLocalError {
  return new HearthNetLocalError(
    'invalid_blob_manifest',
    `invalid blob manifest at chunks[${index}].size_bytes: the chunk with this cid is held with ${heldSize} bytes`,
    { path: `chunks[${index}].size_bytes` },
  );
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/**
 * A {@link BlobStore} in process memory: for tests, browsers and nodes that do not keep blobs across
 * restarts. Chunk bytes are copied in and out, so callers cannot change what is stored.
 *
 * @example
 * ```ts
 * const store = new InMemoryBlobStore({ capacityBytes: 16 * 1024 * 1024, onEvent: (e) => log.push(e) });
 * const { cid } = await store.putBlob(pdfBytes, { pin: true });
 * await store.list('blake3:'); // [cid]
 * ```
 */
export class InMemoryBlobStore extends BackedBlobStore {
  /** @throws {HearthNetLocalError} `invalid_blob_store_options` when an option is unusable. */
  constructor(options: BlobStoreOptions = {}) {
    super(new MemoryBackend(), { chunks: [], manifests: [], pins: [] }, options);
  }
}

/** Keeps chunk bytes in a map; manifests and pins live in the store's own index. */
class MemoryBackend implements BlobStoreBackend {
  readonly rehashReads = false;
  readonly #chunks = new Map<string, Uint8Array>();

  async readChunk(hex: string): Promise<Uint8Array | undefined> {
    return this.#chunks.get(hex)?.slice();
  }

  async writeChunk(hex: string, bytes: Uint8Array): Promise<void> {
    this.#chunks.set(hex, bytes.slice());
  }

  async deleteChunk(hex: string): Promise<void> {
    this.#chunks.delete(hex);
  }

  async writeManifest(): Promise<void> {}

  async deleteManifest(): Promise<void> {}

  async writePins(): Promise<void> {}
}

/** Runs async tasks one at a time, in the order they were queued; a failed task does not stop the queue. */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  /** Queues `task` and settles as it does. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
