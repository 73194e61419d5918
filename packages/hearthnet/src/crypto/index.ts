export * from '../encoding/index.js';
export {
  HearthNetLocalError,
  type HearthNetLocalErrorCode,
  type HearthNetLocalErrorDetails,
  type HearthNetLocalErrorOptions,
  type InvalidNodeIdReason,
} from '../errors.js';
export * from '../hashing/index.js';
export {
  defaultEd25519Backend,
  type Ed25519Options,
  ed25519PublicKeyFromSeed,
  ed25519Sign,
  ed25519Verify,
} from './ed25519.js';
export type { Ed25519Backend } from './ed25519-backend.js';
export { generateKeyPair, type KeyPair, keyPairFromSeed } from './key-pair.js';
export { nobleBackend } from './noble-backend.js';
export { nodeCryptoBackend } from './node-backend.js';
export {
  ED25519_PREFIX,
  nodeIdFromPublicKey,
  type ParseNodeIdOptions,
  parseNodeId,
  shortNodeId,
} from './node-id.js';
export {
  type PayloadVerification,
  type SignedPayload,
  signPayload,
  type VerifyFailureReason,
  type VerifyPayloadOptions,
  verifyPayload,
} from './payload-signature.js';
