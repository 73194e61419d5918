import { RelayError, type RelayErrorCode } from '../errors.js';
import type { PassthroughForward } from '../frames/frames.js';
import { encodePassthroughBody } from '../passthrough.js';
import { SESSION_KEY_DIALECTS, type SessionKeyDialect } from '../session-key.js';
import type { CapabilityBinding } from '../vault.js';
import type { ProvisionRegistry } from './enrollment-stores.js';
import {
  answeringEdgeErrors,
  type EdgeHandler,
  edgeMethodNotAllowed,
  jsonResponse,
  readBodyWithLimit,
} from './http.js';
import { sanitiseDiscordInteraction, sanitiseWeComMessage } from './sanitisers.js';
import {
  type DiscordInteraction,
  type EdgeRequest,
  type VerifiedTwilioWebhook,
  verifyDiscordInteraction,
  verifyTwilioWebhook,
} from './verifiers.js';
import { verifyWeComCallback, type WeComCryptoOptions } from './verifiers-wecom.js';

/** The request as the verifiers take it: its body read whole, refused past `maxBytes` (413). */
export async function readEdgeRequest(request: Request, maxBytes: number): Promise<EdgeRequest> {
  const body = await readBodyWithLimit(request, maxBytes);
  return { method: request.method, url: request.url, headers: request.headers, body };
}

/** The path and query of a request URL, as the provider called it. */
export function pathAndQuery(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

/**
 * The headers a forward carries: `content-type` (the forwarded body's), then those of `names` the
 * request has, lower-case, in that order. An allow-list on purpose: signature headers (which sign
 * bytes the gateway no longer gets, and would let it replay the request to the edge),
 * `Authorization` (Twilio's basic-auth webhook credentials), cookies and whatever a proxy in front
 * adds never leave the edge.
 */
export function forwardHeaders(
  headers: Headers,
  contentType: string,
  names: readonly string[],
): [string, string][] {
  const forwarded: [string, string][] = [['content-type', contentType]];
  for (const name of names) {
    const value = headers.get(name);
    if (value !== null) forwarded.push([name, value]);
  }
  return forwarded;
}

/** The largest webhook body an edge handler reads by default: 1 MiB. */
export const DEFAULT_WEBHOOK_MAX_BODY_BYTES = 1024 * 1024;

/** How long the provider's answer waits for the forward to be stored, by default: 2 s. */
export const DEFAULT_HANDOFF_TIMEOUT_MS = 2000;

/** Options every passthrough edge handler takes. */
export interface PassthroughHandlerOptions {
  /** Maps the event's route keys to its tenant; see {@link TenantResolver} and `tenantResolverFromRegistry`. */
  readonly tenantOf: TenantResolver;
  /** Where forwards and credential bindings go: a `RelayServer`, or anything with its two methods. */
  readonly server: PassthroughRelay;
  /** The `forward.profile` for a tenant (newer gateways route it to that Hermes profile). Default none. */
  readonly profileOf?: (tenant: string) => string | null | undefined | Promise<string | null | undefined>;
  /** The largest body read (413 above it); default 1 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * How long the answer waits for the bindings and the forward to be stored before it is sent
   * anyway (the provider's window is short: 3 s for Discord); default 2000 ms.
   * A store failing within it is answered 500; later, it goes to `onError`.
   */
  readonly handoffTimeoutMs?: number;
  /** Receives a failure to store a forward that was already answered. Default: nothing is reported. */
  readonly onError?: (error: unknown) => void;
  /** The clock, in milliseconds since the epoch, for signature timestamps. Default `Date.now`. */
  readonly now?: () => number;
}

/** {@link PassthroughHandlerOptions}, checked, with defaults filled in. */
export interface PassthroughHandlerSettings {
  readonly tenantOf: TenantResolver;
  readonly server: PassthroughRelay;
  readonly profileOf: (tenant: string) => Promise<string | null>;
  readonly maxBodyBytes: number;
  readonly handoffTimeoutMs: number;
  readonly onError: (error: unknown) => void;
  readonly now: () => number;
}

/** Checks the common options. @throws {RelayError} `edge_passthrough_invalid_argument` */
export function passthroughHandlerSettings(options: PassthroughHandlerOptions): PassthroughHandlerSettings {
  if (typeof options !== 'object' || options === null) {
    throw new RelayError('edge_passthrough_invalid_argument', 'options must be an object', {
      path: 'options',
    });
  }
  const { tenantOf, server, profileOf, onError, now } = options;
  if (typeof tenantOf !== 'function') {
    throw new RelayError('edge_passthrough_invalid_argument', 'tenantOf must be a function', {
      path: 'options.tenantOf',
    });
  }
  const relay = server as Partial<PassthroughRelay> | null | undefined;
  if (
    typeof relay !== 'object' ||
    relay === null ||
    typeof relay.forwardPassthrough !== 'function' ||
    typeof relay.bindCapability !== 'function'
  ) {
    throw new RelayError(
      'edge_passthrough_invalid_argument',
      'server must have forwardPassthrough and bindCapability methods (a RelayServer)',
      { path: 'options.server' },
    );
  }
  for (const [name, value] of [
    ['profileOf', profileOf],
    ['onError', onError],
    ['now', now],
  ] as const) {
    if (value !== undefined && typeof value !== 'function') {
      throw new RelayError('edge_passthrough_invalid_argument', `${name} must be a function`, {
        path: `options.${name}`,
      });
    }
  }
  return {
    tenantOf,
    server,
    profileOf: async (tenant) => checkedProfile(await profileOf?.(tenant)),
    maxBodyBytes: positiveInteger(options.maxBodyBytes, DEFAULT_WEBHOOK_MAX_BODY_BYTES, 'maxBodyBytes'),
    handoffTimeoutMs: positiveInteger(
      options.handoffTimeoutMs,
      DEFAULT_HANDOFF_TIMEOUT_MS,
      'handoffTimeoutMs',
    ),
    onError: (error) => {
      try {
        onError?.(error);
      } catch {
        // A failing reporter must not break the handler.
      }
    },
    now: now ?? Date.now,
  };
}

/** Checks a non-empty string option. @throws {RelayError} `edge_passthrough_invalid_argument` */
export function requiredString(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '') {
    throw new RelayError('edge_passthrough_invalid_argument', `${name} must be a non-empty string`, {
      path: `options.${name}`,
    });
  }
  return value;
}

