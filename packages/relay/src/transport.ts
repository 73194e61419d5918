import type { CapabilityDescriptor } from './descriptor.js';
import type { OpParamsInput, OutboundActionInput } from './frames/actions.js';
import {
  GATEWAY_FAILURE_ERRORS,
  type OutboundResultObject,
  type PassthroughForward,
  type readChatInfo,
} from './frames/frames.js';

import type { MessageEvent } from './message-event.js';
import { decodePassthroughBody, type PassthroughHeader } from './passthrough.js';

/**
 * Which transport condition failed:
 * - `not_connected`: nothing was sent — the transport was never connected, or was disconnected or
 *   lost before the call;
 * - `transport_closed`: `disconnect()` was called while the request was pending (the Python
 *   transport fails pending calls the same way, `RuntimeError("relay transport closed")`);
 * - `connection_lost`: the connection dropped (the connector closed the socket, the reader died)
 *   while the request was pending;
 * - `outbound_timeout`: no `outbound_result` arrived for `requestId` within `details.timeoutMs` (the
 *   gateway waits 30 s); a late result is ignored;
 * - `handshake_timeout`: no `descriptor` arrived within `details.timeoutMs` of the hellos (the
 *   gateway waits 30 s and then fails `connect()`);
 * - `descriptor_rejected`: the connector's first `descriptor` frame cannot be read (`cause` is the
 *   decode error). The Python gateway's reader dies on such a frame and its handshake then times
 *   out; a TypeScript transport fails the handshake at once;
 * - `auth_revoked`: the connector revoked this gateway — after a completed handshake it closed the
 *   socket with 4401 (a reason other than `"expired"`), and the one immediate re-dial with a fresh
 *   token was closed with 4401 again. The transport stops reconnecting for good; every pending and
 *   later call fails with this code (the Python gateway raises its fatal `relay_disabled` here).
 */
export type RelayTransportErrorCode =
  | 'not_connected'
  | 'transport_closed'
  | 'connection_lost'
  | 'outbound_timeout'
  | 'handshake_timeout'
  | 'descriptor_rejected'
  | 'auth_revoked';

/** The facts some transport codes carry besides their message; each field names the codes that set it. */
export interface RelayTransportErrorDetails {
  /** `outbound_timeout`, `handshake_timeout`: how long the transport waited, in milliseconds. */
  readonly timeoutMs?: number;
  /** `auth_revoked`: the close reason of the 4401 that latched the revocation. */
  readonly closeReason?: string;
}

/** What a {@link RelayTransportError} carries besides its code and message. */
export interface RelayTransportErrorOptions extends ErrorOptions {
  /** The `requestId` of the outbound frame, when one was written before the failure. */
  readonly requestId?: string | undefined;
  /** Facts particular to the code (see {@link RelayTransportErrorDetails}). */
  readonly details?: RelayTransportErrorDetails;
}

/**
 * The failed result the Python gateway synthesises in place of a connector answer (never on the
 * wire): `error` is one of `GATEWAY_FAILURE_ERRORS`; `ambiguous: true` when the connector may have
 * acted (newer gateways add it; the baseline gateway does not).
 */
export interface TransportFailureResult {
  readonly success: false;
  readonly error: string;
  readonly ambiguous?: true;
}

/** The codes a caller cannot fix by calling again: the connector would refuse the same way. */
const NOT_RETRYABLE: ReadonlySet<RelayTransportErrorCode> = /* @__PURE__ */ new Set([
  'descriptor_rejected',
  'auth_revoked',
]);

/** The gateway's `error` text for a failure with `code`. */
function gatewayError(code: RelayTransportErrorCode, ambiguous: boolean): string {
  switch (code) {
    case 'transport_closed':
      return GATEWAY_FAILURE_ERRORS.disconnected;
    case 'connection_lost':
      return GATEWAY_FAILURE_ERRORS.connectionLost;
    case 'outbound_timeout':
      return GATEWAY_FAILURE_ERRORS.timedOut;
    case 'auth_revoked':
      return ambiguous ? GATEWAY_FAILURE_ERRORS.connectionLost : GATEWAY_FAILURE_ERRORS.notConnected;
    default:
      // not_connected, and a handshake that failed: there is no connection the call could use.
      return GATEWAY_FAILURE_ERRORS.notConnected;
  }
}

