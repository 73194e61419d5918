import { BackedBlobStore, type BlobStoreOptions } from './backed-blob-store.js';
import type { BlobStoreBackend } from './blob-store-backend.js';

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
