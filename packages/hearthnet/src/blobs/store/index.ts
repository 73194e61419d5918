/**
 * Blob storage for the `file.*` capabilities (contract §4.7–§4.10): the {@link BlobStore} interface,
 * manifest and chunk checks, and an in-memory store. The filesystem store in the reference layout is
 * `@agentwire/hearthnet/filesystem-blob-store`.
 *
 * @packageDocumentation
 */
export { BackedBlobStore, type BlobStoreOptions } from './backed-blob-store.js';
export { parseBlobManifest } from './blob-manifest.js';
export type {
  BlobManifest,
  BlobManifestChunk,
  BlobStore,
  BlobStoreEvent,
  BlobStoreUsage,
  GarbageCollectionResult,
  PutBlobOptions,
} from './blob-store.js';
export type { BlobStoreBackend, StoredBlobState, StoredChunk } from './blob-store-backend.js';
export { verifyChunkBytes } from './content-ids.js';
export { InMemoryBlobStore } from './in-memory-blob-store.js';
