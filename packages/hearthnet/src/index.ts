/**
 * `@agentwire/hearthnet` — the HearthNet Capability Contract v1.0 for TypeScript.
 *
 * The root entry is runtime-neutral and holds the crypto core every peer must agree on byte for byte:
 * - canonical JSON, byte-identical to the reference `canonical_json`, and the number rules around it;
 * - key pairs and node ids, Ed25519 with one libsodium-equal verification rule and pluggable backends,
 *   payload signing;
 * - BLAKE3 content ids, chunking and blob CIDs; standard base64 for the `data_b64` fields;
 * - `HearthNetLocalError`, the one error class for everything hearthnet refuses locally.
 *
 * Further runtime-neutral subpaths: `@agentwire/hearthnet/capabilities` (the 18-capability catalogue,
 * schema hashes, the error family), `@agentwire/hearthnet/wire` (signed calls, SSE, the client and the
 * web-standard bus handler), `@agentwire/hearthnet/events` (the signed event log core) and
 * `@agentwire/hearthnet/manifests` (node manifests). Node-only helpers: `@agentwire/hearthnet/key-files` and
 * `@agentwire/hearthnet/node-http` (serving a bus handler on `node:http`).
 *
 * @example
 * ```ts
 * import { generateKeyPair, signPayload, verifyPayload } from '@agentwire/hearthnet';
 *
 * const me = generateKeyPair();
 * const signed = signPayload({ hello: 'mesh' }, me);
 * verifyPayload(signed, me.nodeId); // { valid: true }
 * ```
 *
 * @packageDocumentation
 */
export {
  canonicalJson,
  canonicalJsonString,
  findLossyNumbers,
  isCanonicalNumber,
  normalizeNumbers,
} from './canonical-json/canonical-json.js';
export {
  defaultEd25519Backend,
  type Ed25519Backend,
  type Ed25519Options,
  ed25519Sign,
  ed25519Verify,
  nobleBackend,
  nodeCryptoBackend,
} from './crypto/ed25519.js';
export {
  generateKeyPair,
  type KeyPair,
  keyPairFromSeed,
  nodeIdFromPublicKey,
  type ParseNodeIdOptions,
  parseNodeId,
  shortNodeId,
} from './crypto/key-pair.js';
export {
  type PayloadVerification,
  type SignedPayload,
  signPayload,
  type VerifyPayloadOptions,
  verifyPayload,
} from './crypto/payload-signature.js';
export { base64Decode, base64Encode } from './encoding.js';
export { HearthNetLocalError, type HearthNetLocalErrorCode } from './errors.js';
export {
  blake3,
  blake3Hasher,
  blake3Hex,
  blobCid,
  CHUNK_SIZE_BYTES,
  type ChunkBlobOptions,
  chunkBlob,
  contentId,
  type Hasher,
  parseContentId,
  sha256Hasher,
  shortContentId,
} from './hashing.js';
