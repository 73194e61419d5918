import {
  agentDescriptorListSchema,
  agentDescriptorSchema,
  agentResponseSchema,
  agentStatusSchema,
  deliveryMetaSchema,
  deliveryPayloadSchema,
  deliveryReceiptSchema,
  requestResponseOptsSchema,
  staticCapabilitiesSchema,
  wakeOptsSchema,
  wakeReceiptSchema,
} from './contract/agent-connector.js';
import {
  dataStoreCapabilitiesSchema,
  dataStoreManifestInfoSchema,
  dataStoreManifestSchema,
  dataWriteRecordSchema,
  dataWriteSchema,
  portableDataSchema,
  queryFiltersSchema,
} from './storage/data-store.js';
import {
  skillFilterSchema,
  skillMetaInputSchema,
  skillMetaSchema,
  skillSourceSchema,
  skillStatusSchema,
  skillStoreCapabilitiesSchema,
  skillStoreManifestInfoSchema,
  skillStoreManifestSchema,
  versionInfoSchema,
} from './storage/skill-store.js';

/**
 * The zod 4 schemas of the contract, one per wire type, keyed by the type's name in camelCase
 * (`agentConnectorSchemas.deliveryReceipt` checks a `DeliveryReceipt`). They are the one source of each
 * type. To turn a value into a typed one with the package's error, call the codec rather than the schema:
 * `parseDeliveryReceipt(value)` and the other `parse*` functions for the agent side (they throw
 * `invalid_contract_value`), `storageConventions.parseStorageValue(agentConnectorSchemas.skillMeta, value)`
 * for the storage side (it throws `storage_validation`). Use the schemas directly to compose them into
 * your own schemas or to generate JSON Schema.
 *
 * Agent side: `agentDescriptor`, `agentDescriptorList`, `agentStatus`, `agentResponse`, `deliveryMeta`,
 * `deliveryPayload`, `deliveryReceipt`, `wakeOpts`, `wakeReceipt`, `requestResponseOpts`,
 * `staticCapabilities`. SkillStore: `skillMeta`, `skillMetaInput`, `skillSource`, `skillStatus`,
 * `skillFilter`, `versionInfo`, `skillStoreManifest`, `skillStoreManifestInfo`, `skillStoreCapabilities`.
 * DataStore: `portableData`, `queryFilters`, `dataWrite`, `dataWriteRecord`, `dataStoreManifest`,
 * `dataStoreManifestInfo`, `dataStoreCapabilities`.
 *
 * @example
 * ```ts
 * import { agentConnectorSchemas } from '@agentwire/agent-connector';
 *
 * const ok = agentConnectorSchemas.wakeReceipt.safeParse(answer).success;
 * ```
 */
export const agentConnectorSchemas = /* @__PURE__ */ Object.freeze({
  agentDescriptor: agentDescriptorSchema,
  agentDescriptorList: agentDescriptorListSchema,
  agentStatus: agentStatusSchema,
  agentResponse: agentResponseSchema,
  deliveryMeta: deliveryMetaSchema,
  deliveryPayload: deliveryPayloadSchema,
  deliveryReceipt: deliveryReceiptSchema,
  wakeOpts: wakeOptsSchema,
  wakeReceipt: wakeReceiptSchema,
  requestResponseOpts: requestResponseOptsSchema,
  staticCapabilities: staticCapabilitiesSchema,
  skillMeta: skillMetaSchema,
  skillMetaInput: skillMetaInputSchema,
  skillSource: skillSourceSchema,
  skillStatus: skillStatusSchema,
  skillFilter: skillFilterSchema,
  versionInfo: versionInfoSchema,
  skillStoreManifest: skillStoreManifestSchema,
  skillStoreManifestInfo: skillStoreManifestInfoSchema,
  skillStoreCapabilities: skillStoreCapabilitiesSchema,
  portableData: portableDataSchema,
  queryFilters: queryFiltersSchema,
  dataWrite: dataWriteSchema,
  dataWriteRecord: dataWriteRecordSchema,
  dataStoreManifest: dataStoreManifestSchema,
  dataStoreManifestInfo: dataStoreManifestInfoSchema,
  dataStoreCapabilities: dataStoreCapabilitiesSchema,
});
