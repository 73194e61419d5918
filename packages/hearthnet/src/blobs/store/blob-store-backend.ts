import type { BlobManifest } from './blob-store.js';

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
