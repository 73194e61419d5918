/**
 * Conformance suites for the agentwire contracts, as data: each suite is a list of cases with stable
 * ids, spec sections and levels, run framework-free by {@link runSuite} or registered with a test runner
 * through `@agentwire/conformance/vitest` or `@agentwire/conformance/node-test`. The fixture files the
 * data-driven suites read ship under `@agentwire/conformance/fixtures/*` for other languages.
 *
 * @example
 * ```ts
 * import { blake3Hex, blobCid, contentId } from '@agentwire/hearthnet';
 * import { formatReportTable, hashingSuite, runSuite } from '@agentwire/conformance';
 *
 * const report = await runSuite(hashingSuite({ blake3Hex, contentId, blobCid }));
 * console.log(formatReportTable([report]));
 * ```
 * @packageDocumentation
 */
// The runner: build a suite, run it framework-free, print or persist the report.
export { ConformanceError, type ConformanceErrorCode } from './errors.js';
export { decodeFixtureValue, type FixtureFile, readFixtureFile } from './fixtures/fixture-file.js';
export { formatReportTable } from './format-report.js';
export { type RunSuiteOptions, runSuite, type SuiteReport } from './run-suite.js';
export { type ConformanceSubjects, subjectSuites } from './subjects/subject-suites.js';
export type { ConformanceSuite } from './suite.js';
// The suites, each with the one type a caller names when it builds the argument separately.
export {
  type AgentAddressImplementation,
  agentAddressSuite,
} from './suites/agent-connector/agent-address-suite.js';
export {
  type AgentConnectorSuiteOptions,
  agentConnectorSuite,
} from './suites/agent-connector/agent-connector-suite.js';
export {
  createWebhookReceiverHarness,
  type WebhookReceiverHarness,
} from './suites/agent-connector/webhook-receiver-harness.js';
export {
  type WebhookSigningSuiteOptions,
  webhookSigningSuite,
} from './suites/agent-connector/webhook-signing-suite.js';
export {
  type WebhookWireImplementation,
  webhookWireSuite,
} from './suites/agent-connector/webhook-wire-suite.js';
export { type DataStoreSuiteOptions, dataStoreSuite } from './suites/data-store/data-store-suite.js';
export { type BlobStoreSuiteOptions, blobStoreSuite } from './suites/hearthnet/blob-store.js';
export { type BlobTransferImplementation, blobTransferSuite } from './suites/hearthnet/blob-transfer.js';
export { type CanonicalJsonImplementation, canonicalJsonSuite } from './suites/hearthnet/canonical-json.js';
export {
  type CapabilityCatalogueImplementation,
  capabilitySchemaSuite,
} from './suites/hearthnet/capability-schemas.js';
export { type CompatImplementation, compatSuite } from './suites/hearthnet/compat.js';
export { type EventLogImplementation, eventLogSuite } from './suites/hearthnet/event-log.js';
export { type EventStoreSuiteOptions, eventStoreSuite } from './suites/hearthnet/event-store.js';
export { type HashingImplementation, hashingSuite } from './suites/hearthnet/hashing.js';
export { type ManifestImplementation, manifestSuite } from './suites/hearthnet/manifest-suite.js';
export {
  DEFAULT_NODE_SUITE_CAPABILITIES,
  type HearthNetNodeSuiteOptions,
  hearthnetNodeSuite,
} from './suites/hearthnet/node-suite.js';
export { type PubSubImplementation, pubsubSuite } from './suites/hearthnet/pubsub.js';
export { type SignatureImplementation, signatureSuite } from './suites/hearthnet/signatures.js';
export { type WireImplementation, wireSuite } from './suites/hearthnet/wire.js';
export { type RelayCodecImplementation, relayCodecSuite } from './suites/relay/relay-codec.js';
export { type SessionKeyImplementation, sessionKeySuite } from './suites/relay/session-keys.js';
export { type RelayTokenImplementation, relayTokenSuite } from './suites/relay/tokens.js';
export type { RelayEdgeImplementation } from './suites/relay-edge/edge-implementation.js';
export { edgeSuite } from './suites/relay-edge/edge-suite.js';
export {
  type EnrollmentTokenStoreSuiteOptions,
  enrollmentTokenStoreSuite,
} from './suites/relay-edge/enrollment-token-store-suite.js';
export { type PolicyStoreSuiteOptions, policyStoreSuite } from './suites/relay-edge/policy-store-suite.js';
export {
  type ProvisionRegistrySuiteOptions,
  provisionRegistrySuite,
} from './suites/relay-edge/provision-registry-suite.js';
export { type RelayEdgeLiveOptions, relayEdgeLiveSuite } from './suites/relay-edge/relay-edge-live-suite.js';
export {
  type CapabilityVaultSuiteOptions,
  capabilityVaultSuite,
} from './suites/relay-runtime/capability-vault-suite.js';
export {
  type GatewaySecretStoreSuiteOptions,
  gatewaySecretStoreSuite,
} from './suites/relay-runtime/gateway-secret-store-suite.js';
export {
  type InboundBufferSuiteOptions,
  inboundBufferSuite,
} from './suites/relay-runtime/inbound-buffer-suite.js';
export { type RelayBusSuiteOptions, relayBusSuite } from './suites/relay-runtime/relay-bus-suite.js';
export { type SkillStoreSuiteOptions, skillStoreSuite } from './suites/skill-store/skill-store-suite.js';
