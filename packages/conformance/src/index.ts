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
export type { CaseStatus } from './execute-case.js';
export { decodeFixtureValue } from './fixtures/decode-fixture-value.js';
export type { FixtureCase, FixtureFile } from './fixtures/fixture-file.js';
export { readFixtureFile } from './fixtures/fixture-file.js';
export { formatReportTable } from './format-report.js';
export type { SuiteRunOptions } from './plan.js';
export type { CaseCounts, CaseResult, ErrorSummary, RunSuiteOptions, SuiteReport } from './run-suite.js';
export { runSuite } from './run-suite.js';
export * from './subjects/index.js';
export type { ConformanceCase, ConformanceLevel, ConformanceSuite, SuiteSetup } from './suite.js';
export * from './suites/agent-connector/index.js';
export * from './suites/data-store/index.js';
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
export { BASELINE_SESSION_KEY_DIALECT } from './suites/relay/session-key-dialect.js';
export type { SessionKeyImplementation, SessionKeyOptions } from './suites/relay/session-keys.js';
export { sessionKeySuite } from './suites/relay/session-keys.js';
export type { SessionSourceImplementation } from './suites/relay/session-source-cases.js';
export type { RelayTokenImplementation, RelayTokenVerdict, TokenMintOptions } from './suites/relay/tokens.js';
export { relayTokenSuite } from './suites/relay/tokens.js';
export * from './suites/relay-edge/index.js';
export * from './suites/relay-runtime/index.js';
export * from './suites/skill-store/index.js';
