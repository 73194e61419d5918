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
export { assertEqual, assertRejects, assertTrue, fail } from './assert.js';
export {
  ConformanceError,
  type ConformanceErrorCode,
  type ConformanceErrorDetails,
  type ConformanceErrorOptions,
} from './errors.js';
export type { FixtureCase, FixtureFile } from './fixtures/fixture-file.js';
export { decodeFixtureValue, readFixtureFile } from './fixtures/fixture-file.js';
export { formatReportTable } from './format-report.js';
export type {
  CaseCounts,
  CaseResult,
  CaseStatus,
  ErrorSummary,
  RunSuiteOptions,
  SuiteReport,
  SuiteRunOptions,
} from './run-suite.js';
export { runSuite } from './run-suite.js';
export type { ConformanceSubjects, NamedSubject } from './subjects/subject-suites.js';
export { type SubjectSuite, subjectSuites } from './subjects/subject-suites.js';
export type { ConformanceCase, ConformanceLevel, ConformanceSuite, SuiteSetup } from './suite.js';
export type {
  AgentConnectorContext,
  ConnectorFactoryResult,
  ConnectorUnderTest,
  ReceivedDelivery,
} from './suites/agent-connector/agent-connector-suite.js';
export {
  type AgentConnectorSuiteOptions,
  agentConnectorSuite,
} from './suites/agent-connector/agent-connector-suite.js';
export {
  createWebhookReceiverHarness,
  type RecordedWebhookRequest,
  type WebhookReceiverHarness,
  type WebhookReceiverHarnessOptions,
} from './suites/agent-connector/webhook-receiver-harness.js';
export type {
  DataStoreContext,
  DataStoreFactoryResult,
  DataStoreUnderTest,
} from './suites/data-store/data-store-suite.js';
export { type DataStoreSuiteOptions, dataStoreSuite } from './suites/data-store/data-store-suite.js';
export type {
  BlobReadRefusal,
  BlobTransferFrame,
  BlobTransferImplementation,
  FilePutOutcome,
  HeldChunk,
  WireBlobManifest,
} from './suites/hearthnet/blob-transfer.js';
export { blobTransferSuite } from './suites/hearthnet/blob-transfer.js';
export type { CanonicalJsonImplementation } from './suites/hearthnet/canonical-json.js';
export { canonicalJsonSuite } from './suites/hearthnet/canonical-json.js';
export type {
  CapabilityCatalogueImplementation,
  CapabilityDescriptorFacts,
  CapabilitySchemaPart,
  CapabilityValidationVerdict,
} from './suites/hearthnet/capability-schemas.js';
export { capabilitySchemaSuite } from './suites/hearthnet/capability-schemas.js';
export type {
  EventLogImplementation,
  EventLogRejection,
  EventLogReplayResult,
} from './suites/hearthnet/event-log.js';
export { eventLogSuite } from './suites/hearthnet/event-log.js';
export type { EventStoreContext, EventStoreSuiteOptions } from './suites/hearthnet/event-store.js';
export { eventStoreSuite } from './suites/hearthnet/event-store.js';
export type { ChunkedBlobDescription, HashingImplementation } from './suites/hearthnet/hashing.js';
export { hashingSuite } from './suites/hearthnet/hashing.js';
export type {
  ManifestImplementation,
  ManifestVerdict,
  ManifestVerifyOptions,
} from './suites/hearthnet/manifest-suite.js';
export { manifestSuite } from './suites/hearthnet/manifest-suite.js';
export type { NodeIdImplementation } from './suites/hearthnet/node-id-cases.js';
export type {
  HearthNetNodeSuiteContext,
  HearthNetNodeSuiteOptions,
  NodeSuiteBlobs,
  NodeSuiteCall,
  NodeSuiteCapabilities,
  NodeSuiteLongStream,
  NodeSuiteManifest,
  NodeSuiteSubscribe,
  NodeSuiteSync,
} from './suites/hearthnet/node-suite.js';
export { DEFAULT_NODE_SUITE_CAPABILITIES, hearthnetNodeSuite } from './suites/hearthnet/node-suite.js';
export type { PubSubImplementation, TopicFacts, TopicPublicationFacts } from './suites/hearthnet/pubsub.js';
export { pubsubSuite } from './suites/hearthnet/pubsub.js';
export type { SignatureImplementation, VerifyOptions, VerifyVerdict } from './suites/hearthnet/signatures.js';
export { signatureSuite } from './suites/hearthnet/signatures.js';
export type {
  WireImplementation,
  WireRequestFields,
  WireResponseFields,
  WireSseItem,
} from './suites/hearthnet/wire.js';
export { wireSuite } from './suites/hearthnet/wire.js';
export type { DescriptorImplementation } from './suites/relay/descriptor-cases.js';
export type {
  FrameCodecImplementation,
  FrameDecodeOutcome,
  FrameDirection,
  FrameJsonStyle,
  FrameStreamDecoder,
  FrameStreamOutcome,
} from './suites/relay/frame-cases.js';
export type {
  PassthroughImplementation,
  PromptCallbackIds,
  RelayUrlSet,
} from './suites/relay/passthrough-cases.js';
export type { RelayCodecImplementation } from './suites/relay/relay-codec.js';
export { relayCodecSuite } from './suites/relay/relay-codec.js';
export type { SessionKeyImplementation, SessionKeyOptions } from './suites/relay/session-keys.js';
export { BASELINE_SESSION_KEY_DIALECT, sessionKeySuite } from './suites/relay/session-keys.js';
export type { SessionSourceImplementation } from './suites/relay/session-source-cases.js';
export type { RelayTokenImplementation, RelayTokenVerdict, TokenMintOptions } from './suites/relay/tokens.js';
export { relayTokenSuite } from './suites/relay/tokens.js';
export { type ContentDisposition, parseContentDisposition } from './suites/relay-edge/content-disposition.js';
export type {
  EdgeConnectorUnderTest,
  EdgeCredentialBinding,
  EdgeHttpRequest,
  EdgeHttpResponse,
  EdgeVerifierClock,
  EdgeWebhookRequest,
  EdgeWeComKeys,
  EdgeWeComReplyOptions,
  EdgeWorld,
  RelayEdgeImplementation,
  SanitisedDiscordForward,
} from './suites/relay-edge/edge-implementation.js';
export type {
  EdgeStoreContext,
  EdgeStoreSuiteOptions,
  OpenedEdgeStore,
} from './suites/relay-edge/edge-store-support.js';
export { edgeSuite } from './suites/relay-edge/edge-suite.js';
export {
  type EnrollmentTokenStoreContext,
  type EnrollmentTokenStoreSuiteOptions,
  enrollmentTokenStoreSuite,
} from './suites/relay-edge/enrollment-token-store-suite.js';
export {
  type PolicyStoreContext,
  type PolicyStoreSuiteOptions,
  policyStoreSuite,
} from './suites/relay-edge/policy-store-suite.js';
export {
  type ProvisionRegistryContext,
  type ProvisionRegistrySuiteOptions,
  provisionRegistrySuite,
} from './suites/relay-edge/provision-registry-suite.js';
export {
  type DeclaredLengthProbe,
  type RelayEdgeLiveContext,
  type RelayEdgeLiveOptions,
  relayEdgeLiveSuite,
} from './suites/relay-edge/relay-edge-live-suite.js';
export {
  type CapabilityVaultContext,
  type CapabilityVaultSuiteOptions,
  capabilityVaultSuite,
} from './suites/relay-runtime/capability-vault-suite.js';
export {
  type InboundBufferContext,
  type InboundBufferSuiteOptions,
  inboundBufferSuite,
} from './suites/relay-runtime/inbound-buffer-suite.js';
export {
  type RelayBusContext,
  type RelayBusSuiteOptions,
  relayBusSuite,
} from './suites/relay-runtime/relay-bus-suite.js';
export type {
  SkillStoreContext,
  SkillStoreFactory,
  SkillStoreFactoryResult,
  SkillStoreUnderTest,
} from './suites/skill-store/skill-store-suite.js';
export { type SkillStoreSuiteOptions, skillStoreSuite } from './suites/skill-store/skill-store-suite.js';
