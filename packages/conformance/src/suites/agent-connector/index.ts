export { type AgentConnectorSuiteOptions, agentConnectorSuite } from './agent-connector-suite.js';
export type {
  AgentConnectorContext,
  ConnectorFactoryResult,
  ConnectorUnderTest,
  ReceivedDelivery,
} from './connector-under-test.js';
export {
  createWebhookReceiverHarness,
  type RecordedWebhookRequest,
  type WebhookReceiverHarness,
  type WebhookReceiverHarnessOptions,
} from './webhook-receiver-harness.js';