/** Checks an optional string option. @throws {RelayError} `edge_passthrough_invalid_argument` */
export function optionalString(value: unknown, name: string): string | undefined {
  if (value !== undefined && typeof value !== 'string') {
    throw new RelayError('edge_passthrough_invalid_argument', `${name} must be a string`, {
      path: `options.${name}`,
    });
  }
  return value;
}

/**
 * The codes a webhook verifier refuses a request with: the request is not a webhook of the provider.
 * Its `invalid_argument` (an unusable option) is a fault of this side instead.
 */
const VERIFIER_REFUSALS: ReadonlySet<RelayErrorCode> = new Set<RelayErrorCode>([
  'malformed_request',
  'missing_signature',
  'malformed_signature',
  'bad_signature',
  'missing_timestamp',
  'malformed_timestamp',
  'stale_timestamp',
  'body_hash_mismatch',
  'malformed_body',
  'decrypt_failed',
  'corp_id_mismatch',
]);

/**
 * Runs a verifier, turning a refusal into `edge_webhook_unauthorized` (401 `unauthorized`, with a
 * message that names the provider and nothing of why; the verifier's error is the `cause`). An
 * unusable option (`invalid_argument`) is a fault of this side and is rethrown as it is.
 */
export function verified<T>(provider: string, verify: () => T): T {
  try {
    return verify();
  } catch (error) {
    if (error instanceof RelayError && VERIFIER_REFUSALS.has(error.code)) {
      throw new RelayError('edge_webhook_unauthorized', `the request is not a verified ${provider} webhook`, {
        path: 'request',
        cause: error,
      });
    }
    throw error;
  }
}

/**
 * `edge_unknown_tenant` (404 `unknown_tenant`): none of the event's route keys (guild id, DM channel
 * or user, called number, corp id) is provisioned. Nothing is forwarded and no credential is bound;
 * the provider reports a failed delivery (Discord shows "This interaction failed"), which is the
 * truth: no gateway will ever see the event.
 */
