import { describeType, messageOf, messageWithCause } from '@agentwire/internal';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { parseAgentAddress, resolveSessionId } from '../address.js';
import {
  AGENT_CONNECTOR_CONTRACT_VERSION,
  type AgentConnector,
  type AgentDescriptor,
  type AgentResponse,
  type DeliveryPayload,
  type DeliveryReceipt,
  parseDeliveryPayload,
  parseWakeOpts,
  type StaticCapabilities,
  type WakeOpts,
  type WakeReceipt,
} from '../contract/agent-connector.js';
import { AgentConnectorError, DeliveryFailedError, NotImplementedError } from '../contract/errors.js';
import { createDeliveryMeta } from '../dispatch.js';
import {
  type HttpWebhookAgentConnectorOptions,
  type ResolvedWebhookOptions,
  resolveWebhookOptions,
  type WebhookEnv,
  type WebhookFetch,
  webhookOptionsFromEnv,
} from './options.js';

/** `origin.skill_name` of the delivery a degraded `wake()` makes (wake-class dispatches carry no meta). */
export const DEGRADED_WAKE_SKILL_NAME = '(wake)';

/**
 * Delivers to agents behind HTTP webhooks — the reference `HttpWebhookAgentConnector`, with the contract's
 * semantics where the two differ (ARCHITECTURE decision 6).
 *
 * Kept byte-identical to the reference: the deliver request (`POST url`, body `{ agent_id, ...payload }`,
 * `Content-Type: application/json`, `Authorization` verbatim, `X-Signature: sha256=<hex HMAC of the body>`),
 * the status rule for answers other than redirects (≥ 400 fails, anything else succeeds), the receipt
 * synthesis (see `synthesizeDeliveryReceipt`), the `fromEnv()` variables and messages, exact-id lookup
 * in `deliver()`, `list_agents()` from the configuration, `health_check()` over the `status_url`s.
 *
 * Following the contract instead: receipts keep the receiver's `session_id` / `warnings`; `wake()` without a
 * `wake_url` delivers `opts.context` and returns `woken: false`; every fault throws `DeliveryFailedError`;
 * `wake()` resolves the session (`opts.session_id` wins over `agent@session`), sends it and echoes it; every
 * request carries `Authorization`, every POST `X-Signature`; `request_response()` throws
 * `NotImplementedError`. Retries are opt-in.
 *
 * Safer than the reference, which lets `fetch` follow every redirect: a 307 / 308 is followed only to the
 * same origin (scheme, host, port), at most 5 times in a row, resending the same method, headers and body;
 * any other 3xx fails the request (`http_status`, not retryable), so the body, `X-Signature` and
 * `Authorization` never reach another origin and a 301 / 302 / 303 cannot turn a delivery into a body-less
 * GET. Credentials in a URL (`https://user:pass@host/…`) show as `https://***@host/…` in every message and
 * `cause`.
 *
 * @example
 * const connector = new HttpWebhookAgentConnector({
 *   agents: { perry: { url: 'https://agents.example/perry', wake_url: 'https://agents.example/perry/wake' } },
 *   authorization: 'Bearer abc',
 *   hmac_secret: 's3cret',
 *   retry: { attempts: 3 },
 * });
 * const receipt = await connector.deliver('perry', { kind: 'augment', content: 'build failed', meta });
 */
export class HttpWebhookAgentConnector implements AgentConnector {
  readonly #options: ResolvedWebhookOptions;

  /** @throws {AgentConnectorError} `invalid_webhook_config`: an invalid option. */
  constructor(options: HttpWebhookAgentConnectorOptions) {
    this.#options = resolveWebhookOptions(options);
  }