/**
 * A {@link RelayTransport} failure: a request — outbound action, chat-info lookup, interrupt,
 * handshake — that got no answer from the connector. A separate class from `RelayError` because a
 * caller does not fix its input here: it retries (`retryable`) or reports the failure, and must know
 * whether the connector may already have acted (`ambiguous`). An action the connector answered — even
 * with `success: false` — is a result, never one of these errors. Switch on `code`.
 *
 * `retryable`: the same call may succeed if it is made again, on this or a new connection (every code
 * but `descriptor_rejected` — the connector would send the same descriptor again — and `auth_revoked` —
 * re-enroll the gateway and create a new transport). `ambiguous`: the request reached the wire and only
 * its answer is missing, so a retry can act twice (a `send` can post twice) — always for
 * `outbound_timeout`, and whenever a `requestId` was written before the failure.
 *
 * @example
 * ```ts
 * try {
 *   return await transport.sendOutbound(action);
 * } catch (error) {
 *   if (error instanceof RelayTransportError) return error.toResult();
 *   throw error;
 * }
 * // timeout → { success: false, error: 'relay outbound timed out', ambiguous: true }
 * ```
 */
export class RelayTransportError extends Error {
  override readonly name: string = 'RelayTransportError';
  /** Which condition failed; stable across releases. */
  readonly code: RelayTransportErrorCode;
  /** The same call may succeed if it is made again, on this or a new connection. */
  readonly retryable: boolean;
  /** The request reached the wire and only its answer is missing: the connector may have acted. */
  readonly ambiguous: boolean;
  /** The `requestId` of the outbound frame, when one was written. */
  readonly requestId: string | undefined;
  /** Facts particular to the code; `undefined` for codes that carry none. */
  readonly details: RelayTransportErrorDetails | undefined;

  constructor(code: RelayTransportErrorCode, message: string, options: RelayTransportErrorOptions = {}) {
    const { requestId, details, ...errorOptions } = options;
    super(message, errorOptions);
    this.code = code;
    this.requestId = requestId;
    this.details = details;
    this.retryable = !NOT_RETRYABLE.has(code);
    this.ambiguous = code === 'outbound_timeout' || requestId !== undefined;
  }

  /**
   * The gateway's synthesised failure result for this condition, for code that keeps the gateway's
   * result-only contract (the Python transport returns it instead of raising).
   */
  toResult(): TransportFailureResult {
    const error = gatewayError(this.code, this.ambiguous);
    return this.ambiguous ? { success: false, error, ambiguous: true } : { success: false, error };
  }
}

/** `not_connected`: `what` (the call) found no connection; nothing was sent. */
export function notConnectedError(what: string, options?: ErrorOptions): RelayTransportError {
  return new RelayTransportError('not_connected', `${what}: ${GATEWAY_FAILURE_ERRORS.notConnected}`, options);
}

/** `transport_closed`: `disconnect()` ended `what` while it was pending. */
export function transportClosedError(what: string, requestId: string | undefined): RelayTransportError {
  return new RelayTransportError('transport_closed', `${what}: ${GATEWAY_FAILURE_ERRORS.disconnected}`, {
    requestId,
  });
}

/** `connection_lost`: the connection dropped while `what` was pending. */
export function connectionLostError(what: string, requestId: string | undefined): RelayTransportError {
  return new RelayTransportError('connection_lost', `${what}: ${GATEWAY_FAILURE_ERRORS.connectionLost}`, {
    requestId,
  });
}

/** `outbound_timeout`: no `outbound_result` for `requestId` within `timeoutMs`. */
export function outboundTimeoutError(requestId: string, timeoutMs: number): RelayTransportError {
  return new RelayTransportError(
    'outbound_timeout',
    `${GATEWAY_FAILURE_ERRORS.timedOut}: no outbound_result for ${requestId} within ${timeoutMs} ms`,
    { requestId, details: { timeoutMs } },
  );
}

/** `handshake_timeout`: no `descriptor` within `timeoutMs` of the hellos. */
export function handshakeTimeoutError(timeoutMs: number): RelayTransportError {
  return new RelayTransportError(
    'handshake_timeout',
    `relay handshake timed out: no descriptor within ${timeoutMs} ms`,
    { details: { timeoutMs } },
  );
}

/**
 * `descriptor_rejected`: the connector's descriptor could not be read, for `reason` (`cause`: the decode
 * error).
 */
export function descriptorRejectedError(reason: string, options?: ErrorOptions): RelayTransportError {
  return new RelayTransportError(
    'descriptor_rejected',
    `relay handshake failed: the connector's descriptor was rejected: ${reason}`,
    options,
  );
}

/**
 * `auth_revoked`: `what` (the call that failed: `send_outbound`, `handshake` …) met a revoked
 * gateway; `requestId` is that of the outbound frame written before the revocation, if any.
 */
export function authRevokedError(what: string, closeReason: string, requestId?: string): RelayTransportError {
  return new RelayTransportError(
    'auth_revoked',
    `${what}: relay disabled: the connector revoked this gateway (close 4401 "${closeReason}")`,
    { requestId, details: { closeReason } },
  );
}

/**
 * A `passthrough_forward` as the gateway hands it to its passthrough handler (Python's
 * `PassthroughForward`): the body decoded to the exact bytes the connector forwarded, headers as
 * `[name, value]` pairs in arrival order, `profile` `null` when absent.
 */