export function unknownTenant(platform: string): RelayError {
  return new RelayError('edge_unknown_tenant', `no tenant is provisioned for this ${platform} event`, {
    path: 'routeKey',
  });
}

/** Runs a sanitiser, answering a verified payload it cannot sanitise with 400 `bad_request`. */
export function sanitisedOr400<T>(sanitise: () => T): T {
  try {
    return sanitise();
  } catch (error) {
    if (!(error instanceof RelayError && error.code === 'sanitiser_malformed_payload')) throw error;
    throw new RelayError('edge_http_bad_request', 'the webhook payload cannot be forwarded', {
      path: error.path,
      cause: error,
    });
  }
}

function checkedProfile(profile: unknown): string | null {
  if (profile === undefined || profile === null || profile === '') return null;
  if (typeof profile !== 'string') {
    throw new RelayError('edge_passthrough_invalid_argument', 'profileOf must answer a string or null', {
      path: 'profileOf',
    });
  }
  return profile;
}

function positiveInteger(value: unknown, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new RelayError('edge_passthrough_invalid_argument', `${name} must be a positive integer`, {
      path: `options.${name}`,
    });
  }
  return value;
}

/** What to hand over: the tenant, its credential bindings, then the forward. */
export interface Handoff {
  readonly tenant: string;
  readonly bindings: readonly CapabilityBinding[];
  readonly forward: PassthroughForward;
}

/**
 * Binds every credential, then buffers the forward (binding first, so the gateway's `follow_up`
 * finds the credential however fast it answers). Resolves once both are stored, or after
 * `timeoutMs` when storing takes longer — the provider's ACK must not wait past its window; a late
 * failure then goes to `onLateError`. A failure within `timeoutMs` rejects, so the provider is told.
 * Nothing here waits for the gateway: the forward is buffered until it connects.
 */
export async function handOff(
  relay: PassthroughRelay,
  handoff: Handoff,
  timeoutMs: number,
  onLateError: (error: unknown) => void,
): Promise<void> {
  const stored = (async () => {
    for (const binding of handoff.bindings) await relay.bindCapability(binding);
    await relay.forwardPassthrough(handoff.tenant, handoff.forward);
  })();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), timeoutMs);
  });
  try {
    const outcome = await Promise.race([stored.then(() => 'stored' as const), late]);
    if (outcome === 'late') stored.catch(onLateError);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Maps a route key of an event — the event's own discriminator (a Discord guild id, a DM channel or
 * user id, a called phone number, a WeCom corp id) — to the tenant whose gateway receives it, or
 * `null` when none does. Never resolve from which process or socket received the request (contract
 * Appendix A): one shared bot fronts many tenants.
 */
export type TenantResolver = (
  platform: string,
  routeKey: string,
) => string | null | undefined | Promise<string | null | undefined>;

/** A tenant found for an event, and the route key that found it. */
export interface ResolvedTenant {
  readonly tenant: string;
  readonly routeKey: string;
}

/**
 * A {@link TenantResolver} backed by the route keys gateways provision (`/relay/provision`): the
 * tenant of the gateway holding `routeKey` on `platform`.
 *
 * @example
 * const tenantOf = tenantResolverFromRegistry(registry);
 * await tenantOf('discord', '123456789012345678'); // 'tenant-a' once a gateway of tenant-a provisioned that guild
 */
export function tenantResolverFromRegistry(registry: Pick<ProvisionRegistry, 'route'>): TenantResolver {
  if (typeof registry !== 'object' || registry === null || typeof registry.route !== 'function') {
    throw new RelayError(
      'edge_passthrough_invalid_argument',
      'registry must have a route(platform, routeKey) method',
      { path: 'registry' },
    );
  }
  return async (platform, routeKey) => (await registry.route(platform, routeKey))?.tenant ?? null;
}

/**
 * The first of `routeKeys` (empty ones skipped) that `resolver` maps to a tenant, or `null`.
 *
 * @throws {RelayError} `edge_passthrough_invalid_argument`: the resolver answered something other than a
 *   string or null.
 */
