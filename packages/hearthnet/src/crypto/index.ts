export {
  base32Decode,
  base32Encode,
  base64Decode,
  base64Encode,
  base64UrlDecode,
  base64UrlDecodeLenient,
  base64UrlEncode,
  hexDecode,
  hexEncode,
} from '../encoding.js';
export {
  HearthNetLocalError,
  type HearthNetLocalErrorCode,
  type HearthNetLocalErrorDetails,
  type HearthNetLocalErrorOptions,
  type InvalidNodeIdReason,
} from '../errors.js';
export {
  blake3,
  blake3Hasher,
  blake3Hex,
  blobCid,
  CHUNK_SIZE_BYTES,
  type ChunkBlobOptions,
  type ChunkedBlob,
  type ChunkRef,
  type ContentIdAlgorithm,
  chunkBlob,
  contentId,
  type Hasher,
  type ParsedContentId,
  parseContentId,
  sha256Hasher,
  shortContentId,
} from '../hashing.js';
export type { Ed25519Backend } from './ed25519.js';
export {
  defaultEd25519Backend,
  type Ed25519Options,
  ed25519PublicKeyFromSeed,
  ed25519Sign,
  ed25519Verify,
  nobleBackend,
  nodeCryptoBackend,
} from './ed25519.js';
export {
  ED25519_PREFIX,
  generateKeyPair,
  type KeyPair,
  keyPairFromSeed,
  nodeIdFromPublicKey,
  type ParseNodeIdOptions,
  parseNodeId,
  shortNodeId,
} from './key-pair.js';
export {
  type PayloadVerification,
  type SignedPayload,
  signPayload,
  type VerifyFailureReason,
  type VerifyPayloadOptions,
  verifyPayload,
} from './payload-signature.js';