  /**
   * Builds a connector from `HTTP_WEBHOOK_AGENTS`, `HTTP_WEBHOOK_TIMEOUT_MS`, `HTTP_WEBHOOK_AUTH` and
   * `HTTP_WEBHOOK_HMAC_SECRET` (see {@link webhookOptionsFromEnv}); `extra` adds the options the
   * environment does not carry. `env` defaults to `process.env` where there is one.
   *
   * @throws {AgentConnectorError} `invalid_webhook_config`: naming the variable, with the reference's
   *   message.
   * @example
   * const connector = HttpWebhookAgentConnector.fromEnv(process.env, { retry: { attempts: 3 } });
   */
  static fromEnv(
    env: WebhookEnv = processEnv(),
    extra: Omit<
      HttpWebhookAgentConnectorOptions,
      'agents' | 'timeout_ms' | 'authorization' | 'hmac_secret'
    > = {},
  ): HttpWebhookAgentConnector {
    return new HttpWebhookAgentConnector({ ...extra, ...webhookOptionsFromEnv(env) });
  }

  /** `deliver`, `wake`, `list_agents`, `health_check`; no `agent_status`, no `request_response`. */
  static staticCapabilities(): StaticCapabilities {
    return {
      connector_type: 'agent_connector',
      implementation: 'HttpWebhookAgentConnector',
      contract_version: AGENT_CONNECTOR_CONTRACT_VERSION,
      features: { deliver: true, wake: true, list_agents: true, health_check: true },
    };
  }

  /** The configured agent ids, in configuration order; no network. */
  async list_agents(): Promise<readonly AgentDescriptor[]> {
    return [...this.#options.agents.keys()].map((agent_id) => ({ agent_id }));
  }

  /**
   * POSTs `{ agent_id, ...payload }` to the agent's `url` and synthesizes the receipt from the answer.
   * `agent_id` must be configured exactly as given (`alice@kitchen` is not `alice`).
   *
   * @throws {DeliveryFailedError} `client_validation` (unknown agent — nothing sent; a payload JSON cannot
   *   carry), `timeout`, `network` (fetch rejected), `http_status` (status ≥ 400, or a 3xx not followed —
   *   never retried), `malformed_response` (an opaque redirect) — after the configured retries, each
   *   resending the same bytes.
   * @throws {AgentConnectorError} `invalid_agent_address`: `agent_id` is not a string.
   * @throws {AgentConnectorError} `invalid_contract_value`: `payload` is not a valid `DeliveryPayload`.
   */
  async deliver(agent_id: string, payload: DeliveryPayload): Promise<DeliveryReceipt> {
    if (typeof agent_id !== 'string') {
      throw new AgentConnectorError(
        'invalid_agent_address',
        `agent_id must be a string, got ${describeType(agent_id)}`,
        {
          path: 'agent_id',
        },
      );
    }
    parseDeliveryPayload(payload);
    const config = this.#options.agents.get(agent_id);
    if (config === undefined) {
      throw new DeliveryFailedError(
        `Agent '${agent_id}' is not configured. Wired agents: ${this.#wired()}.`,
        {
          agent_id,
          cause_kind: 'client_validation',
        },
      );
    }
    return this.#deliverBody(
      agent_id,
      config.url,
      encodeBody(agent_id, () => webhookDeliverBody(agent_id, payload)),
    );
  }

