/**
 * `@agentwire/hearthnet/blobs` — blob storage and transfer for the `file.*` capabilities (contract
 * §4.7–§4.10): the {@link BlobStore} interface with an in-memory store (the filesystem store in the
 * reference layout is `@agentwire/hearthnet/filesystem-blob-store`), the server handlers of
 * `file.read` / `file.list` / `file.advertise` / `file.put`, and the client side — {@link readBlob}
 * verifies every chunk against the manifest before accepting it, {@link putBlob} sends only the
 * chunks a node lacks, so an interrupted upload resumes where it broke off.
 *
 * @example
 * ```ts
 * import { InMemoryBlobStore, putBlob, readBlob, registerFileCapabilities } from '@agentwire/hearthnet/blobs';
 *
 * registerFileCapabilities(registry, { store: new InMemoryBlobStore() });   // on the serving node
 * const { manifest } = await putBlob(client, pdfBytes);                     // on a trusted peer
 * const { bytes } = await readBlob(client, manifest.cid);                   // on any member
 * ```
 *
 * @packageDocumentation
 */
export { type BlobStoreOptions, InMemoryBlobStore } from './backed-blob-store.js';
export { parseBlobManifest } from './blob-manifest.js';
export type { BlobManifest, BlobStore } from './blob-store.js';
export {
  type BlobEventRecorderOptions,
  type PutBlobCallOptions,
  putBlob,
  type ReadBlobOptions,
  readBlob,
  recordBlobEvents,
} from './blob-transfer.js';
export {
  type BlobDirectory,
  type FileCapabilityHandlers,
  type FileCapabilityOptions,
  fileCapabilityHandlers,
  InMemoryBlobDirectory,
  manifestToWire,
  registerFileCapabilities,
} from './file-capabilities.js';
