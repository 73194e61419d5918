import {
  peekRelayTokenGatewayId,
  RELAY_CLOSE_REASON_UNAUTHORIZED,
  type RelayAuthCloseReason,
  type RelayTokenVerification,
  readBearerToken,
  relayAuthClose,
  verifyRelayToken,
} from '../auth.js';
import type { BufferedFrame } from '../buffer.js';
import type { CreateDescriptorFields } from '../descriptor.js';
import { RelayError, type RelayErrorCode } from '../errors.js';
import type { OpParams, OutboundOp } from '../frames/actions.js';
import {
  frameToWireObject,
  type OpResult,
  type PassthroughForward,
  passthroughForwardSchema,
} from '../frames/frames.js';

import { safeParseInEnglish } from '../internal.js';
import { isJsonValue, type JsonValue, jsonPath, toJsonValue } from '../json.js';
import { eventToWire, type MessageEvent, type MessageEventWire } from '../message-event.js';

/**
 * What a platform adapter states about its platform in the `descriptor` frame. `supported_ops` is not
 * part of it: the server fills it with exactly the ops the adapter implements.
 */
export type PlatformDescriptorFields = Omit<CreateDescriptorFields, 'supported_ops'>;

/** Who an outbound action is for: the authenticated tenant and the hello'd identity it targets. */
export interface OutboundContext {
  /** The tenant of the gateway connection (from `authenticate`, never from the gateway's frames). */
  readonly tenant: string;
  /** The gateway id the connection authenticated as. */
  readonly gatewayId: string;
  /** The hello'd platform the action targets: the frame's `platform`, else the session default. */
  readonly platform: string;
  /** That identity's bot id (`""` when the hello carried none). */
  readonly botId: string;
  /** The frame's `requestId`. */
  readonly requestId: string;
  /**
   * Aborted when the server stops waiting for this call: the call ran past `outboundTimeoutMs` (reason a
   * `RelayError` `relay_server_outbound_timeout`; the gateway was already answered with a failure) or the
   * connection closed (reason `RelayError` `relay_server_connection_closed`). Pass it to your HTTP client.
   */
  readonly signal: AbortSignal;
}

/** The context of a `follow_up`: {@link OutboundContext} plus the credential resolved from the vault. */
export interface FollowUpContext extends OutboundContext {
  /** The credential bound under `(tenant, session_key, kind)`. Never put it in a result. */
  readonly credential: string;
}

/** The context of a gateway `interrupt`. */
export interface InterruptContext {
  readonly tenant: string;
  readonly gatewayId: string;
  /** The platform whose adapter is called: the session's chat's, when known, else the session default. */
  readonly platform: string;
  readonly botId: string;
  /**
   * The session's chat — what `deliverInterrupt` and the adapter's platform calls need: the chat of the
   * latest inbound event this server delivered whose source keys to the session (`buildSessionKey`,
   * default options). `undefined` when this instance delivered none (another instance did, or it is
   * among the oldest past the 10 000 sessions a server remembers).
   */
  readonly chatId: string | undefined;
}

/** Executes one op: the decoded action (defaults filled) in, the op's result shape out. */
export type OpHandler<Op extends OutboundOp, Context = OutboundContext> = (
  action: OpParams[Op],
  context: Context,
) => OpResult[Op] | Promise<OpResult[Op]>;

/**
 * What a connector author implements per platform. Each op is an optional method named after the op;
 * the ops an adapter implements are exactly the `supported_ops` of its descriptor, and the gateway
 * gets `{ success: false, error }` for any other. A method returns the op's result (`{ success,
 * message_id?, error? }`, `{ success, thread_id? }`, `{ success, chat_info: { name, type } }` …); a
 * throw or a rejection becomes `{ success: false, error: <message> }`. Use `egressDeclinedResult`
 * for a refused destination.
 *
 * @example
 * const discord: PlatformAdapter = {
 *   descriptor: {
 *     platform: 'discord', label: 'Discord', max_message_length: 2000, supports_draft_streaming: false,
 *     supports_edit: true, supports_threads: true, markdown_dialect: 'discord', len_unit: 'utf16',
 *   },
 *   async send(action, { signal }) {
 *     const id = await api.post(action.chat_id, action.content, { signal });
 *     return { success: true, message_id: id };
 *   },
 *   async typing(action) {
 *     await api.typing(action.chat_id);
 *     return { success: true };
 *   },
 * };
 */
