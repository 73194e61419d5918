export { blake3, blake3Hex } from './blake3.js';
export type { ChunkBlobOptions, ChunkedBlob, ChunkRef } from './chunking.js';
export { blobCid, CHUNK_SIZE_BYTES, chunkBlob } from './chunking.js';
export type { ContentIdAlgorithm, ParsedContentId } from './content-id.js';
export { contentId, parseContentId, shortContentId } from './content-id.js';
export type { Hasher } from './hasher.js';
export { blake3Hasher, sha256Hasher } from './hasher.js';
