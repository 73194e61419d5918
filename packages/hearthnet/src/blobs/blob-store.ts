/**
 * A blob as the store and the wire (`file.read` manifest frame, `file.put` initial frame, contract
 * §4.7/§4.10) describe it: the blob CID, the total size, the chunk size it was cut with and its chunks
 * in order.
 */
export interface BlobManifest {
  /** The blob CID: `blobCid` of the chunk CIDs (sorted, joined with `'\n'`). */
  readonly cid: string;
  readonly size_bytes: number;
  /** Every chunk but the last has exactly this size; the last has 1 … this many bytes (0 for an empty blob). */
  readonly chunk_size_bytes: number;
  readonly chunks: readonly BlobManifestChunk[];
}

/** One chunk of a {@link BlobManifest}: its index `i` (0, 1, …), content id and length. */
export interface BlobManifestChunk {
  readonly i: number;
  readonly cid: string;
  readonly size_bytes: number;
}

/**
 * What a store reports, for the event log (contract §7.2): `file.cid.advertised` when a blob's
 * manifest is stored (it is then held whole), `file.cid.unpinned` when a pin is removed or an unpinned
 * blob is collected.
 */
export type BlobStoreEvent =
  | { readonly type: 'file.cid.advertised'; readonly cid: string; readonly size_bytes: number }
  | { readonly type: 'file.cid.unpinned'; readonly cid: string };

/** Options of {@link BlobStore.putBlob}. */
export interface PutBlobOptions {
  /** Pin the blob so that garbage collection never removes it. Default `false`. */
  readonly pin?: boolean;
}

/** What a store holds: chunk bytes (each distinct chunk counted once), distinct chunks, blob manifests. */
export interface BlobStoreUsage {
  readonly bytes: number;
  readonly chunks: number;
  readonly blobs: number;
}

/** What {@link BlobStore.collectGarbage} removed. */
export interface GarbageCollectionResult {
  /** The blob CIDs whose manifests were removed, in removal order (oldest first). */
  readonly removedBlobs: string[];
  /** Chunk bytes deleted (chunks still used by a kept blob stay and are not counted). */
  readonly freedBytes: number;
}

/**
 * Where a node keeps blobs as content-addressed chunks plus one manifest per blob (the reference
 * `BlobStore`). Chunks are verified against their CID before they are stored; a manifest is stored only
 * once all its chunks are held, so a blob with a manifest can always be read whole. Pinned blobs are
 * never garbage-collected; a chunk shared by a pinned and an unpinned blob survives collection.
 *
 * Every CID argument must be a prefixed content id, `blake3:<64 hex>` or `sha256:<64 hex>`; a
 * `blake3:` id is verified with BLAKE3 and a `sha256:` id with SHA-256. Malformed arguments throw
 * `HearthNetLocalError` `invalid_blob_store_input` whose `path` names the argument (`cid` for the chunk
 * methods, `blobCid` for the blob methods, `bytes`, `options.pin`, `prefix`, `targetBytes`); a
 * capability handler that lets a store error
 * through answers it with its §9 code (`bad_request`, or `internal_error` for `corrupt_chunk`), message
 * kept (see `asHearthNetError`).
 *
 * @example
 * ```ts
 * const store = new InMemoryBlobStore({ capacityBytes: 64 * 1024 * 1024 });
 * const manifest = await store.putBlob(new TextEncoder().encode('emergency plan'), { pin: true });
 * (await store.readBlob(manifest.cid))?.length; // 14
 * ```
 */
