import { AgentConnectorError } from '../contract/errors.js';

/** Where one agent's webhook lives. */
export interface HttpWebhookAgentConfig {
  /** `deliver()` POSTs here, verbatim (query string included). */
  readonly url: string;
  /** `wake()` POSTs here; without it, `wake()` degrades to a delivery to `url` with `woken: false`. */
  readonly wake_url?: string;
  /** `health_check()` GETs here and wants a 2xx. */
  readonly status_url?: string;
}

/** Opt-in retries of `deliver()` / `wake()` requests; each retry resends the very same bytes. */
export interface WebhookRetryPolicy {
  /** Total tries, first one included (an integer ≥ 1; `1` means no retry). */
  readonly attempts: number;
  /** Wait before the first retry, doubled before each further one; default 200 ms. */
  readonly initial_delay_ms?: number;
  /** Upper bound of one wait; default 5000 ms. */
  readonly max_delay_ms?: number;
}

/** The `fetch` the connector calls: the global one, or any function with its shape. */
export type WebhookFetch = (url: string, init: RequestInit) => Promise<Response>;

/** Options of `HttpWebhookAgentConnector`. */
export interface HttpWebhookAgentConnectorOptions {
  /** Agent id → endpoints. Key order is `list_agents()` order; ids are matched exactly. */
  readonly agents: Readonly<Record<string, HttpWebhookAgentConfig>>;
  /** Limit of each request, response body included (ms); default 5000. */
  readonly timeout_ms?: number;
  /** Full `Authorization` header value (`Bearer abc`), sent verbatim on every request — even `''`. */
  readonly authorization?: string;
  /** Signs every POST body: `X-Signature: sha256=<hex HMAC-SHA256>`. */
  readonly hmac_secret?: string;
  /** Retries of failed requests that `DeliveryFailedError.retryable` allows; default none. */
  readonly retry?: WebhookRetryPolicy;
  /** Default: the global `fetch`. */
  readonly fetch?: WebhookFetch;
  /** Clock for receipts (unix ms); default `Date.now`. */
  readonly now?: () => number;
  /** `dispatch_id` source for the delivery a degraded `wake()` makes; default `crypto.randomUUID()`. */
  readonly newDispatchId?: () => string;
}

/** {@link HttpWebhookAgentConnectorOptions} after validation, defaults applied. */
export interface ResolvedWebhookOptions {
  readonly agents: ReadonlyMap<string, HttpWebhookAgentConfig>;
  readonly timeout_ms: number;
  readonly authorization: string | undefined;
  readonly hmac_secret: string | undefined;
  readonly retry: Required<WebhookRetryPolicy>;
  readonly fetch: WebhookFetch;
  readonly now: () => number;
  readonly newDispatchId: () => string;
}

/** Default `timeout_ms`, as in the reference. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 5000;

/** Longest timer the runtimes honour (2^31 - 1 ms); a longer one would fire at once. */
const MAX_TIMEOUT_MS = 2_147_483_647;

const NO_RETRY: Required<WebhookRetryPolicy> = { attempts: 1, initial_delay_ms: 200, max_delay_ms: 5000 };

/**
 * Checks every agent entry: a config object with a non-empty string `url`, and `wake_url` / `status_url`
 * non-empty strings when present. `label` names the map in messages (`agents`, `HTTP_WEBHOOK_AGENTS`).
 *
 * @throws {AgentConnectorError} `invalid_webhook_config`: the first invalid entry, `path` = `label`.
 */
export function validateAgentEntries(
  agents: object,
  label: string,
): ReadonlyMap<string, HttpWebhookAgentConfig> {
  const checked = new Map<string, HttpWebhookAgentConfig>();
  for (const [agent_id, config] of Object.entries(agents)) {
    const at = `${label}["${agent_id}"]`;
    if (config === null || typeof config !== 'object' || Array.isArray(config)) {
      throw webhookConfigError(label, `${at}: must be a config object (got ${typeof config}).`);
    }
    const { url, wake_url, status_url } = config as Record<string, unknown>;
    if (typeof url !== 'string' || url === '') {
      throw webhookConfigError(label, `${at}: missing required "url" string field.`);
    }
    checked.set(agent_id, {
      url,
      ...optionalUrl(at, label, 'wake_url', wake_url),
      ...optionalUrl(at, label, 'status_url', status_url),
    });
  }
  return checked;
}

