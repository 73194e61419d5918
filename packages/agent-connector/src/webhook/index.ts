export { type WebhookEnv, webhookOptionsFromEnv } from './from-env.js';
export {
  DEGRADED_WAKE_SKILL_NAME,
  HttpWebhookAgentConnector,
  MAX_RECEIPT_BYTES,
} from './http-webhook-agent-connector.js';
export {
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  type HttpWebhookAgentConfig,
  type HttpWebhookAgentConnectorOptions,
  type WebhookFetch,
  type WebhookRetryPolicy,
} from './options.js';
export { synthesizeDeliveryReceipt } from './receipt.js';
export { webhookDeliverBody, webhookSignature } from './wire.js';
