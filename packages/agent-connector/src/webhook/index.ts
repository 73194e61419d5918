export {
  HttpWebhookAgentConnector,
  MAX_RECEIPT_BYTES,
  webhookSignature,
} from './http-webhook-agent-connector.js';
export { type HttpWebhookAgentConnectorOptions, webhookOptionsFromEnv } from './options.js';