export interface PlatformAdapter {
  readonly descriptor: PlatformDescriptorFields;
  readonly send?: OpHandler<'send'>;
  readonly edit?: OpHandler<'edit'>;
  readonly typing?: OpHandler<'typing'>;
  /**
   * Called only when the vault holds a credential for `(tenant, session_key, kind)`; the server
   * answers an absent, expired or other tenant's capability with `{ success: false }` itself.
   */
  readonly follow_up?: OpHandler<'follow_up', FollowUpContext>;
  readonly get_chat_info?: OpHandler<'get_chat_info'>;
  readonly send_media?: OpHandler<'send_media'>;
  readonly prompt?: OpHandler<'prompt'>;
  readonly react?: OpHandler<'react'>;
  readonly thread_create?: OpHandler<'thread_create'>;
  readonly thread_rename?: OpHandler<'thread_rename'>;
  /**
   * A gateway `interrupt` frame (a mid-turn `/stop`) for `sessionKey`, delivered to the adapter of the
   * session's chat's platform when this server delivered an event of it (`context.chatId` is then that
   * chat), else to the session default's. What it throws is reported on the server's `error` event.
   */
  readonly onInterrupt?: (
    sessionKey: string,
    reason: string | null,
    context: InterruptContext,
  ) => void | Promise<void>;
}

/** The codes `eventToWire` refuses an event with (its own, and those of its `source`). */
const EVENT_ERROR_CODES: ReadonlySet<RelayErrorCode> = new Set<RelayErrorCode>([
  'message_event_not_object',
  'message_event_not_json',
  'message_event_invalid',
  'session_source_not_object',
  'session_source_not_json',
  'session_source_invalid_field',
  'session_source_missing_platform',
  'session_source_unknown_platform',
  'session_source_missing_chat_id',
  'session_source_ambiguous_chat_id',
]);

/** A `passthrough_forward`'s `forward` object as given to `forwardPassthrough` (defaults filled). */
export type PassthroughForwardInput = Partial<PassthroughForward>;

/**
 * The buffered `inbound` frame of an event. A gateway-view `MessageEvent` (recognised by its
 * `reply_to_is_own_message` and `media_types` keys, which no wire event has) is written with
 * `eventToWire`; anything else is taken as a wire `event` object (what `createMessageEvent` returns):
 * used as it is when it already is plain JSON data (the buffer encodes it before `append` returns, so
 * later changes to it change nothing stored), else copied as plain JSON (dropping `undefined` values).
 *
 * @throws {RelayError} `relay_server_invalid_input`: the event is not an object, holds non-JSON values or
 * cannot be written.
 */
export function inboundFrame(event: MessageEvent | MessageEventWire): BufferedFrame {
  if (event === null || typeof event !== 'object' || Array.isArray(event)) {
    throw new RelayError(
      'relay_server_invalid_input',
      'event must be a MessageEvent or a wire event object',
      { path: 'event' },
    );
  }
  if (Object.hasOwn(event, 'reply_to_is_own_message') && Object.hasOwn(event, 'media_types')) {
    try {
      return { type: 'inbound', event: eventToWire(event as MessageEvent) };
    } catch (error) {
      if (!(error instanceof RelayError && EVENT_ERROR_CODES.has(error.code))) throw error;
      throw new RelayError('relay_server_invalid_input', `event: ${error.message}`, {
        path: `event.${error.path}`,
        cause: error,
      });
    }
  }
  return { type: 'inbound', event: plainObject(event, 'event') };
}

/**
 * The buffered `passthrough_forward` frame of a forward, checked with the frame schema (`bodyB64` and
 * headers as strings, missing keys defaulted) and with its keys in wire order.
 *
 * @throws {RelayError} `relay_server_invalid_input`: a forward the gateway could not read.
 */
export function passthroughFrame(forward: PassthroughForwardInput): BufferedFrame {
  const parsed = safeParseInEnglish(passthroughForwardSchema, forward);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = jsonPath(['forward', ...(issue?.path ?? [])]);
    throw new RelayError('relay_server_invalid_input', `invalid passthrough forward: ${issue?.message}`, {
      path,
      cause: parsed.error,
    });
  }
  const wire = frameToWireObject({ type: 'passthrough_forward', forward: parsed.data })['forward'];
  return { type: 'passthrough_forward', forward: plainObject(wire, 'forward') };
}

