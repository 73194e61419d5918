import type { CapabilityDescriptor } from '../descriptor/index.js';
import type {
  OpParamsInput,
  OutboundActionInput,
  OutboundResultObject,
  readChatInfo,
} from '../frames/index.js';
import type { MessageEvent } from '../message-event/index.js';
import type { PassthroughDelivery } from './passthrough-delivery.js';

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