export async function resolveTenant(
  resolver: TenantResolver,
  platform: string,
  routeKeys: readonly string[],
): Promise<ResolvedTenant | null> {
  for (const routeKey of routeKeys) {
    if (routeKey === '') continue;
    const tenant = await resolver(platform, routeKey);
    if (tenant === null || tenant === undefined) continue;
    if (typeof tenant !== 'string' || tenant === '') {
      throw new RelayError(
        'edge_passthrough_invalid_argument',
        'tenantOf must answer a non-empty string or null',
        { path: 'tenantOf' },
      );
    }
    return { tenant, routeKey };
  }
  return null;
}

/** Discord interaction types the edge answers differently. */
const PING = 1;
const MESSAGE_COMPONENT = 3;
const APPLICATION_COMMAND_AUTOCOMPLETE = 4;

/** Discord interaction callback types the edge answers with. */
export const DISCORD_CALLBACK = {
  PONG: 1,
  DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: 5,
  DEFERRED_UPDATE_MESSAGE: 6,
  APPLICATION_COMMAND_AUTOCOMPLETE_RESULT: 8,
} as const;

/** Request headers a Discord forward keeps besides `content-type`. */
const DISCORD_FORWARDED_HEADERS = ['user-agent'];

/** Options of {@link createDiscordEdgeHandler}. */
export interface DiscordEdgeHandlerOptions extends PassthroughHandlerOptions {
  /** The application's Ed25519 public key from the Developer Portal: 64 hex characters. */
  readonly publicKey: string;
  /** The `forward.botId`; default the interaction's `application_id`. */
  readonly botId?: string;
  /** The gateway revisions the token is bound for (one session key each); default all. */
  readonly dialects?: readonly SessionKeyDialect[];
  /** The gateways' `group_sessions_per_user` (default `true`). */
  readonly groupSessionsPerUser?: boolean;
  /** Seconds the signed timestamp may be off; default 300. */
  readonly maxSkewSeconds?: number;
}

/**
 * The connector's edge for Discord's Interactions Endpoint URL, as a web-standard handler (`POST`
 * only; mount it with `createEdgeRouter` or `toNodeListener`):
 *
 * 1. the raw body is verified (Ed25519 over `X-Signature-Timestamp` + body); a refusal is answered
 *    401 `{ error: 'unauthorized' }` (Discord probes endpoints with bad signatures);
 * 2. a PING is answered `{"type":1}` here and never forwarded; an autocomplete request is answered
 *    with no choices (it cannot be deferred, and no gateway turn should run for a keystroke);
 * 3. the tenant comes from the interaction itself: its `guild_id`, or in a DM its `channel_id`, then
 *    its user id, each looked up with `tenantOf('discord', key)`; none → 404 `unknown_tenant`;
 * 4. the `token` is cut out of the body and bound in the vault for `follow_up`
 *    (`sanitiseDiscordInteraction`: kind `discord.interaction_token`, 15 minutes, under the session
 *    keys of the baseline and the newer gateway), then the sanitised request is buffered as a
 *    `passthrough_forward` `{ platform: 'discord', botId, method, path, headers, bodyB64, profile? }`
 *    for the tenant — delivered when its gateway is connected, kept until then;
 * 5. Discord is answered at once with a deferred response: `{"type":6}` (DEFERRED_UPDATE_MESSAGE) for
 *    a component interaction, `{"type":5}` (DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE) for the rest.
 *
 * The answer never waits for the gateway; it waits for step 4 to be stored for at most
 * `handoffTimeoutMs`. Forwarded headers: `content-type` and `user-agent` only — never the signature
 * headers, which sign a body the gateway does not get. A store failing in time is answered 500 (by
 * the router or `toNodeListener`, which rethrown errors reach).
 *
 * @throws {RelayError} `edge_passthrough_invalid_argument`: unusable options.
 *
 * @example
 * const discord = createDiscordEdgeHandler({
 *   publicKey: process.env.DISCORD_PUBLIC_KEY!,
 *   tenantOf: tenantResolverFromRegistry(registry),
 *   server: relayServer,
 * });
 * http.createServer(toNodeListener(createEdgeRouter({ 'POST /discord/interactions': discord }))).listen(8443);
 */