export interface PassthroughDelivery {
  readonly platform: string;
  readonly botId: string;
  readonly method: string;
  readonly path: string;
  readonly headers: readonly PassthroughHeader[];
  readonly body: Uint8Array;
  readonly profile: string | null;
}

/**
 * The delivery a decoded `forward` object becomes, with the gateway's body rule: anything but padded
 * standard base64 decodes to zero bytes, silently.
 *
 * @example
 * passthroughDeliveryFromForward(decodedFrame.forward).body; // the webhook's raw bytes
 */
export function passthroughDeliveryFromForward(forward: PassthroughForward): PassthroughDelivery {
  return {
    platform: forward.platform,
    botId: forward.botId,
    method: forward.method,
    path: forward.path,
    headers: forward.headers.map(([name, value]): PassthroughHeader => [name, value]),
    body: decodePassthroughBody(forward.bodyB64),
    profile: forward.profile ?? null,
  };
}

/**
 * Receives each inbound event (`set_inbound_handler` in Python). The transport awaits it before it
 * delivers the next inbound frame and before it acks a buffered one.
 */
export type InboundHandler = (event: MessageEvent) => void | Promise<void>;

/**
 * Receives each `interrupt_inbound`: stop the running turn of `sessionKey` and clear typing in
 * `chatId` (the gateway's `on_interrupt`). Missing keys arrive as `""`.
 */
export type InterruptInboundHandler = (sessionKey: string, chatId: string) => void | Promise<void>;

/**
 * Receives each `passthrough_forward` with its `bufferId` (`null` when it was not buffered); the
 * baseline gateway never acks passthrough buffers.
 */
export type PassthroughHandler = (
  forward: PassthroughDelivery,
  bufferId: string | null,
) => void | Promise<void>;

/** Per-call options of an outbound action. */
export interface OutboundOptions {
  /**
   * The chat's underlying platform, as learned from its inbound events: written as the frame's
   * `platform`, with that identity's `botId` when it was announced in a `hello` with a non-empty
   * bot id. Absent: the frame names no platform and the connector uses its session default.
   */
  readonly platform?: string;
}

/**
 * A chat's name and type as the gateway reads a `get_chat_info` result: `chat_info` (or the result
 * itself), `name` defaulting to the chat id and `type` to `"dm"`; values as the connector sent them.
 */
export type ResolvedChatInfo = ReturnType<typeof readChatInfo>;

/**
 * The gateway ⇄ connector link as the gateway's `RelayAdapter` drives it: the TypeScript form of
 * Python's `gateway.relay.transport.RelayTransport` protocol. The gateway dials out to the connector,
 * so a production transport is a WebSocket client; tests use `StubConnector` or the linked pair from
 * `@agentwire/relay/testing`.
 *
 * Ordering rules common to every implementation:
 * - Install the handlers (`onInbound`, `onInterruptInbound`, `onPassthrough`) **before** `connect()`:
 *   the connector drains its buffer right after the handshake, and a frame that arrives with no
 *   handler is dropped and not acked.
 * - Inbound frames are handled one at a time, in arrival order; a buffered `inbound` is acked
 *   (`inbound_ack`) only after its handler has returned, so an entry whose handler throws stays in
 *   the connector's buffer and is redelivered on the next handshake.
 * - Every outbound request gets exactly one outcome: the connector's result (whatever its `success`),
 *   or one {@link RelayTransportError}. A result that arrives after that outcome is ignored.
 * - `disconnect()` fails every pending request with a `RelayTransportError` `transport_closed`; a
 *   dropped connection fails them with `connection_lost`. Both are `retryable` and `ambiguous` (the
 *   connector may have acted); `not_connected` means nothing was sent.
 *
 * Members beyond the Python protocol: `onInterruptInbound`, `onPassthrough` and `goIdle` are methods
 * of the Python WebSocket transport (`set_interrupt_inbound_handler`, `set_passthrough_handler`,
 * `go_idle`) that the adapter calls when present; per-call `platform` is the keyword argument of its
 * `send_outbound` / `send_follow_up`. Where the Python transport returns a failure dict (not
 * connected, timeout, connection lost) this interface rejects with a `RelayTransportError`; its
 * `toResult()` gives the dict back.
 */
export interface RelayTransport {
  /**
   * Opens the connection and announces every fronted identity with a `hello`, in order. Resolves
   * `true` once the socket is open and the hellos are written — before the descriptor arrives: await
   * {@link handshake} next. Resolves `false` (never rejects) when the connection cannot be opened;
   * calling it again re-dials. Install the handlers first.
   */
  connect(): Promise<boolean>;

