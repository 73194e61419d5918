export {
  DEGRADED_WAKE_SKILL_NAME,
  HttpWebhookAgentConnector,
  MAX_RECEIPT_BYTES,
  synthesizeDeliveryReceipt,
  webhookDeliverBody,
  webhookSignature,
} from './http-webhook-agent-connector.js';
export {
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  type HttpWebhookAgentConfig,
  type HttpWebhookAgentConnectorOptions,
  type WebhookEnv,
  type WebhookFetch,
  type WebhookRetryPolicy,
  webhookOptionsFromEnv,
} from './options.js';
