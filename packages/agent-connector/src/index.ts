/**
 * `@agentwire/agent-connector` — the AgentConnector v1.0 contract a skill runtime uses to deliver
 * payloads to frontier agents and wake them over any substrate, and the SkillStore / DataStore
 * storage contracts and conventions.
 *
 * Runtime-neutral: contract types with zod schemas and parsers, typed errors, `agent@session` address
 * routing, delivery meta and the dispatcher, the connector registry, and the storage types, the
 * {@link storageConventions} kit for store implementers (content hashes, versions, change tokens,
 * filter enforcement) and the DataStore query bridge. The no-op connector is in
 * `@agentwire/agent-connector/noop`.
 *
 * @example
 * ```ts
 * import { AgentConnectorRegistry, createDeliveryMeta, dispatch } from '@agentwire/agent-connector';
 *
 * const registry = new AgentConnectorRegistry();
 * await registry.register('primary', myConnector);
 * const meta = createDeliveryMeta({ skill_name: 'daily-digest' });
 * const result = await dispatch(registry.list(), 'alice@standup', 'Your digest is ready', { meta });
 * ```
 *
 * @packageDocumentation
 */
export {
  type AgentAddress,
  claimingAgentIds,
  isWakeAddress,
  parseAgentAddress,
  resolveSessionId,
} from './address.js';
export {
  AGENT_CONNECTOR_CONTRACT_VERSION,
  type AgentConnector,
  type AgentDescriptor,
  type AgentResponse,
  type AgentStatus,
  type AugmentPayload,
  assertAgentConnector,
  type DeliveryMeta,
  type DeliveryPayload,
  type DeliveryReceipt,
  isKnownTriggerKind,
  parseAgentDescriptors,
  parseAgentResponse,
  parseAgentStatus,
  parseDeliveryMeta,
  parseDeliveryPayload,
  parseDeliveryReceipt,
  parseRequestResponseOpts,
  parseStaticCapabilities,
  parseWakeOpts,
  parseWakeReceipt,
  type RequestResponseOpts,
  type StaticCapabilities,
  staticCapabilitiesOf,
  type TemplatePayload,
  TRIGGER_KINDS,
  type WakeOpts,
  type WakeReceipt,
} from './contract/agent-connector.js';
export {
  AgentConnectorError,
  type AgentConnectorErrorCode,
  type AgentConnectorErrorDetails,
  DeliveryFailedError,
  NotImplementedError,
} from './contract/errors.js';
export {
  createDeliveryMeta,
  type DeliveryMetaInit,
  type DispatchOptions,
  type DispatchResult,
  dispatch,
  HOOK_WAKE_WARNING,
} from './dispatch.js';
export { AgentConnectorRegistry, type AgentConnectorRegistryOptions } from './registry.js';
export { agentConnectorSchemas } from './schemas.js';
export type { ManifestInfo } from './storage/conventions.js';
export {
  type DataStore,
  type DataStoreCapabilities,
  type DataStoreManifest,
  DataStoreQueryBridge,
  type DataStoreQueryBridgeOptions,
  type DataWrite,
  type DataWriteRecord,
  type PortableData,
  type QueryFilters,
} from './storage/data-store.js';
export { SkillNotFoundError, UnsupportedFilterError } from './storage/errors.js';
export type {
  SkillFilter,
  SkillMeta,
  SkillMetaInput,
  SkillSource,
  SkillStatus,
  SkillStore,
  SkillStoreCapabilities,
  SkillStoreManifest,
  VersionInfo,
} from './storage/skill-store.js';
export { storageConventions } from './storage/storage-conventions.js';