  /**
   * Closes the connection; idempotent. Pending outbound requests and a pending handshake reject
   * with a `RelayTransportError` `transport_closed` (retryable, ambiguous for written outbound
   * frames); later calls reject with `not_connected` until `connect()` is called again. Does not send
   * `going_idle`: call {@link goIdle} first for a graceful drain.
   */
  disconnect(): Promise<void>;

  /**
   * The capability descriptor the connector answered the **first** `hello` with (the session
   * default; later descriptors, one per further hello, never replace it). Resolves at once when it
   * has arrived. Rejects with a `RelayTransportError`: `not_connected` before `connect()`,
   * `handshake_timeout` (retryable) when none arrives in time, `descriptor_rejected` (not retryable)
   * when it cannot be read, and `transport_closed` when the transport is disconnected while waiting.
   */
  handshake(): Promise<CapabilityDescriptor>;

  /**
   * Installs the inbound handler, replacing any earlier one (`set_inbound_handler`). Install it
   * before `connect()`. Each `inbound` frame's event is passed in arrival order, one at a time; a
   * frame with a non-empty `bufferId` is acked after the handler resolves, never when it throws.
   */
  onInbound(handler: InboundHandler): void;

  /**
   * Installs the `interrupt_inbound` handler, replacing any earlier one. Install it before
   * `connect()`. Interrupts share the inbound order: they are handled after every frame received
   * before them.
   */
  onInterruptInbound(handler: InterruptInboundHandler): void;

  /**
   * Installs the `passthrough_forward` handler, replacing any earlier one. Install it before
   * `connect()`. Forwards share the inbound order.
   */
  onPassthrough(handler: PassthroughHandler): void;

  /**
   * Sends one action in an `outbound` frame with a fresh `requestId` and resolves with the
   * connector's `result` for that id — exactly one per request; a missing `result` reads as `{}`
   * (a failure). Check it against its op with `decodeOpResult`; any `success` but `true` is a
   * failure the connector decided, and a failed `send` is not retried by the transport.
   *
   * Rejects with a `RelayTransportError`: `not_connected` when nothing was sent, `outbound_timeout`
   * when no result came in time (the gateway waits 30 s), `transport_closed` / `connection_lost` when
   * the connection ended first — all retryable; the last three are ambiguous. An action that does not
   * match its op's schema rejects with a `RelayError` `invalid_frame` and is not sent.
   *
   * @example
   * const result = await transport.sendOutbound(
   *   { op: 'send', chat_id: 'chan1', content: 'hi' },
   *   { platform: 'discord' },
   * );
   * if (result['success'] !== true) console.warn(result['error']);
   */
  sendOutbound(action: OutboundActionInput, options?: OutboundOptions): Promise<OutboundResultObject>;

  /**
   * Looks up a chat through a `get_chat_info` outbound action (no metadata, no frame platform: the
   * connector must know the chat's platform) and reads the result as the gateway does. Rejects as
   * {@link sendOutbound}. (The Python transport resolves `{name: chat_id, type: "dm"}` on those
   * failures; so does `readChatInfo(error.toResult(), chatId)`.)
   */
  getChatInfo(chatId: string): Promise<ResolvedChatInfo>;

  /**
   * Writes an `interrupt` frame (`reason` is `null` when omitted): a mid-turn stop the connector
   * must route to the gateway instance that runs `sessionKey`. Fire-and-forget — no answer frame
   * exists. Rejects with a `RelayTransportError` `not_connected` when there is no connection.
   */
  sendInterrupt(sessionKey: string, reason?: string | null): Promise<void>;

  /**
   * Sends a `follow_up` action: act on the shared-identity capability the connector bound to
   * `session_key` (e.g. `kind: "discord.interaction_token"`). The action carries no token. Same
   * outcome rules as {@link sendOutbound}; `success: false` means the capability is absent, expired
   * or belongs to another tenant, and there is nothing to retry with.
   */
  sendFollowUp(action: OpParamsInput['follow_up'], options?: OutboundOptions): Promise<OutboundResultObject>;

  /**
   * Sends `going_idle` and waits for `going_idle_ack` (the connector has flipped this gateway to
   * buffered-only; default wait 10 s). Resolves `false` — never rejects — when not connected, when
   * no ack arrives in time, or when the connection ends first; the caller closes anyway. Inbound
   * frames keep being delivered until the ack. Optional: callers check for it.
   */
  goIdle?(timeoutMs?: number): Promise<boolean>;
}

/**
 * A fresh outbound `requestId` in the gateway's format: `uuid4().hex`, 32 lowercase hex digits with no
 * dashes. Uses the global Web Crypto `randomUUID` (Node ≥ 19, browsers, workers).
 *
 * @example
 * newRequestId(); // '9f0c6d1e2b3a4c5d8e7f601a2b3c4d5e'
 */
export function newRequestId(): string {
  return crypto.randomUUID().replaceAll('-', '');
}
