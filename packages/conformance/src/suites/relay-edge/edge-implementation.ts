import { decodeBase64, decodeHex, isRefusal, type Refusal } from '@agentwire/internal';
import { invalidFixtureError } from '../../errors.js';
/** A webhook request as a provider sent it, for a verifier: headers in order, the exact body bytes. */
export interface EdgeWebhookRequest {
  readonly method: string;
  /** The absolute URL the provider called. */
  readonly url: string;
  /** `[name, value]` pairs in order; a repeated name is joined with `', '` when read. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Uint8Array;
}

/** The clock a verifier judges timestamps by: unix seconds (possibly fractional), and the allowed skew. */
export interface EdgeVerifierClock {
  readonly now: number;
  /** Seconds a signed timestamp may be off; absent: the verifier's default (300). */
  readonly maxSkewSeconds?: number;
}

/** The keys of a WeCom (企业微信) callback: the token, the 43-character EncodingAESKey and the corp id. */
export interface EdgeWeComKeys {
  readonly token: string;
  readonly encodingAesKey: string;
  readonly corpId: string;
}

/** What an encrypted WeCom passive reply is made of, random bytes included. */
export interface EdgeWeComReplyOptions extends EdgeWeComKeys {
  readonly timestamp: number;
  readonly nonce: string;
  /** The 16 random bytes that open the plaintext. */
  readonly random: Uint8Array;
}

/** A request to the connector's HTTP base. */
export interface EdgeHttpRequest {
  readonly method: string;
  /** Path and query, e.g. `/relay/media/abc`. */
  readonly path: string;
  /** `[name, value]` pairs in order; values are Latin-1 byte strings (one character per byte). */
  readonly headers: readonly (readonly [string, string])[];
  /** The body; absent for none. */
  readonly body?: Uint8Array;
}

/** The connector's answer. */
export interface EdgeHttpResponse {
  readonly status: number;
  /** Header values by lowercase name. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

/** The state a side-channel case starts from (the fixture's `world`). */
export interface EdgeWorld {
  /** The connector's clock, fixed: unix seconds. */
  readonly now: number;
  /** Identity bearer tokens the caller-identity verifier accepts; any other is refused. */
  readonly identities: Readonly<Record<string, { readonly subject: string; readonly tenant: string }>>;
  /** Gateways that exist before the case, each with secrets the connector chose. */
  readonly gateways: readonly { readonly gatewayId: string; readonly tenant: string }[];
  /** One-time enrollment tokens issued before the case, by name. */
  readonly enrollmentTokens: readonly {
    readonly name: string;
    readonly tenant: string;
    readonly ttlSeconds: number;
  }[];
}

/** A connector set up for one side-channel case. */
export interface EdgeConnectorUnderTest {
  /** Serves one request at `/relay/enroll`, `/relay/provision`, `/relay/policy` or `/relay/media[/id]`. */
  handle(request: EdgeHttpRequest): Promise<EdgeHttpResponse>;
  /** The enrollment token issued for the world's entry `name`. */
  enrollmentToken(name: string): string;
  /** A channel token (`make_upgrade_token`) for a world gateway, minted with its current secret. */
  channelToken(
    gatewayId: string,
    options: { readonly issuedAt: number; readonly ttlSeconds: number },
  ): string | Promise<string>;
  /** Called after the case. */
  close?(): void | Promise<void>;
}

/** A credential the sanitiser bound in the capability vault. */
export interface EdgeCredentialBinding {
  readonly tenant: string;
  readonly sessionKey: string;
  readonly credential: string;
}

/** What the Discord sanitiser made of a verified interaction body. */
export interface SanitisedDiscordForward {
  /** The body forwarded to the gateway. */
  readonly forwardedBody: Uint8Array;
  readonly bindings: readonly EdgeCredentialBinding[];
}

/**
 * The state a webhook-handler case starts from (`edge-webhooks.json`'s `world`): the provider keys the
 * edge verifies with, its clock, the tenant each route key belongs to and the tenants' forward profiles.
 */
export interface EdgeWebhookWorld {
  /** The edge's clock, fixed: unix seconds. */
  readonly now: number;
  /** The Discord application's Ed25519 public key: 64 hex characters. */
  readonly discordPublicKey: string;
  /** The Twilio account's Auth Token, the key of `X-Twilio-Signature`. */
  readonly twilioAuthToken: string;
  /** The WeCom callback's Token, EncodingAESKey and corp id (receive id). */
  readonly wecom: EdgeWeComKeys;
  /**
   * The route keys that have a tenant: `[platform, routeKey, tenant]` (`discord` guild, DM channel or
   * user ids, `twilio` called numbers, `wecom` corp ids). Any other key has none.
   */
  readonly routes: readonly (readonly [string, string, string])[];
  /** The `forward.profile` of a tenant, where one is set. */
  readonly profiles: Readonly<Record<string, string>>;
}

/** A `passthrough_forward` the edge handed its relay for a tenant's gateway (relay contract §3.1). */
export interface EdgeForwardHandoff {
  readonly type: 'forward';
  readonly tenant: string;
  readonly platform: string;
  readonly botId: string;
  readonly method: string;
  /** The path and query the provider called. */
  readonly path: string;
  /** `[name, value]` pairs. */
  readonly headers: readonly (readonly [string, string])[];
  /** The forwarded body: standard base64 with padding. */
  readonly bodyB64: string;
  /** The forward's profile; absent or null for none. */
  readonly profile?: string | null;
}

/** A credential the edge bound in its capability vault for the gateway's `follow_up`. */
export interface EdgeBindingHandoff {
  readonly type: 'bind';
  readonly tenant: string;
  readonly sessionKey: string;
  /** The capability kind, e.g. `discord.interaction_token`. */
  readonly kind: string;
  readonly credential: string;
  /** How long the binding lives, in seconds, when the edge's vault keeps a lifetime. */
  readonly ttlSeconds?: number;
}

/** One thing the edge handed its relay. */
export type EdgeHandoff = EdgeForwardHandoff | EdgeBindingHandoff;

/**
 * A connector edge serving one provider's webhook endpoint (relay contract §3.1: verify → answer the
 * provider → sanitise → buffer a `passthrough_forward`), set up in an {@link EdgeWebhookWorld}, whose
 * relay records what it is handed and stores it at once.
 */
export interface EdgeWebhookEdgeUnderTest {
  /** Serves one webhook request as the provider sent it; refusals are answered, never thrown. */
  handle(request: EdgeWebhookRequest): Promise<EdgeHttpResponse>;
  /** Everything handed to the relay since the edge was set up, in order (bindings and forwards). */
  handoffs(): readonly EdgeHandoff[] | Promise<readonly EdgeHandoff[]>;
  /** Called after the case. */
  close?(): void | Promise<void>;
}

/**
 * The connector edge under test. Every member is optional and enables its cases: the verifiers
 * (results in the fixture's snake_case form), the WeCom reply encryption, the side channels (a
 * fresh connector per case), the Discord sanitiser and the webhook handlers (a fresh edge per case,
 * one member per provider, as a connector may front only some of them).
 */
export interface RelayEdgeImplementation {
  /** `{interaction, timestamp}` of a valid Discord interaction; throws a refusal. Capability `discord-verifier`. */
  verifyDiscord?(
    request: EdgeWebhookRequest,
    options: EdgeVerifierClock & { readonly publicKey: string },
  ): unknown;
  /**
   * `{kind: 'form', params, signed_url}` or `{kind: 'json', json, signed_url}` of a valid Twilio
   * webhook; throws a refusal. Capability `twilio-verifier`.
   */
  verifyTwilio?(request: EdgeWebhookRequest, options: { readonly authToken: string }): unknown;
  /**
   * `{kind: 'url_verification', echo, timestamp, nonce}` or `{kind: 'message', message, timestamp,
   * nonce}` of a valid WeCom callback; throws a refusal. Capability `wecom-verifier`.
   */
  verifyWeCom?(request: EdgeWebhookRequest, options: EdgeVerifierClock & EdgeWeComKeys): unknown;
  /** `{encrypt, msg_signature, timestamp, nonce, xml}` of a passive reply. Capability `wecom-reply`. */
  encryptWeComReply?(message: string, options: EdgeWeComReplyOptions): unknown;
  /** A connector serving the side channels, set up in `world`. Capability `side-channels`. */
  connector?(world: EdgeWorld): EdgeConnectorUnderTest | Promise<EdgeConnectorUnderTest>;
  /** The Discord sanitiser for `tenant` (and the forward's `profile`). Capability `discord-sanitiser`. */
  sanitiseDiscordInteraction?(
    body: Uint8Array,
    options: { readonly tenant: string; readonly profile?: string },
  ): SanitisedDiscordForward | Promise<SanitisedDiscordForward>;
  /**
   * The edge's Discord Interactions Endpoint (`POST`) set up in `world`: PING and autocomplete
   * answered at the edge, every other interaction routed by guild, DM channel, then user, its `token`
   * bound for `follow_up` and cut out of the forward, answered with a deferred response. Capability
   * `discord-handler`.
   */
  discordWebhookEdge?(world: EdgeWebhookWorld): EdgeWebhookEdgeUnderTest | Promise<EdgeWebhookEdgeUnderTest>;
  /**
   * The edge's Twilio webhook endpoint set up in `world`: routed by the called number (`To`), the
   * verified body forwarded as it is, answered with empty TwiML. Capability `twilio-handler`.
   */
  twilioWebhookEdge?(world: EdgeWebhookWorld): EdgeWebhookEdgeUnderTest | Promise<EdgeWebhookEdgeUnderTest>;
  /**
   * The edge's WeCom callback endpoint (encrypted mode) set up in `world`: the `GET` URL verification
   * answered with the decrypted echo; a `POST` decrypted, routed by `ToUserName`, forwarded without its
   * suite credentials (`SuiteTicket`, `AuthCode`) and answered `success`. Capability `wecom-handler`.
   */
  weComWebhookEdge?(world: EdgeWebhookWorld): EdgeWebhookEdgeUnderTest | Promise<EdgeWebhookEdgeUnderTest>;
  /** The refusal code of a verifier's error (`bad_signature`, `stale_timestamp`, …). */
  errorCode?(error: unknown): string | undefined;
  /** `true` when refusals are JSON `{error, message}` in the edge vocabulary; their `error` is then compared. */
  readonly edgeErrorBodies?: boolean;
}

// Byte helpers without Buffer, so that the suites stay runtime-neutral.

/** The bytes of canonical padded base64 text; anything else is a broken fixture (`invalid_fixture`). */
export function base64ToBytes(text: string): Uint8Array {
  return bytesOrRefusal(decodeBase64(text), 'base64 text');
}

/** The bytes of hex text; anything else is a broken fixture (`invalid_fixture`). */
export function hexToBytes(text: string): Uint8Array {
  return bytesOrRefusal(decodeHex(text), 'hex text');
}

function bytesOrRefusal(decoded: Uint8Array | Refusal, what: string): Uint8Array {
  if (isRefusal(decoded)) throw invalidFixtureError(what, decoded.refused);
  return decoded;
}

/** Whether `needle` occurs in `haystack` (an empty needle never does). */
export function containsBytes(haystack: Uint8Array, needle: Uint8Array): boolean {
  if (needle.length === 0) return false;
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/** Byte-wise equality. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