export function createDiscordEdgeHandler(options: DiscordEdgeHandlerOptions): EdgeHandler {
  const settings = passthroughHandlerSettings(options);
  const publicKey = requiredString(options.publicKey, 'publicKey');
  if (!/^[0-9a-fA-F]{64}$/.test(publicKey)) {
    throw new RelayError('edge_passthrough_invalid_argument', 'publicKey must be 64 hex characters', {
      path: 'options.publicKey',
    });
  }
  const botId = optionalString(options.botId, 'botId');
  const dialects = options.dialects ?? SESSION_KEY_DIALECTS;
  if (
    !Array.isArray(dialects) ||
    dialects.length === 0 ||
    !dialects.every((dialect) => SESSION_KEY_DIALECTS.includes(dialect))
  ) {
    throw new RelayError(
      'edge_passthrough_invalid_argument',
      `dialects must be a non-empty array of ${SESSION_KEY_DIALECTS.join(', ')}`,
      { path: 'options.dialects' },
    );
  }
  const groupSessionsPerUser = options.groupSessionsPerUser ?? true;
  if (typeof groupSessionsPerUser !== 'boolean') {
    throw new RelayError('edge_passthrough_invalid_argument', 'groupSessionsPerUser must be a boolean', {
      path: 'options.groupSessionsPerUser',
    });
  }
  const maxSkewSeconds = options.maxSkewSeconds;

  const handle = async (request: Request): Promise<Response> => {
    if (request.method !== 'POST') throw edgeMethodNotAllowed(request.method, ['POST']);
    const edgeRequest = await readEdgeRequest(request, settings.maxBodyBytes);
    const { interaction, body } = verified('Discord', () =>
      verifyDiscordInteraction(edgeRequest, { publicKey, maxSkewSeconds, now: settings.now() / 1000 }),
    );
    if (interaction.type === PING) return jsonResponse(200, { type: DISCORD_CALLBACK.PONG });
    if (interaction.type === APPLICATION_COMMAND_AUTOCOMPLETE) {
      return jsonResponse(200, {
        type: DISCORD_CALLBACK.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT,
        data: { choices: [] },
      });
    }

    const resolved = await resolveTenant(settings.tenantOf, 'discord', discordRouteKeys(interaction));
    if (resolved === null) throw unknownTenant('discord');
    const { tenant } = resolved;
    const profile = await settings.profileOf(tenant);
    const sanitised = sanitisedOr400(() =>
      sanitiseDiscordInteraction(body, { tenant, dialects, groupSessionsPerUser, profile }),
    );
    const applicationId = interaction['application_id'];
    await handOff(
      settings.server,
      {
        tenant,
        bindings: sanitised.bindings,
        forward: {
          platform: 'discord',
          botId: botId ?? (typeof applicationId === 'string' ? applicationId : ''),
          method: request.method,
          path: pathAndQuery(request.url),
          headers: forwardHeaders(request.headers, 'application/json', DISCORD_FORWARDED_HEADERS),
          bodyB64: encodePassthroughBody(sanitised.forwardedBody),
          ...(profile === null ? {} : { profile }),
        },
      },
      settings.handoffTimeoutMs,
      settings.onError,
    );
    const deferred =
      interaction.type === MESSAGE_COMPONENT
        ? DISCORD_CALLBACK.DEFERRED_UPDATE_MESSAGE
        : DISCORD_CALLBACK.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE;
    return jsonResponse(200, { type: deferred });
  };

  return answeringEdgeErrors(handle);
}

/**
 * Where a Discord interaction routes: its guild, or in a DM its channel, then its user. Ids that are
 * not strings are skipped (Discord sends snowflakes as strings).
 */
export function discordRouteKeys(interaction: DiscordInteraction): string[] {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const guild = text(interaction['guild_id']);
  if (guild !== '') return [guild];
  const member = interaction['member'];
  const memberUser =
    typeof member === 'object' && member !== null ? (member as { user?: unknown }).user : undefined;
  const user = memberUser ?? interaction['user'];
  const userId = typeof user === 'object' && user !== null ? text((user as { id?: unknown }).id) : '';
  return [text(interaction['channel_id']), userId].filter((key) => key !== '');
}

