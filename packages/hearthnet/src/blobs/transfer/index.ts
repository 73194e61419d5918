export { type BlobDirectory, InMemoryBlobDirectory } from './blob-directory.js';
export {
  type BlobEventRecorder,
  type BlobEventRecorderOptions,
  recordBlobEvents,
} from './blob-event-recorder.js';
export {
  type FileCapabilityHandlers,
  type FileCapabilityLimits,
  type FileCapabilityOptions,
  fileCapabilityHandlers,
  registerFileCapabilities,
} from './file-capabilities.js';
export { type PutBlobCallOptions, type PutBlobResult, putBlob } from './put-blob.js';
export { type ReadBlobOptions, type ReadBlobResult, readBlob } from './read-blob.js';
export { manifestFromWire, manifestToWire } from './wire-manifest.js';
