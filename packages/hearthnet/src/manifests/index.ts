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
export {
  createManifestHandler,
  type FetchNodeManifestOptions,
  fetchNodeManifest,
  type IntervalTimers,
  MANIFEST_REFRESH_BEFORE_EXPIRY_MS,
  type ManifestHandlerOptions,
  type ManifestRepublisherOptions,
  NODE_MANIFEST_PATH,
  type NodeManifestSource,
  startManifestRepublisher,
} from './manifest-handler.js';
export {
  type BuildNodeManifestOptions,
  buildNodeManifest,
  CONTRACT_VERSION,
  contentIdSchema,
  countSchema,
  endpointSchema,
  formatTimestamp,
  hardwareSchema,
  InMemoryPinStore,
  jsonObjectSchema,
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
  type NodeManifestRejection,
  type NodeManifestRejectionReason,
  type NodeManifestVerdict,
  NodeManifestVerifier,
  type NodeManifestVerifierOptions,
  type NodeProfile,
  nodeIdSchema,
  nodeManifestError,
  nodeManifestInputSchema,
  type PinStore,
  parseTimestamp,
  type SignedNodeManifest,
  signatureSchema,
  signedNodeManifestSchema,
  timestampSchema,
  tryParseTimestamp,
  type VerifyNodeManifestOptions,
  verifyNodeManifest,
} from './node-manifest.js';