/**
 * Where an edge handler hands a verified webhook: a `RelayServer` (any instance of a multi-instance
 * connector — the forward is buffered and the bus wakes whichever instance holds the gateway), or
 * any object with the same two methods.
 */
export interface PassthroughRelay {
  /** Stores a `passthrough_forward` for the tenant's gateway; resolves once it is buffered. */
  forwardPassthrough(tenant: string, forward: Partial<PassthroughForward>): Promise<unknown>;
  /** Binds a `follow_up` credential in the capability vault. */
  bindCapability(binding: CapabilityBinding): Promise<void>;
}

/** A text answer with `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`. */
export function textResponse(status: number, text: string, contentType: string): Response {
  return new Response(text, {
    status,
    headers: {
      'content-type': contentType,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}

/** The answer to every accepted Twilio webhook: TwiML that does nothing (the gateway replies later). */
export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

/** Request headers a Twilio forward keeps besides `content-type`. */
const TWILIO_FORWARDED_HEADERS = ['user-agent', 'i-twilio-idempotency-token'];

/** Options of {@link createTwilioEdgeHandler}. */
export interface TwilioEdgeHandlerOptions extends PassthroughHandlerOptions {
  /** The account's Auth Token, the key of `X-Twilio-Signature`. */
  readonly authToken: string;
  /** The `forward.botId`; default the webhook's `AccountSid` parameter. */
  readonly botId?: string;
  /**
   * The route keys of a webhook, most specific first, each looked up with `tenantOf('twilio', key)`.
   * Default: the `To` parameter (the number that was called or texted) of a form webhook; none for a
   * JSON one (say where its tenant is).
   */
  readonly routeKeysOf?: (webhook: VerifiedTwilioWebhook) => readonly string[];
}

/**
 * The connector's edge for Twilio webhooks (messaging), as a web-standard handler for `POST` and
 * `GET` (Twilio can be set to either). Mount it under the exact public URL configured in Twilio: the
 * signature covers that URL (behind a proxy, give `toNodeListener` the public `origin`).
 *
 * The request is verified (`X-Twilio-Signature`; refusal → 401 `unauthorized`), routed by its own
 * parameters (`routeKeysOf`; none found → 404 `unknown_tenant`), buffered as a
 * `passthrough_forward` `{ platform: 'twilio', botId, method, path (with the query), headers, bodyB64 }`
 * and answered with empty TwiML (`text/xml`) without waiting for the gateway.
 *
 * Nothing is stripped from the body: a Twilio webhook's parameters are ids and content, none of them
 * a credential, so the verified bytes are forwarded as they are. The credentials around it stay at
 * the edge: the `X-Twilio-Signature` (replayable against this URL), any `Authorization` (basic-auth
 * credentials in the webhook URL) — only `content-type`, `user-agent` and
 * `i-twilio-idempotency-token` are forwarded.
 *
 * @throws {RelayError} `edge_passthrough_invalid_argument`: unusable options.
 *
 * @example
 * const twilio = createTwilioEdgeHandler({
 *   authToken: process.env.TWILIO_AUTH_TOKEN!,
 *   tenantOf: tenantResolverFromRegistry(registry),
 *   server: relayServer,
 * });
 * const router = createEdgeRouter({ '/twilio/sms': twilio });
 */
export function createTwilioEdgeHandler(options: TwilioEdgeHandlerOptions): EdgeHandler {
  const settings = passthroughHandlerSettings(options);
  const authToken = requiredString(options.authToken, 'authToken');
  const botId = optionalString(options.botId, 'botId');
  const routeKeysOf = options.routeKeysOf ?? defaultTwilioRouteKeys;
  if (typeof routeKeysOf !== 'function') {
    throw new RelayError('edge_passthrough_invalid_argument', 'routeKeysOf must be a function', {
      path: 'options.routeKeysOf',
    });
  }

  const handle = async (request: Request): Promise<Response> => {
    if (request.method !== 'POST' && request.method !== 'GET') {
      throw edgeMethodNotAllowed(request.method, ['POST', 'GET']);
    }
    const edgeRequest = await readEdgeRequest(request, settings.maxBodyBytes);
    const webhook = verified('Twilio', () => verifyTwilioWebhook(edgeRequest, { authToken }));
    const routeKeys = routeKeysOf(webhook);
    if (!Array.isArray(routeKeys) || !routeKeys.every((key) => typeof key === 'string')) {
      throw new RelayError(
        'edge_passthrough_invalid_argument',
        'routeKeysOf must return an array of strings',
        { path: 'routeKeysOf' },
      );
    }
    const resolved = await resolveTenant(settings.tenantOf, 'twilio', routeKeys);
    if (resolved === null) throw unknownTenant('twilio');
    const { tenant } = resolved;
    const profile = await settings.profileOf(tenant);
    const contentType = request.headers.get('content-type') ?? 'application/x-www-form-urlencoded';
    await handOff(
      settings.server,
      {
        tenant,
        bindings: [],
        forward: {
          platform: 'twilio',
          botId: botId ?? twilioParam(webhook, 'AccountSid') ?? '',
          method: request.method,
          path: pathAndQuery(request.url),
          headers: forwardHeaders(request.headers, contentType, TWILIO_FORWARDED_HEADERS),
          bodyB64: encodePassthroughBody(webhook.body),
          ...(profile === null ? {} : { profile }),
        },
      },
      settings.handoffTimeoutMs,
      settings.onError,
    );
    return textResponse(200, EMPTY_TWIML, 'text/xml; charset=utf-8');
  };

  return answeringEdgeErrors(handle);
}

/**
 * The default route keys: the `To` parameter of a form webhook (from its body, or for a webhook Twilio
 * sends with GET, from the signed URL's query).
 */
export function defaultTwilioRouteKeys(webhook: VerifiedTwilioWebhook): readonly string[] {
  const to = twilioParam(webhook, 'To');
  return to === undefined ? [] : [to];
}

/**
 * The first value of a parameter of a form webhook: from its body, else from the query of the signed
 * URL (where a GET webhook carries its parameters; the signature covers the URL). Undefined for a JSON
 * webhook.
 */
function twilioParam(webhook: VerifiedTwilioWebhook, name: string): string | undefined {
  if (webhook.kind !== 'form') return undefined;
  const fromBody = webhook.params.find(([key]) => key === name)?.[1];
  if (fromBody !== undefined) return fromBody;
  // The verifier took signedUrl as an absolute http(s) URL, so it parses.
  return new URL(webhook.signedUrl).searchParams.get(name) ?? undefined;
}

/** The body WeCom expects from a callback that was taken (no passive reply). */
export const WECOM_ACK = 'success';

/** Request headers a WeCom forward keeps besides `content-type`. */
const WECOM_FORWARDED_HEADERS = ['user-agent'];

/** Options of {@link createWeComEdgeHandler}: the callback's Token, EncodingAESKey and receive id, and more. */
export interface WeComEdgeHandlerOptions extends PassthroughHandlerOptions, WeComCryptoOptions {
  /** The `forward.botId`; default the message's `AgentID`. */
  readonly botId?: string;
  /**
   * The route keys of a decrypted message (its root's text children by name), most specific first,
   * each looked up with `tenantOf('wecom', key)`. Default: `ToUserName` (the corp id; `AgentID` alone
   * is not unique across corps).
   */
  readonly routeKeysOf?: (fields: ReadonlyMap<string, string>) => readonly string[];
  /** Seconds the signed `timestamp` may be off; default 300. */
  readonly maxSkewSeconds?: number;
}

/**
 * The connector's edge for a WeCom (企业微信) callback URL in encrypted (BizMsgCrypt) mode, as a
 * web-standard handler:
 *
 * - `GET` (URL verification): the signed `echostr` is decrypted and answered as plain text, as
 *   WeCom requires; nothing is forwarded.
 * - `POST`: the `<Encrypt>` payload is verified and decrypted here, the plaintext XML is sanitised
 *   (`sanitiseWeComMessage` cuts `SuiteTicket` and `AuthCode` out), routed (`routeKeysOf`; none
 *   found → 404 `unknown_tenant`), buffered as a `passthrough_forward` `{ platform: 'wecom', botId,
 *   method, path, headers, bodyB64 }` whose body is the decrypted XML (`application/xml`), and
 *   answered `success` without waiting for the gateway.
 *
 * The Token, the EncodingAESKey, the ciphertext and the signature query (`msg_signature`,
 * `timestamp`, `nonce`) never leave the edge: the forward's `path` has no query. A refusal is answered
 * 401 `unauthorized`.
 *
 * @throws {RelayError} `edge_passthrough_invalid_argument`: unusable options (the secrets are checked on
 *   first use by the verifier, whose `invalid_argument` is rethrown).
 *
 * @example
 * const wecom = createWeComEdgeHandler({
 *   token, encodingAesKey, corpId,
 *   tenantOf: tenantResolverFromRegistry(registry),
 *   server: relayServer,
 * });
 * const router = createEdgeRouter({ '/wecom/callback': wecom });
 */
export function createWeComEdgeHandler(options: WeComEdgeHandlerOptions): EdgeHandler {
  const settings = passthroughHandlerSettings(options);
  const crypto: WeComCryptoOptions = {
    token: requiredString(options.token, 'token'),
    encodingAesKey: requiredString(options.encodingAesKey, 'encodingAesKey'),
    corpId: requiredString(options.corpId, 'corpId'),
  };
  const botId = optionalString(options.botId, 'botId');
  const routeKeysOf = options.routeKeysOf ?? defaultWeComRouteKeys;
  if (typeof routeKeysOf !== 'function') {
    throw new RelayError('edge_passthrough_invalid_argument', 'routeKeysOf must be a function', {
      path: 'options.routeKeysOf',
    });
  }
  const maxSkewSeconds = options.maxSkewSeconds;

  const handle = async (request: Request): Promise<Response> => {
    if (request.method !== 'POST' && request.method !== 'GET') {
      throw edgeMethodNotAllowed(request.method, ['GET', 'POST']);
    }
    const edgeRequest = await readEdgeRequest(request, settings.maxBodyBytes);
    const callback = verified('WeCom', () =>
      verifyWeComCallback(edgeRequest, { ...crypto, maxSkewSeconds, now: settings.now() / 1000 }),
    );
    if (callback.kind === 'url_verification')
      return textResponse(200, callback.echo, 'text/plain; charset=utf-8');

    const sanitised = sanitisedOr400(() => sanitiseWeComMessage(callback.message));
    const routeKeys = routeKeysOf(sanitised.fields);
    if (!Array.isArray(routeKeys) || !routeKeys.every((key) => typeof key === 'string')) {
      throw new RelayError(
        'edge_passthrough_invalid_argument',
        'routeKeysOf must return an array of strings',
        { path: 'routeKeysOf' },
      );
    }
    const resolved = await resolveTenant(settings.tenantOf, 'wecom', routeKeys);
    if (resolved === null) throw unknownTenant('wecom');
    const { tenant } = resolved;
    const profile = await settings.profileOf(tenant);
    await handOff(
      settings.server,
      {
        tenant,
        bindings: [],
        forward: {
          platform: 'wecom',
          botId: botId ?? sanitised.fields.get('AgentID') ?? '',
          method: request.method,
          path: new URL(request.url).pathname,
          headers: forwardHeaders(request.headers, 'application/xml; charset=utf-8', WECOM_FORWARDED_HEADERS),
          bodyB64: encodePassthroughBody(sanitised.forwardedBody),
          ...(profile === null ? {} : { profile }),
        },
      },
      settings.handoffTimeoutMs,
      settings.onError,
    );
    return textResponse(200, WECOM_ACK, 'text/plain; charset=utf-8');
  };

  return answeringEdgeErrors(handle);
}

/** The default route keys: the message's `ToUserName` (the corp id). */
export function defaultWeComRouteKeys(fields: ReadonlyMap<string, string>): readonly string[] {
  const to = fields.get('ToUserName');
  return to === undefined ? [] : [to];
}
