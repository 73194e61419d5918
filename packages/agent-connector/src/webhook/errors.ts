import { AgentConnectorError } from '../contract/errors.js';

/**
 * The configuration of an `HttpWebhookAgentConnector` is invalid: a constructor option, or an
 * `HTTP_WEBHOOK_*` environment variable read by `fromEnv()`. `setting` names the option or variable;
 * messages for environment variables are the reference connector's, word for word.
 */
export class WebhookConfigError extends AgentConnectorError {
  override readonly name = 'WebhookConfigError';
  readonly code = 'invalid_webhook_config';
  /** The option (`agents`, `timeout_ms` …) or environment variable (`HTTP_WEBHOOK_AGENTS` …) at fault. */
  readonly setting: string;

  constructor(setting: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.setting = setting;
  }
}