export interface BlobStore {
  /** Whether the chunk is held with intact bytes. */
  hasChunk(cid: string): Promise<boolean>;
  /**
   * The chunk's bytes, or `undefined` when it is not held.
   *
   * @throws {HearthNetLocalError} `corrupt_chunk` when the stored bytes no longer hash to `cid` (a later put
   *   heals it).
   */
  getChunk(cid: string): Promise<Uint8Array | undefined>;
  /**
   * Stores a chunk after checking that `bytes` hash to `cid`; putting a held chunk again changes
   * nothing (it rewrites bytes found corrupt). When the store has a capacity and the chunk does not
   * fit, unpinned blobs are collected first.
   *
   * @throws {HearthNetLocalError} `chunk_mismatch` when `bytes` do not hash to `cid`.
   * @throws {CapacityExceededError} (`capacity_exceeded`) when the chunk does not fit even after
   *   collecting; nothing is stored or collected then.
   */
  putChunk(cid: string, bytes: Uint8Array): Promise<void>;
  /**
   * Indexes (`i`) of the manifest's chunks that are not held (or held corrupt), ascending: what a
   * `file.put` server answers in its `ready` frame. The manifest's shape is checked first.
   *
   * @throws {HearthNetLocalError} `invalid_blob_manifest` when the manifest is malformed or its CID does not
   *   match.
   */
  missingChunks(manifest: BlobManifest): Promise<number[]>;
  /** The stored manifest of a blob, or `undefined`. */
  getManifest(blobCid: string): Promise<BlobManifest | undefined>;
  /**
   * Stores a blob's manifest, after checking it (the blob CID is `blobCid` of the chunk CIDs, indexes
   * run 0 … n−1, every chunk but the last has `chunk_size_bytes` bytes, sizes add up to `size_bytes`)
   * and that every chunk is held. Emits `file.cid.advertised` when the manifest is new.
   *
   * @throws {HearthNetLocalError} `invalid_blob_manifest` when the manifest is malformed, its CID does not
   *   match, a chunk size differs from the held chunk's, or a manifest with this CID but another chunk order
   *   is stored.
   * @throws {HearthNetLocalError} `missing_chunks` when chunks are not held.
   */
  putManifest(manifest: BlobManifest): Promise<void>;
  /**
   * The whole blob, or `undefined` when its manifest or a chunk is not held.
   *
   * @throws {HearthNetLocalError} `corrupt_chunk` when a stored chunk no longer hashes to its CID.
   */
  readBlob(blobCid: string): Promise<Uint8Array | undefined>;
  /**
   * Chunks `bytes` with the store's hasher and chunk size, stores every chunk and the manifest, and
   * returns the manifest.
   *
   * @throws {CapacityExceededError} when the blob does not fit; chunks already stored stay (they
   *   belong to no blob until it is put again).
   * @throws {HearthNetLocalError} `invalid_blob_manifest` when a blob with the same chunks in another order
   *   is stored: the blob CID of contract §1.4 does not depend on chunk order, so the two cannot both be
   *   held.
   */
  putBlob(bytes: Uint8Array, options?: PutBlobOptions): Promise<BlobManifest>;
  /** The CIDs of the blobs held (those with a manifest) that start with `prefix`, sorted: `file.list`. */
  list(prefix?: string): Promise<string[]>;
  /** Pins a blob (held or not yet held) so that garbage collection never removes it. Idempotent. */
  pin(blobCid: string): Promise<void>;
  /** Removes a pin; `true` when there was one (then `file.cid.unpinned` is emitted). */
  unpin(blobCid: string): Promise<boolean>;
  isPinned(blobCid: string): Promise<boolean>;
  /** What the store holds now. */
  usage(): Promise<BlobStoreUsage>;
  /**
   * Removes unpinned blobs, oldest stored first, with their chunks that no kept blob uses, until the
   * chunk bytes held are at most `targetBytes` (default 0: every unpinned blob). Chunks that belong to no
   * blob (an upload in progress) are kept. Emits `file.cid.unpinned` for each removed blob.
   *
   * @throws {HearthNetLocalError} `invalid_blob_store_input` when `targetBytes` is not a non-negative safe
   *   integer.
   */
  collectGarbage(targetBytes?: number): Promise<GarbageCollectionResult>;
}

/** A chunk found in storage when a store opens: the 64 hex digits of its CID and its length. */
export interface StoredChunk {
  readonly hex: string;
  readonly size_bytes: number;
}

/** What a backend holds when its store opens. */
export interface StoredBlobState {
  readonly chunks: readonly StoredChunk[];
  /** Checked manifests, oldest first (the order garbage collection removes them in). */
  readonly manifests: readonly BlobManifest[];
  readonly pins: readonly string[];
}

/**
 * Where a {@link BackedBlobStore} keeps its bytes. The store validates every argument, verifies every
 * chunk, keeps the index, serialises changes and decides what to collect; a backend only reads, writes
 * and deletes. Chunks are filed under the hex digits of their CID (the reference layout does the same),
 * manifests under their blob CID.
 */
export interface BlobStoreBackend {
  /**
   * `true` when stored chunk bytes can change behind the store (files on disk): the store then hashes
   * every chunk it reads. `false` when they cannot (memory the backend alone holds).
   */
  readonly rehashReads: boolean;
  /** The chunk's bytes, or `undefined` when none are stored. */
  readChunk(hex: string): Promise<Uint8Array | undefined>;
  /** Stores (or replaces) a chunk's bytes, all or nothing. */
  writeChunk(hex: string, bytes: Uint8Array): Promise<void>;
  /** Deletes a chunk's bytes; nothing happens when there are none. */
  deleteChunk(hex: string): Promise<void>;
  /** Stores a checked manifest, all or nothing. */
  writeManifest(manifest: BlobManifest): Promise<void>;
  /** Deletes a manifest; nothing happens when there is none. */
  deleteManifest(blobCid: string): Promise<void>;
  /** Replaces the set of pinned blob CIDs (given sorted), all or nothing. */
  writePins(pins: readonly string[]): Promise<void>;
}
