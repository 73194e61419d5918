export { attachmentContentDisposition } from './content-disposition.js';
export { DEFAULT_MEDIA_CONTENT_TYPE, mediaContentType } from './content-type.js';
export { sanitizeMediaFilename } from './filename.js';
export { FilesystemMediaStore, type FilesystemMediaStoreOptions } from './filesystem-media-store.js';
export { InMemoryMediaStore } from './in-memory-media-store.js';
export { createMediaHandler, type MediaHandlerOptions, RELAY_MEDIA_PATH } from './media-handler.js';
export { isMediaId, newMediaId } from './media-id.js';
export type { MediaBody, MediaEntry, MediaPutOptions, MediaStore, StoredMedia } from './media-store.js';
