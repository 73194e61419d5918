/**
 * `@agentwire/hearthnet/manifests` — node manifests (contract §6.1): build and sign, verify with
 * every rule (30 s lifetime, expiry, signature, `contract_version`), pin first-seen keys per node id,
 * re-issue every 20 s, serve at `GET /manifest` (`createManifestHandler`) and fetch a peer's
 * (`fetchNodeManifest`). Also the contract timestamp helpers and the zod field schemas the event log
 * shares.
 *
 * @example
 * ```ts
 * import { buildNodeManifest, InMemoryPinStore, NodeManifestVerifier } from '@agentwire/hearthnet/manifests';
 *
 * const manifest = buildNodeManifest(
 *   { display_name: 'garage-pc', community_id, profile: 'anchor', endpoints: [], capabilities: [] },
 *   deviceKey,
 * );
 * const verifier = new NodeManifestVerifier({ pinStore: new InMemoryPinStore() });
 * await verifier.accept(manifest);
 * ```
 *
 * @packageDocumentation
 */
export {
  HearthNetLocalError,
  type HearthNetLocalErrorCode,
  type HearthNetLocalErrorDetails,
  type HearthNetLocalErrorOptions,
} from '../errors.js';
export { type BuildNodeManifestOptions, buildNodeManifest } from './build-node-manifest.js';
export { type FetchNodeManifestOptions, fetchNodeManifest } from './fetch-node-manifest.js';
export {
  contentIdSchema,
  countSchema,
  jsonObjectSchema,
  nodeIdSchema,
  signatureSchema,
  timestampSchema,
} from './field-schemas.js';
export {
  createManifestHandler,
  MANIFEST_REFRESH_BEFORE_EXPIRY_MS,
  type ManifestHandlerOptions,
  NODE_MANIFEST_PATH,
  type NodeManifestSource,
} from './manifest-handler.js';
export {
  type IntervalTimers,
  type ManifestRepublisherOptions,
  startManifestRepublisher,
} from './manifest-republisher.js';
export {
  CONTRACT_VERSION,
  endpointSchema,
  hardwareSchema,
  loadSchema,
  MANIFEST_REPUBLISH_INTERVAL_MS,
  manifestCapabilitySchema,
  NODE_MANIFEST_LIFETIME_MS,
  NODE_MANIFEST_VERSION,
  NODE_PROFILES,
  type NodeEndpoint,
  type NodeHardware,
  type NodeLoad,
  type NodeManifestCapability,
  type NodeManifestInput,
  type NodeProfile,
  nodeManifestInputSchema,
  type SignedNodeManifest,
  signedNodeManifestSchema,
} from './node-manifest-schema.js';
export { NodeManifestVerifier, type NodeManifestVerifierOptions } from './node-manifest-verifier.js';
export { InMemoryPinStore, type PinStore } from './pin-store.js';
export { formatTimestamp, parseTimestamp, tryParseTimestamp } from './timestamps.js';
export {
  type NodeManifestRejection,
  type NodeManifestRejectionReason,
  type NodeManifestVerdict,
  nodeManifestError,
  type VerifyNodeManifestOptions,
  verifyNodeManifest,
} from './verify-node-manifest.js';