  /**
   * Rouses the agent. The agent is the configured id equal to `agent_id`, else to its part before the first
   * `@`; the session is `resolveSessionId(agent_id, opts)` and is echoed on the receipt.
   * - With a `wake_url`: POSTs `{ agent_id, session_id?, context?, when? }` there → `woken: true`.
   * - Without one: delivers `opts.context` to `url` as an `augment` payload (fresh meta, `origin.skill_name`
   *   `'(wake)'`, plus `session_id` after the payload keys) → `woken: false`, the delivery's `session_id` /
   *   `warnings` kept; with no context, nothing is sent (a warning says so).
   *
   * @throws {DeliveryFailedError} unknown agent (`client_validation`), `timeout`, `network`, `http_status`
   *   (as `deliver()`, redirects included), `malformed_response`.
   * @throws {AgentConnectorError} `invalid_agent_address`: `agent_id` is not a string.
   * @throws {AgentConnectorError} `invalid_contract_value`: `opts` is not a valid `WakeOpts`.
   */
  async wake(agent_id: string, opts?: WakeOpts): Promise<WakeReceipt> {
    const { agent } = parseAgentAddress(agent_id);
    const wakeOpts = parseWakeOpts(opts);
    const config = this.#options.agents.get(agent_id) ?? this.#options.agents.get(agent);
    if (config === undefined) {
      throw new DeliveryFailedError(
        `wake('${agent_id}'): agent not configured. Wired agents: ${this.#wired()}.`,
        { agent_id, cause_kind: 'client_validation' },
      );
    }
    const session_id = resolveSessionId(agent_id, wakeOpts);
    const session = session_id === undefined ? {} : { session_id };
    if (config.wake_url !== undefined) {
      const { context, when } = wakeOpts;
      const body = encodeBody(agent_id, () =>
        JSON.stringify({
          agent_id,
          ...session,
          ...(context === undefined ? {} : { context }),
          ...(when === undefined ? {} : { when }),
        }),
      );
      discardBody(await this.#postWithRetries(agent_id, config.wake_url, body, `wake('${agent_id}')`));
      return { woken_at: this.#options.now(), woken: true, ...session };
    }
    if (wakeOpts.context === undefined || wakeOpts.context === '') {
      return {
        woken_at: this.#options.now(),
        woken: false,
        ...session,
        warnings: ['no wake_url configured and no context given: nothing delivered'],
      };
    }
    const meta = createDeliveryMeta(
      { skill_name: DEGRADED_WAKE_SKILL_NAME },
      { now: this.#options.now, newDispatchId: this.#options.newDispatchId },
    );
    const payload = { kind: 'augment', content: wakeOpts.context, meta, ...session };
    const receipt = await this.#deliverBody(agent_id, config.url, webhookDeliverBody(agent_id, payload));
    const receivedSession = receipt.session_id ?? session_id;
    return {
      woken_at: receipt.delivered_at,
      woken: false,
      ...(receivedSession === undefined ? {} : { session_id: receivedSession }),
      warnings: ['no wake_url configured: context delivered instead', ...(receipt.warnings ?? [])],
    };
  }

  /**
   * `true` when every configured `status_url` answers a GET (with `Authorization`) with a 2xx within the
   * timeout, or when none is configured (no request then); `false` on any other status or failure. Redirects
   * are followed as for `deliver()`; one that is not followed gives `false`.
   */
  async health_check(): Promise<boolean> {
    const urls = [...this.#options.agents.values()]
      .map((config) => config.status_url)
      .filter((url): url is string => url !== undefined);
    const probes = urls.map(async (url) => {
      const followed = await fetchSameOrigin(this.#options.fetch, url, {
        method: 'GET',
        headers: this.#authHeaders(),
        signal: AbortSignal.timeout(this.#options.timeout_ms),
      });
      if ('refused' in followed) return false;
      discardBody(followed.response);
      return followed.response.status >= 200 && followed.response.status < 300;
    });
    try {
      return (await Promise.all(probes)).every(Boolean);
    } catch {
      return false;
    }
  }

  /** @throws {NotImplementedError} always: waits for the runtime's `exchange()` op. */
  async request_response(): Promise<AgentResponse> {
    throw new NotImplementedError('request_response', 'HttpWebhookAgentConnector');
  }

  async #deliverBody(agent_id: string, url: string, body: string): Promise<DeliveryReceipt> {
    const response = await this.#postWithRetries(agent_id, url, body);
    // An unreadable or oversized body after a success status still counts as delivered (as an
    // unreadable one does in the reference), with a receipt of its own.
    const text = (await readReceiptText(response).catch(() => undefined)) ?? '';
    return synthesizeDeliveryReceipt(text, this.#options.now());
  }

  async #postWithRetries(agent_id: string, url: string, body: string, label?: string): Promise<Response> {
    const { attempts, initial_delay_ms, max_delay_ms } = this.#options.retry;
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.#post(agent_id, url, body, label);
      } catch (error) {
        if (attempt >= attempts || !(error instanceof DeliveryFailedError) || !error.retryable) throw error;
        await sleep(Math.min(max_delay_ms, initial_delay_ms * 2 ** (attempt - 1)));
      }
    }
  }

  /**
   * One request, redirects included (see {@link fetchSameOrigin}), within one `timeout_ms`. A status ≥ 400
   * is worded as the reference's deliver does, `HTTP <status> from <url>`, or with `label` as its wake does,
   * `<label>: HTTP <status>`; a redirect not followed is prefixed with `<label>: `.
   */
  async #post(agent_id: string, url: string, body: string, label?: string): Promise<Response> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', ...this.#authHeaders() };
    if (this.#options.hmac_secret !== undefined) {
      headers['X-Signature'] = webhookSignature(this.#options.hmac_secret, body);
    }
    let followed: Followed;
    try {
      followed = await fetchSameOrigin(this.#options.fetch, url, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(this.#options.timeout_ms),
      });
    } catch (error) {
      const cause_kind = isTimeout(error) ? 'timeout' : 'network';
      throw new DeliveryFailedError(
        `${cause_kind} error posting to ${redactUrl(url)}: ${messageWithCause(error)}`,
        {
          agent_id,
          cause_kind,
          cause: error,
        },
      );
    }
    if ('refused' in followed) {
      const { refused, status } = followed;
      throw new DeliveryFailedError(label === undefined ? refused : `${label}: ${refused}`, {
        agent_id,
        cause_kind: status === null ? 'malformed_response' : 'http_status',
        http_status: status,
      });
    }
    const { response } = followed;
    if (response.status >= 400) {
      discardBody(response);
      const words =
        label === undefined
          ? `HTTP ${response.status} from ${redactUrl(followed.url)}`
          : `${label}: HTTP ${response.status}`;
      throw new DeliveryFailedError(words, {
        agent_id,
        cause_kind: 'http_status',
        http_status: response.status,
      });
    }
    return response;
  }