function plainObject(value: unknown, path: string): { readonly [key: string]: JsonValue } {
  if (isJsonValue(value)) return value as { readonly [key: string]: JsonValue };
  return toJsonValue(
    value,
    ({ message }) => new RelayError('relay_server_invalid_input', `${path}: ${message}`, { path }),
  ) as { readonly [key: string]: JsonValue };
}

/** An upgrade whose bearer token verified against its gateway's secrets. */
export interface UpgradeAccepted {
  readonly ok: true;
  readonly gatewayId: string;
  readonly tenant: string;
}

/** A refused upgrade: the close reason to send with 4401, and a sentence for logs. */
export interface UpgradeRefused {
  readonly ok: false;
  readonly reason: RelayAuthCloseReason;
  readonly detail: string;
}

/** What {@link authenticateUpgrade} needs besides the header. */
export interface UpgradeAuthSettings {
  readonly authenticate: (
    gatewayId: string,
  ) => GatewayCredentials | null | Promise<GatewayCredentials | null>;
  /** Unix seconds. */
  readonly nowSeconds: number;
  readonly skewSeconds: number;
}

/**
 * Authenticates a `/relay` upgrade from its `Authorization` header: reads the bearer token, peeks the
 * gateway id, looks the gateway up with `authenticate`, and verifies the token against that
 * gateway's secret list. Only a validly signed token past its expiry is refused as `expired`; no
 * token, a malformed or forged one, an unknown or revoked gateway are all `unauthorized`.
 *
 * @throws {RelayError} `relay_server_callback_failed`: `authenticate` threw, or returned no tenant or an
 * unusable secret list.
 */
export async function authenticateUpgrade(
  authorization: string | undefined,
  settings: UpgradeAuthSettings,
): Promise<UpgradeAccepted | UpgradeRefused> {
  let gatewayId: string;
  let token: string | undefined;
  try {
    token = readBearerToken(authorization);
    if (token === undefined) return refused(RELAY_CLOSE_REASON_UNAUTHORIZED, 'no bearer token');
    gatewayId = peekRelayTokenGatewayId(token);
  } catch (error) {
    if (error instanceof RelayError && error.code === 'relay_token_malformed')
      return refused(RELAY_CLOSE_REASON_UNAUTHORIZED, error.message);
    throw error;
  }
  let credentials: GatewayCredentials | null;
  try {
    credentials = await settings.authenticate(gatewayId);
  } catch (error) {
    throw callbackError('authenticate', error);
  }
  if (credentials === null)
    return refused(RELAY_CLOSE_REASON_UNAUTHORIZED, `unknown gateway ${JSON.stringify(gatewayId)}`);
  if (
    typeof credentials !== 'object' ||
    typeof credentials.tenant !== 'string' ||
    credentials.tenant === ''
  ) {
    throw callbackError('authenticate', 'returned no non-empty tenant string');
  }
  let result: RelayTokenVerification;
  try {
    result = verifyRelayToken(token, credentials.secrets, {
      now: settings.nowSeconds,
      skewSeconds: settings.skewSeconds,
    });
  } catch (error) {
    throw callbackError('authenticate', error);
  }
  if (!result.valid) return refused(relayAuthClose(result).reason, result.detail);
  return { ok: true, gatewayId, tenant: credentials.tenant };
}

function refused(reason: RelayAuthCloseReason, detail: string): UpgradeRefused {
  return { ok: false, reason, detail };
}

/**
 * `relay_server_callback_failed`: a callback the server calls (`authenticate`, an adapter's
 * `onInterrupt`, the bus or buffer) threw; `cause` is what it threw, `details.callback` which callback.
 */
export function callbackError(callback: string, cause: unknown): RelayError {
  return new RelayError(
    'relay_server_callback_failed',
    `${callback} failed: ${cause instanceof Error ? cause.message : String(cause)}`,
    { details: { callback }, cause },
  );
}

/** What `authenticate` returns for a known gateway id: its tenant and its secret rotation list. */
export interface GatewayCredentials {
  /** The tenant the gateway acts for; every frame of the connection is scoped to it. */
  readonly tenant: string;
  /** The verify list, primary first; empty strings are skipped. */
  readonly secrets: readonly string[];
}
