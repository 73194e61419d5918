/**
 * `@agentwire/hearthnet/filesystem-blob-store` — a Node.js {@link FilesystemBlobStore} that keeps blobs
 * in a folder in the reference `BlobStore` layout (sharded chunk files, sorted-key manifest JSON,
 * `pinned.txt`), with atomic writes and hash-checked reads.
 *
 * @packageDocumentation
 */
export { FilesystemBlobStore, type FilesystemBlobStoreOptions } from './filesystem-blob-store.js';