  #authHeaders(): Record<string, string> {
    const { authorization } = this.#options;
    return authorization === undefined ? {} : { Authorization: authorization };
  }

  #wired(): string {
    return [...this.#options.agents.keys()].join(', ') || '(none)';
  }
}

/** Serialises a request body; a payload JSON cannot carry fails as `client_validation`, nothing sent. */
function encodeBody(agent_id: string, serialise: () => string): string {
  try {
    return serialise();
  } catch (error) {
    throw new DeliveryFailedError(`cannot serialise the request body: ${messageOf(error)}`, {
      agent_id,
      cause_kind: 'client_validation',
      cause: error,
    });
  }
}

function isTimeout(error: unknown): boolean {
  const name = (error as { readonly name?: unknown } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

/** The most bytes of an agent's answer read for its receipt; a longer answer is not read further. */
export const MAX_RECEIPT_BYTES = 1024 * 1024;

/** The answer's text, or `undefined` when it is longer than {@link MAX_RECEIPT_BYTES} (the rest is cancelled). */
async function readReceiptText(response: Response): Promise<string | undefined> {
  if (response.body === null) return '';
  const declared = Number(response.headers.get('Content-Length') ?? '0');
  if (declared > MAX_RECEIPT_BYTES) {
    discardBody(response);
    return undefined;
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    total += value.byteLength;
    if (total > MAX_RECEIPT_BYTES) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** Releases an unread body without waiting for it (a tee'd body would wait for its other branch). */
function discardBody(response: Response): void {
  response.body?.cancel().catch(() => undefined);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function processEnv(): WebhookEnv {
  const env = (globalThis as { readonly process?: { readonly env?: WebhookEnv } }).process?.env;
  return env ?? {};
}

const utf8 = new TextEncoder();

/**
 * The exact body the reference webhook POSTs for `deliver(agent_id, payload)`: `JSON.stringify` of
 * `{ agent_id, ...payload }` — `agent_id` first, then the payload's own keys in their own order (a payload
 * key named `agent_id` overrides the first one in place), non-ASCII written raw, absent fields omitted.
 * Receivers verify `X-Signature` over these bytes, so they must not change.
 *
 * @throws {TypeError} the payload holds something JSON cannot carry (a `bigint`, a cycle).
 * @example
 * webhookDeliverBody('perry', { kind: 'augment', content: 'hi', meta });
 * // '{"agent_id":"perry","kind":"augment","content":"hi","meta":{…}}'
 */
export function webhookDeliverBody(agent_id: string, payload: object): string {
  return JSON.stringify({ agent_id, ...payload });
}

/**
 * The `X-Signature` header value for a request body: `sha256=` and the lowercase hex HMAC-SHA256 of the
 * body's UTF-8 bytes, keyed with the secret's UTF-8 bytes (lone surrogates become U+FFFD in both, as
 * when the body is sent).
 *
 * @example
 * webhookSignature('s3cret', body); // 'sha256=5f0c…'
 */
export function webhookSignature(secret: string, body: string): string {
  return `sha256=${bytesToHex(hmac(sha256, utf8.encode(secret), utf8.encode(body)))}`;
}

/**
 * Turns a webhook receiver's response body (read as text) into a {@link DeliveryReceipt}, tolerating any
 * shape, as the reference connector does:
 * - empty or non-JSON text counts as `{}`; JSON that is not an object (a number, a string, `null`) gives
 *   `{ delivered_at: now }`; arrays count as objects without fields;
 * - `delivered_at`: the body's, when it is a finite non-negative number, else `now` (the reference keeps
 *   any number; negatives and `1e400` would break the receipt contract);
 * - `delivery_id`: the first of `delivery_id`, `id`, `ts` that is neither `null` nor absent, kept only if it
 *   is a string (`{ delivery_id: 7, id: 'B' }` gives none);
 * - `delivery_skipped`: only for a literal `true`;
 * - `session_id` (a non-empty string) and `warnings` (an array of strings) are kept — the reference drops
 *   them; the contract asks for them.
 *
 * @example
 * synthesizeDeliveryReceipt('{"id":"m-1","session_id":"tab-3"}', 1767225600000);
 * // { delivered_at: 1767225600000, delivery_id: 'm-1', session_id: 'tab-3' }
 */
export function synthesizeDeliveryReceipt(body_text: string, now: number): DeliveryReceipt {
  const body = parseBody(body_text);
  if (body === null || typeof body !== 'object') return { delivered_at: now };
  const fields = body as Record<string, unknown>;
  const delivered_at = fields.delivered_at;
  const delivery_id = fields.delivery_id ?? fields.id ?? fields.ts;
  const { session_id, warnings } = fields;
  return {
    delivered_at: isTimestamp(delivered_at) ? delivered_at : now,
    ...(typeof delivery_id === 'string' ? { delivery_id } : {}),
    ...(typeof session_id === 'string' && session_id !== '' ? { session_id } : {}),
    ...(fields.delivery_skipped === true ? { delivery_skipped: true } : {}),
    ...(isStringArray(warnings) ? { warnings: [...warnings] } : {}),
  };
}

function parseBody(text: string): unknown {
  if (text.length === 0) return {};
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

function isTimestamp(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function isStringArray(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** The most redirects one request follows; the next one fails it. */
export const MAX_REDIRECTS = 5;

/** What {@link fetchSameOrigin} ends with: the final answer, or the redirect it did not follow. */
export type Followed =
  | { readonly response: Response; readonly url: string }
  | { readonly refused: string; readonly status: number | null };

/**
 * Sends `init` to `url` with `redirect: 'manual'`, following a 307 / 308 only when its `Location`,
 * resolved against the request URL, has the same origin (scheme, host, port): the same method, headers
 * and body go there, at most {@link MAX_REDIRECTS} times. Any other 3xx — another origin, a 301 / 302 / 303
 * (`fetch` would resend it as a GET without the body), a missing or invalid `Location`, one hop too many,
 * an opaque redirect — is returned as `refused` (its words name the status and the redacted URLs) with its
 * body cancelled: nothing ever reaches another origin. A rejection of `fetch` is rethrown through
 * {@link redactError}; `url` in the result is the URL that gave the final answer.
 */
export async function fetchSameOrigin(
  fetch: WebhookFetch,
  url: string,
  init: RequestInit,
): Promise<Followed> {
  for (let hops = 0; ; hops += 1) {
    let response: Response;
    try {
      response = await fetch(url, { ...init, redirect: 'manual' });
    } catch (error) {
      throw redactError(error, url);
    }
    const { status } = response;
    const opaque = response.type === 'opaqueredirect';
    if (!opaque && (status < 300 || status > 399)) return { response, url };
    response.body?.cancel().catch(() => undefined);
    if (opaque) {
      return {
        refused: `opaque redirect from ${redactUrl(url)} not followed (this fetch hides its Location)`,
        status: null,
      };
    }
    const from = `HTTP ${status} from ${redactUrl(url)}`;
    const location = response.headers.get('Location');
    if (location === null) return { refused: `${from}: redirect without a Location`, status };
    const target = resolve(location, url);
    const refuse = (why: string) => ({
      refused: `${from}: redirect to ${redactUrl(target ?? location)} not followed (${why})`,
      status,
    });
    if (target === undefined) return refuse('not a URL');
    if (status !== 307 && status !== 308) return refuse('only 307 and 308 keep the method and body');
    const origin = originOf(target);
    if (origin === undefined || origin !== originOf(url)) return refuse('another origin');
    if (hops >= MAX_REDIRECTS) return refuse(`more than ${MAX_REDIRECTS} redirects`);
    url = target;
  }
}

/**
 * `url` as messages show it: verbatim when it carries no credentials; otherwise with its `user:password@`
 * (or `user@`) part replaced by `***@` — `https://***@agents.example/perry`. A string that does not parse
 * as a URL loses everything between its scheme and its last `@`.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.replace(/^([a-z][a-z\d+.-]*:[/\\]*)?.*@/is, '$1***@');
  }
  if (parsed.username === '' && parsed.password === '') return url;
  parsed.username = '***';
  parsed.password = '';
  return parsed.href;
}

/** A `scheme://userinfo@` in free text; the userinfo runs to the last `@` before the path. */
const USERINFO_IN_TEXT = /\b([a-z][a-z\d+.-]*:\/\/)[^\s/\\?#]*@/gi;

/** `text` with `url` (as given or as parsed) redacted, and the credentials of any other URL in it masked. */
function redactText(text: string, url: string): string {
  const masked = redactUrl(url);
  let out = text;
  if (masked !== url) {
    const href = resolve(url, undefined);
    for (const form of href === undefined ? [url] : [url, href]) out = out.split(form).join(masked);
  }
  return out.replace(USERINFO_IN_TEXT, '$1***@');
}

/**
 * `error` itself when `url` carries no credentials. Otherwise a stand-in `Error` with the same `name`,
 * `code`, message and stack, redacted, and a redacted stand-in for each of (up to five) causes: a fetch
 * rejection may quote the URL it was given (undici: `Request cannot be constructed from a URL that includes
 * credentials: …`, `Failed to parse URL from …` with the URL as the cause's `input`).
 */
function redactError(error: unknown, url: string, depth = 0): unknown {
  if (redactUrl(url) === url) return error;
  if (!(error instanceof Error)) return redactText(String(error), url);
  const cause =
    error.cause === undefined || depth >= 4 ? undefined : redactError(error.cause, url, depth + 1);
  const copy = new Error(redactText(error.message, url), cause === undefined ? undefined : { cause });
  copy.name = error.name;
  copy.stack = redactText(error.stack ?? `${error.name}: ${error.message}`, url);
  const { code } = error as { readonly code?: unknown };
  return typeof code === 'string' ? Object.assign(copy, { code }) : copy;
}

function resolve(location: string, base: string | undefined): string | undefined {
  try {
    return new URL(location, base).href;
  } catch {
    return undefined;
  }
}

/** The URL's origin; `undefined` for an opaque one (`null`), which is never the same as another. */
function originOf(url: string): string | undefined {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}
