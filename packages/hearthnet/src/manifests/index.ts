/**
 * `@agentwire/hearthnet/manifests` — node manifests (contract §6.1): build and sign, verify with
 * every rule (30 s lifetime, expiry, signature, `contract_version`), pin first-seen keys per node id,
 * re-issue every 20 s, serve at `GET /manifest` (`createManifestHandler`) and fetch a peer's
 * (`fetchNodeManifest`). Also the contract timestamp helpers (`formatTimestamp`, `parseTimestamp`).
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
  createManifestHandler,
  type FetchNodeManifestOptions,
  fetchNodeManifest,
  type ManifestHandlerOptions,
  type ManifestRepublisherOptions,
  NODE_MANIFEST_PATH,
  startManifestRepublisher,
} from './manifest-handler.js';
export {
  type BuildNodeManifestOptions,
  buildNodeManifest,
  formatTimestamp,
  InMemoryPinStore,
  NODE_MANIFEST_LIFETIME_MS,
  type NodeManifestInput,
  NodeManifestVerifier,
  type NodeManifestVerifierOptions,
  type PinStore,
  parseTimestamp,
  type SignedNodeManifest,
  signedNodeManifestSchema,
  type VerifyNodeManifestOptions,
  verifyNodeManifest,
} from './node-manifest.js';
