import {
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  type HttpWebhookAgentConnectorOptions,
  validateAgentEntries,
  webhookConfigError,
} from './options.js';

/** The environment `fromEnv()` reads: variable name → value. */
export type WebhookEnv = Readonly<Record<string, string | undefined>>;

/**
 * The connector options the reference reads from the environment, validated with its messages:
 * - `HTTP_WEBHOOK_AGENTS` (required, non-empty): a JSON object of agent id → `{ url, wake_url?, status_url? }`,
 *   each `url` a non-empty string (`wake_url` / `status_url`, when present, too — the reference does not check
 *   them);
 * - `HTTP_WEBHOOK_TIMEOUT_MS`: read like `parseInt(value, 10)` (`'12abc'` → 12, `'1.9'` → 1) and > 0;
 *   default 5000;
 * - `HTTP_WEBHOOK_AUTH`, `HTTP_WEBHOOK_HMAC_SECRET`: ignored when empty.
 *
 * @throws {AgentConnectorError} `invalid_webhook_config`: `path` names the variable.
 */
export function webhookOptionsFromEnv(env: WebhookEnv): HttpWebhookAgentConnectorOptions {
  const raw = env.HTTP_WEBHOOK_AGENTS;
  if (raw === undefined || raw === '') {
    throw webhookConfigError(
      'HTTP_WEBHOOK_AGENTS',
      'HTTP_WEBHOOK_AGENTS env var is required (JSON map of agent_id → config).',
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    // V8 quotes a piece of the text (`…"e/p","n":tx}}" is not valid JSON`), which may hold a URL's
    // password: keep its words, never the excerpt, in the message and the cause.
    const detail = (error instanceof Error ? error.message : String(error)).replace(
      /, (?:\.\.\.)?".*" is not valid JSON$/s,
      '',
    );
    throw webhookConfigError(
      'HTTP_WEBHOOK_AGENTS',
      `HTTP_WEBHOOK_AGENTS must be valid JSON: ${detail}`,
      new SyntaxError(detail),
    );
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw webhookConfigError(
      'HTTP_WEBHOOK_AGENTS',
      'HTTP_WEBHOOK_AGENTS must be a JSON object (map of agent_id → config).',
    );
  }
  const agents = Object.fromEntries(validateAgentEntries(parsed, 'HTTP_WEBHOOK_AGENTS'));

  const rawTimeout = env.HTTP_WEBHOOK_TIMEOUT_MS;
  const timeout_ms = rawTimeout === undefined ? DEFAULT_WEBHOOK_TIMEOUT_MS : Number.parseInt(rawTimeout, 10);
  if (Number.isNaN(timeout_ms) || timeout_ms <= 0) {
    throw webhookConfigError(
      'HTTP_WEBHOOK_TIMEOUT_MS',
      `HTTP_WEBHOOK_TIMEOUT_MS must be a positive integer (got: "${rawTimeout}").`,
    );
  }
  const authorization = env.HTTP_WEBHOOK_AUTH;
  const hmac_secret = env.HTTP_WEBHOOK_HMAC_SECRET;
  return {
    agents,
    timeout_ms,
    ...(authorization !== undefined && authorization !== '' ? { authorization } : {}),
    ...(hmac_secret !== undefined && hmac_secret !== '' ? { hmac_secret } : {}),
  };
}