function optionalUrl(
  at: string,
  label: string,
  field: 'wake_url' | 'status_url',
  value: unknown,
): Partial<HttpWebhookAgentConfig> {
  if (value === undefined) return {};
  if (typeof value !== 'string' || value === '') {
    throw webhookConfigError(label, `${at}: "${field}" must be a non-empty string when present.`);
  }
  return { [field]: value };
}

/**
 * Validates constructor options and applies defaults.
 *
 * @throws {AgentConnectorError} `invalid_webhook_config`: naming the first invalid option.
 */
export function resolveWebhookOptions(options: HttpWebhookAgentConnectorOptions): ResolvedWebhookOptions {
  if (options === null || typeof options !== 'object') {
    throw webhookConfigError('options', 'HttpWebhookAgentConnector options must be an object.');
  }
  const { agents, timeout_ms, authorization, hmac_secret, retry, fetch, now, newDispatchId } = options;
  if (agents === null || typeof agents !== 'object' || Array.isArray(agents)) {
    throw webhookConfigError('agents', 'agents must be an object (map of agent_id → config).');
  }
  if (
    timeout_ms !== undefined &&
    !(typeof timeout_ms === 'number' && timeout_ms > 0 && timeout_ms <= MAX_TIMEOUT_MS)
  ) {
    throw webhookConfigError(
      'timeout_ms',
      `timeout_ms must be a positive number of at most ${MAX_TIMEOUT_MS} (got: ${String(timeout_ms)}).`,
    );
  }
  requireOptional('authorization', authorization, 'string');
  requireOptional('hmac_secret', hmac_secret, 'string');
  requireOptional('fetch', fetch, 'function');
  requireOptional('now', now, 'function');
  requireOptional('newDispatchId', newDispatchId, 'function');
  const globalFetch: unknown = globalThis.fetch;
  if (fetch === undefined && typeof globalFetch !== 'function') {
    throw webhookConfigError('fetch', 'no global fetch in this runtime: pass the fetch option.');
  }
  return {
    agents: validateAgentEntries(agents, 'agents'),
    timeout_ms: timeout_ms ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
    authorization,
    hmac_secret,
    retry: resolveRetry(retry),
    fetch: fetch ?? ((url, init) => globalThis.fetch(url, init)),
    now: now ?? Date.now,
    newDispatchId: newDispatchId ?? (() => globalThis.crypto.randomUUID()),
  };
}

function requireOptional(setting: string, value: unknown, type: 'string' | 'function'): void {
  if (value !== undefined && typeof value !== type) {
    throw webhookConfigError(setting, `${setting} must be a ${type} (got ${typeof value}).`);
  }
}

function resolveRetry(retry: WebhookRetryPolicy | undefined): Required<WebhookRetryPolicy> {
  if (retry === undefined) return NO_RETRY;
  if (retry === null || typeof retry !== 'object') {
    throw webhookConfigError(
      'retry',
      'retry must be an object ({ attempts, initial_delay_ms?, max_delay_ms? }).',
    );
  }
  const {
    attempts,
    initial_delay_ms = NO_RETRY.initial_delay_ms,
    max_delay_ms = NO_RETRY.max_delay_ms,
  } = retry;
  if (!Number.isSafeInteger(attempts) || attempts < 1) {
    throw webhookConfigError('retry', `retry.attempts must be an integer ≥ 1 (got: ${String(attempts)}).`);
  }
  for (const [name, value] of [
    ['initial_delay_ms', initial_delay_ms],
    ['max_delay_ms', max_delay_ms],
  ] as const) {
    if (!(typeof value === 'number' && value >= 0 && value < Infinity)) {
      throw webhookConfigError(
        'retry',
        `retry.${name} must be a non-negative number (got: ${String(value)}).`,
      );
    }
  }
  return { attempts, initial_delay_ms, max_delay_ms };
}

/**
 * The `invalid_webhook_config` error: `setting` (the error's `path`) is the option (`agents`, `timeout_ms`
 * …) or environment variable (`HTTP_WEBHOOK_AGENTS` …) at fault.
 */
export function webhookConfigError(setting: string, message: string, cause?: unknown): AgentConnectorError {
  return new AgentConnectorError('invalid_webhook_config', message, { path: setting, cause });
}

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
