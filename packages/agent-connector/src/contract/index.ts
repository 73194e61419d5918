export {
  type AgentConnector,
  type AgentConnectorClass,
  assertAgentConnector,
  isAgentConnector,
  REQUIRED_AGENT_CONNECTOR_METHODS,
  staticCapabilitiesOf,
} from './agent-connector.js';
export {
  AGENT_CAPABILITIES,
  AGENT_STATUSES,
  type AgentCapability,
  type AgentDescriptor,
  type AgentStatus,
  agentDescriptorListSchema,
  agentDescriptorSchema,
  agentStatusSchema,
  parseAgentDescriptors,
  parseAgentStatus,
} from './agent-descriptor.js';
export {
  type DeliveryMeta,
  type DeliveryOrigin,
  deliveryMetaSchema,
  deliveryOriginSchema,
  isKnownTriggerKind,
  type KnownTriggerKind,
  parseDeliveryMeta,
  TRIGGER_KINDS,
  type TriggerKind,
} from './delivery-meta.js';
export {
  type AugmentPayload,
  DELIVERY_KINDS,
  type DeliveryKind,
  type DeliveryPayload,
  deliveryPayloadSchema,
  parseDeliveryPayload,
  payloadText,
  type TemplatePayload,
} from './delivery-payload.js';
export { type DeliveryReceipt, deliveryReceiptSchema, parseDeliveryReceipt } from './delivery-receipt.js';
export {
  AgentConnectorError,
  type AgentConnectorErrorCode,
  type AgentConnectorErrorDetails,
  type AgentConnectorErrorOptions,
  type ContractValueType,
  DELIVERY_FAILURE_KINDS,
  DeliveryFailedError,
  type DeliveryFailureDetails,
  type DeliveryFailureKind,
  NotImplementedError,
} from './errors.js';
export {
  type AgentResponse,
  agentResponseSchema,
  parseAgentResponse,
  parseRequestResponseOpts,
  type RequestResponseOpts,
  requestResponseOptsSchema,
} from './request-response.js';
export {
  AGENT_CONNECTOR_CONTRACT_VERSION,
  AGENT_CONNECTOR_FEATURES,
  type AgentConnectorFeature,
  parseStaticCapabilities,
  type StaticCapabilities,
  staticCapabilitiesSchema,
} from './static-capabilities.js';
export {
  parseWakeOpts,
  parseWakeReceipt,
  type WakeOpts,
  type WakeReceipt,
  wakeOptsSchema,
  wakeReceiptSchema,
} from './wake.js';
