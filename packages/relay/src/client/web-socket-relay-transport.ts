import WebSocket from 'ws';
import type { CapabilityDescriptor } from '../descriptor.js';
import { RELAY_CLOSE_PEER_LIMIT, type RelayError } from '../errors.js';
import type { OpParamsInput, OutboundActionInput } from '../frames/actions.js';
import {
  type ConnectorFrame,
  type GatewayFrameInput,
  type InboundFrame,
  type InterruptInboundFrame,
  type OutboundFrameInput,
  type OutboundResultObject,
  type PassthroughForwardFrame,
  readChatInfo,
  type UnknownFrame,
} from '../frames/frames.js';

import { deferred, within } from '../internal.js';
import { eventFromOwnedWire } from '../message-event.js';
import { DEFAULT_MAX_LINE_BYTES, encodeFrame } from '../ndjson.js';
import {
  authRevokedError,
  connectionLostError,
  descriptorRejectedError,
  handshakeTimeoutError,
  type InboundHandler,
  type InterruptInboundHandler,
  notConnectedError,
  type OutboundOptions,
  type PassthroughHandler,
  passthroughDeliveryFromForward,
  type RelayTransport,
  type RelayTransportError,
  type ResolvedChatInfo,
  transportClosedError,
} from '../transport.js';
import { ClientConnection, inboundAckLine, messageChunk, startKeepalive } from './client-connection.js';
import {
  AuthClosePolicy,
  positiveMs,
  ReconnectBackoff,
  RelayClientEmitter,
  type RelayClientEvents,
  type RelayClientState,
  type ResolvedClientOptions,
  resolveClientOptions,
  type WebSocketRelayTransportOptions,
} from './options.js';

/** How long `disconnect()` waits for the connector's close frame before it drops the socket. */
const CLOSE_GRACE_MS = 1_000;

type SequencedFrame = InboundFrame | InterruptInboundFrame | PassthroughForwardFrame;

/**
 * The gateway's side of the relay link over a real WebSocket (`ws`): the TypeScript form of the
 * Python gateway's `WebSocketRelayTransport`. It dials `<url>/relay` with a freshly minted bearer
 * token, writes one `hello` per identity (Python `json.dumps` bytes, one frame per text message),
 * reads the connector's frames through a `FrameDecoder` (batched or split frames, binary or text
 * messages), correlates `outbound_result`s by `requestId`, and handles `inbound`,
 * `interrupt_inbound` and `passthrough_forward` one at a time in arrival order, acking a buffered
 * `inbound` after its handler resolves. It behaves like the linked pair of `@agentwire/relay/testing`
 * in every rule of {@link RelayTransport}.
 *
 * **Reconnects.** After `connect()`, an unexpected close or a failed dial re-dials after 1 s,
 * doubling to 30 s (reset by each completed handshake), writes the hellos again and waits for a new
 * descriptor; `disconnect()` stops it. Close code 4401 follows newer gateways: before any handshake
 * it is retried; reason `"expired"` is retried; any other 4401 after a handshake gets one immediate
 * re-dial with a fresh token, and a second 4401 there is a revocation: the transport becomes
 * `revoked` for good, pending and later calls reject with a `RelayTransportError` `auth_revoked`,
 * `connect()` resolves `false`, and the `revoked` event fires.
 *
 * **Observing.** {@link state} and the events of {@link on}: `state`, `connected`, `handshake`,
 * `disconnected`, `redial`, `revoked`, and `error` for what went wrong without failing a call (a dial that did
 * not open, an undecodable line, a handler that threw).
 *
 * Deliberate differences from the Python transport, shared with the linked pair: a malformed or
 * non-object line is reported and skipped (the Python reader dies on a non-object line), a bad first
 * descriptor fails `handshake()` at once, and results, descriptors and `going_idle_ack` are read while
 * an inbound handler runs (the Python reader stalls until its 30 s timeout).
 *
 * @example
 * const transport = new WebSocketRelayTransport({
 *   url: process.env.GATEWAY_RELAY_URL!,
 *   gatewayId: process.env.GATEWAY_RELAY_ID,
 *   secret: process.env.GATEWAY_RELAY_SECRET,
 *   identities: [{ platform: 'discord', botId: 'app1' }],
 * });
 * transport.on('revoked', (error) => log.fatal(error.message));
 * transport.onInbound(async (event) => runTurn(event));
 * if (await transport.connect()) {
 *   const descriptor = await transport.handshake();
 *   await transport.sendOutbound({ op: 'send', chat_id: 'chan1', content: 'online' }, { platform: 'discord' });
 * }
 * // shutting down:
 * await transport.goIdle();
 * await transport.disconnect();
 */
export class WebSocketRelayTransport implements RelayTransport {
  readonly #options: ResolvedClientOptions;
  readonly #events = new RelayClientEmitter();
  readonly #backoff: ReconnectBackoff;
  readonly #authPolicy = new AuthClosePolicy();
  #state: RelayClientState = 'idle';
  /** The open connection. */
  #connection: ClientConnection | undefined;
  /** The dial in progress and what it resolves `connect()` with. */
  #dial: { readonly connection: ClientConnection; readonly opened: Promise<boolean> } | undefined;
  #redialTimer: ReturnType<typeof setTimeout> | undefined;
  /** Re-dials are wanted: `connect()` was called and neither `disconnect()` nor a revocation followed. */
  #supervising = false;
  /** The close reason of the 4401 that revoked this gateway, once one did. */
  #revokedWith: string | undefined;
  #inbound: InboundHandler | undefined;
  #interruptInbound: InterruptInboundHandler | undefined;
  #passthrough: PassthroughHandler | undefined;

  /** @throws {RelayError} `invalid_client_options`: when an option is unusable. */
  constructor(options: WebSocketRelayTransportOptions) {
    this.#options = resolveClientOptions(options);
    this.#backoff = new ReconnectBackoff(this.#options.backoff);
  }

  /** Where the transport stands; see `RelayClientState`. */
  get state(): RelayClientState {
    return this.#state;
  }

  /** Whether a connection is open (frames can be sent). */
  get connected(): boolean {
    return this.#connection !== undefined;
  }

  /** The WebSocket URL every dial uses, derived from `url`. */
  get dialUrl(): string {
    return this.#options.dialUrl;
  }

  /**
   * Adds an event listener; returns the function that removes it. Listeners run synchronously; one
   * that throws is ignored.
   *
   * @example
   * const off = transport.on('disconnected', ({ code, reconnectInMs }) => log.warn({ code, reconnectInMs }));
   */
  on<E extends keyof RelayClientEvents>(event: E, listener: RelayClientEvents[E]): () => void {
    return this.#events.on(event, listener);
  }

  /** The descriptor the open connection received for `platform` (one per hello), if any. */
  descriptorFor(platform: string): CapabilityDescriptor | undefined {
    return this.#connection?.descriptors.get(platform);
  }

  /**
   * Dials the connector, writes every `hello` and resolves `true` once the socket is open (await
   * {@link handshake} next); resolves `false` when the dial fails — with `reconnect` on, re-dials
   * keep going in the background until `disconnect()`. Joins a dial in progress; dials at once when
   * a re-dial is scheduled; resolves `true` at once when connected and `false` once revoked.
   */
  connect(): Promise<boolean> {
    if (this.#revokedWith !== undefined) return Promise.resolve(false);
    if (this.#connection !== undefined) return Promise.resolve(true);
    this.#supervising = true;
    if (this.#dial !== undefined) return this.#dial.opened;
    this.#cancelRedial();
    return this.#startDial('connecting');
  }

  /**
   * Closes the connection and stops re-dialling; idempotent. Pending requests and a pending handshake reject
   * with a `RelayTransportError` `transport_closed`, a pending `goIdle()` resolves `false`, a dial in
   * progress is abandoned. Resolves once the socket is closed (forced after 1 s). Does not send `going_idle`:
   * call {@link goIdle} first for a graceful drain. A revoked transport stays revoked.
   */
  async disconnect(): Promise<void> {
    this.#supervising = false;
    this.#cancelRedial();
    const dial = this.#dial;
    if (dial !== undefined) dial.connection.aborted = true;
    const connection = this.#connection;
    this.#connection = undefined;
    if (this.#state !== 'idle' && this.#state !== 'revoked') this.#setState('closed');
    const closing: Promise<void>[] = [];
    if (dial !== undefined) closing.push(dial.connection.close(CLOSE_GRACE_MS));
    if (connection !== undefined) {
      this.#failConnection(connection, (what, requestId) => transportClosedError(what, requestId));
      closing.push(connection.close(CLOSE_GRACE_MS));
    }
    await Promise.all(closing);
  }

  /**
   * The descriptor the connector answered the first `hello` of the open connection with. Rejects with a
   * `RelayTransportError`: `not_connected` when no connection is open, `handshake_timeout` after
   * `handshakeTimeoutMs`, `descriptor_rejected` for an unreadable descriptor, `connection_lost` /
   * `transport_closed` when the connection ends first, and `auth_revoked` once revoked. After a reconnect it
   * waits for the new connection's descriptor (the `handshake` event announces each one).
   */
  async handshake(): Promise<CapabilityDescriptor> {
    const connection = this.#requireConnection('handshake');
    if (connection.descriptor !== undefined) return connection.descriptor;
    const timeoutMs = this.#options.handshakeTimeoutMs;
    return within(connection.handshake.promise, timeoutMs, () => handshakeTimeoutError(timeoutMs));
  }

  onInbound(handler: InboundHandler): void {
    this.#inbound = handler;
  }

  onInterruptInbound(handler: InterruptInboundHandler): void {
    this.#interruptInbound = handler;
  }

  onPassthrough(handler: PassthroughHandler): void {
    this.#passthrough = handler;
  }

  sendOutbound(action: OutboundActionInput, options: OutboundOptions = {}): Promise<OutboundResultObject> {
    return this.#request(action, options.platform, 'send_outbound');
  }

  sendFollowUp(
    action: OpParamsInput['follow_up'],
    options: OutboundOptions = {},
  ): Promise<OutboundResultObject> {
    return this.#request(action, options.platform, 'send_follow_up');
  }

  async getChatInfo(chatId: string): Promise<ResolvedChatInfo> {
    const result = await this.#request({ op: 'get_chat_info', chat_id: chatId }, undefined, 'get_chat_info');
    return readChatInfo(result, chatId);
  }

  async sendInterrupt(sessionKey: string, reason: string | null = null): Promise<void> {
    const connection = this.#requireConnection('send_interrupt');
    this.#write(connection, { type: 'interrupt', session_key: sessionKey, reason });
  }

  /**
   * Sends `going_idle` and resolves `true` when `going_idle_ack` arrives within `timeoutMs` (default
   * `goingIdleTimeoutMs`, 10 s); `false` — never rejecting — when not connected, on timeout, or when
   * the connection ends first. Inbound frames keep being delivered meanwhile. It does not close the
   * socket: call `disconnect()` next. Rejects only for an unusable `timeoutMs`
   * (a `RelayError` `invalid_client_options`).
   */
  async goIdle(timeoutMs: number = this.#options.goingIdleTimeoutMs): Promise<boolean> {
    const waitMs = positiveMs(timeoutMs, this.#options.goingIdleTimeoutMs, 'timeoutMs');
    const connection = this.#connection;
    if (connection === undefined) return false;
    connection.goingIdleAck?.resolve(false);
    const ack = deferred<boolean>();
    connection.goingIdleAck = ack;
    this.#write(connection, { type: 'going_idle' });
    const timer = setTimeout(() => ack.resolve(false), waitMs);
    try {
      return await ack.promise;
    } finally {
      clearTimeout(timer);
      if (connection.goingIdleAck === ack) connection.goingIdleAck = undefined;
    }
  }

  async #request(
    action: OutboundActionInput,
    platform: string | undefined,
    what: string,
  ): Promise<OutboundResultObject> {
    const connection = this.#requireConnection(what);
    const requestId = this.#options.newRequestId();
    const frame: OutboundFrameInput = { type: 'outbound', requestId, action, ...this.#routing(platform) };
    const line = encodeFrame(frame, { style: 'python' });
    const result = connection.pending.wait(requestId, what);
    connection.write(line);
    // A waiting request keeps the socket read (its result comes on it); re-check once it settles.
    connection.holdReading();
    const recheck = () => connection.holdReading();
    result.then(recheck, recheck);
    return result;
  }

  /** The open connection, or the error a call made now rejects with. */
  #requireConnection(what: string): ClientConnection {
    if (this.#revokedWith !== undefined) throw authRevokedError(what, this.#revokedWith);
    if (this.#connection === undefined) throw notConnectedError(what);
    return this.#connection;
  }

  /** Frame `platform` when one is given; its `botId` only when that identity has a non-empty one. */
  #routing(platform: string | undefined): { platform?: string; botId?: string } {
    if (!platform) return {};
    const botId = this.#options.identities.find((identity) => identity.platform === platform)?.botId;
    return botId ? { platform, botId } : { platform };
  }

  #write(connection: ClientConnection, frame: GatewayFrameInput): void {
    connection.write(encodeFrame(frame, { style: 'python' }));
  }

  #startDial(state: 'connecting' | 'reconnecting'): Promise<boolean> {
    this.#setState(state);
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.#options.dialUrl, {
        maxPayload: DEFAULT_MAX_LINE_BYTES,
        ...this.#options.webSocketOptions,
        headers: this.#options.upgradeHeaders(),
      });
    } catch (error) {
      this.#events.emit('error', error);
      this.#dialFailed();
      return Promise.resolve(false);
    }
    socket.binaryType = 'nodebuffer';
    const { outboundTimeoutMs, sendBounds: bounds, maxQueuedFrames } = this.#options;
    const connection = new ClientConnection(socket, {
      outboundTimeoutMs,
      bounds,
      maxQueuedFrames,
      onDrop: (error) => this.#events.emit('error', error),
    });
    const opened = new Promise<boolean>((resolve) => {
      socket.on('open', () => {
        this.#dial = undefined;
        this.#opened(connection);
        resolve(true);
      });
      socket.on('message', (data, isBinary) => {
        if (this.#connection === connection) this.#receive(connection, messageChunk(data, isBinary));
      });
      socket.on('error', (error) => {
        if (!connection.aborted) this.#events.emit('error', error);
      });
      socket.on('close', (code, reason) => {
        if (connection.opened) {
          // A socket this side dropped closes without a close frame: report the code it was closed with.
          const dropped = connection.dropped;
          if (dropped !== undefined) this.#closed(connection, RELAY_CLOSE_PEER_LIMIT, dropped);
          else this.#closed(connection, code, reason.toString('utf8'));
          return;
        }
        if (this.#dial?.connection === connection) this.#dial = undefined;
        resolve(false);
        if (!connection.aborted) this.#dialFailed();
      });
    });
    this.#dial = { connection, opened };
    return opened;
  }

  #opened(connection: ClientConnection): void {
    connection.opened = true;
    const { pingIntervalMs, pingTimeoutMs } = this.#options;
    if (pingIntervalMs > 0) {
      startKeepalive(connection.socket, pingIntervalMs, pingTimeoutMs, () => !connection.reading);
    }
    this.#connection = connection;
    for (const line of this.#options.helloLines) connection.write(line);
    this.#setState('open');
    this.#events.emit('connected');
  }

  /** A dial ended before its socket opened: re-dial after the backoff delay, or stop. */
  #dialFailed(): void {
    if (this.#supervising && this.#options.reconnect) {
      this.#scheduleRedial(this.#backoff.next());
      this.#setState('reconnecting');
    } else {
      this.#supervising = false;
      this.#setState('closed');
    }
  }

  /** The open `connection` closed with `code` and `reason` (not through `disconnect()`). */
  #closed(connection: ClientConnection, code: number, reason: string): void {
    if (this.#connection !== connection) return;
    this.#connection = undefined;
    for (const result of connection.decoder.end()) if (!result.ok) this.#events.emit('error', result.error);
    const decision = this.#authPolicy.connectionClosed(code, reason);
    if (decision.kind === 'revoked') {
      const revocation = authRevokedError('connection', decision.reason);
      this.#revokedWith = decision.reason;
      this.#supervising = false;
      this.#failConnection(connection, (what, requestId) =>
        authRevokedError(what, decision.reason, requestId),
      );
      this.#setState('revoked');
      this.#events.emit('disconnected', { code, reason, reconnectInMs: null });
      this.#events.emit('revoked', revocation);
      return;
    }
    this.#failConnection(connection, (what, requestId) => connectionLostError(what, requestId));
    let reconnectInMs: number | null = null;
    if (this.#supervising && this.#options.reconnect) {
      reconnectInMs = decision.kind === 'redial_now' ? 0 : this.#backoff.next();
      this.#scheduleRedial(reconnectInMs);
      this.#setState('reconnecting');
    } else {
      this.#supervising = false;
      this.#setState('closed');
    }
    this.#events.emit('disconnected', { code, reason, reconnectInMs });
  }

  /** Fails everything waiting on `connection` with the error `error` builds. */
  #failConnection(
    connection: ClientConnection,
    error: (what: string, requestId: string | undefined) => RelayTransportError,
  ): void {
    connection.pending.failAll(error);
    connection.handshake.reject(error('handshake', undefined));
    connection.goingIdleAck?.resolve(false);
  }

  #scheduleRedial(delayMs: number): void {
    this.#cancelRedial();
    this.#redialTimer = setTimeout(() => {
      this.#redialTimer = undefined;
      void this.#startDial('reconnecting');
    }, delayMs);
    this.#events.emit('redial', { delayMs });
  }

  #cancelRedial(): void {
    if (this.#redialTimer === undefined) return;
    clearTimeout(this.#redialTimer);
    this.#redialTimer = undefined;
  }

  #setState(state: RelayClientState): void {
    const previous = this.#state;
    if (previous === state) return;
    this.#state = state;
    this.#events.emit('state', state, previous);
  }

  #receive(connection: ClientConnection, chunk: string | Uint8Array): void {
    const results = connection.decoder.push(chunk);
    // What one frame of this message costs while it waits for its handler, roughly.
    const share = Math.ceil(chunk.length / Math.max(1, results.length));
    for (const result of results) {
      if (!result.ok) {
        this.#events.emit('error', result.error);
        if (result.error.code === 'invalid_frame') this.#refused(connection, result.error);
        continue;
      }
      // A listener may have closed the connection while an earlier frame of this chunk was handled.
      if (this.#connection !== connection) return;
      this.#dispatch(connection, result.frame, share);
    }
  }

  /**
   * A frame that claimed a known type and was refused: a bad first descriptor fails the handshake; an
   * `outbound_result` whose `requestId` a call waits for answers that call at once with a failed
   * result (the connector did answer, unreadably) instead of leaving it to time out.
   */
  #refused(connection: ClientConnection, error: RelayError): void {
    const frameType = error.details?.frameType;
    const requestId = error.details?.raw?.['requestId'];
    if (frameType === 'descriptor') {
      connection.handshake.reject(descriptorRejectedError(error.message, { cause: error }));
    } else if (frameType === 'outbound_result' && typeof requestId === 'string') {
      connection.pending.resolve(requestId, { success: false, error: error.message });
    }
  }

  #dispatch(connection: ClientConnection, frame: ConnectorFrame | UnknownFrame, size: number): void {
    switch (frame.type) {
      case 'descriptor': {
        const descriptor = frame.descriptor;
        const platform = descriptor.platform;
        if (typeof platform === 'string' && platform !== '' && !connection.descriptors.has(platform)) {
          connection.descriptors.set(platform, descriptor);
        }
        if (connection.descriptor !== undefined) return;
        connection.descriptor = descriptor;
        this.#authPolicy.handshakeCompleted();
        this.#backoff.reset();
        connection.handshake.resolve(descriptor);
        this.#events.emit('handshake', descriptor);
        return;
      }
      case 'outbound_result':
        connection.pending.resolve(frame.requestId, frame.result);
        return;
      case 'going_idle_ack':
        connection.goingIdleAck?.resolve(true);
        return;
      case 'inbound':
      case 'interrupt_inbound':
      case 'passthrough_forward':
        connection.sequence(() => this.#handleInOrder(connection, frame), size);
        return;
      default:
        return;
    }
  }

  /** Runs one sequenced frame's handler; acks a buffered one after it. Never rejects. */
  async #handleInOrder(connection: ClientConnection, frame: SequencedFrame): Promise<void> {
    if (this.#connection !== connection) return;
    try {
      switch (frame.type) {
        case 'inbound': {
          const handler = this.#inbound;
          if (handler === undefined) return;
          // The decoder parsed and checked the event, and nothing else holds it.
          await handler(eventFromOwnedWire(frame.event));
          this.#ack(connection, frame.bufferId);
          return;
        }
        case 'interrupt_inbound':
          await this.#interruptInbound?.(frame.session_key, frame.chat_id);
          return;
        case 'passthrough_forward': {
          const handler = this.#passthrough;
          if (handler === undefined) return;
          await handler(passthroughDeliveryFromForward(frame.forward), frame.bufferId ?? null);
          if (this.#options.ackPassthrough) this.#ack(connection, frame.bufferId);
          return;
        }
      }
    } catch (error) {
      this.#events.emit('error', error);
    }
  }

  #ack(connection: ClientConnection, bufferId: string | null | undefined): void {
    if (!bufferId || this.#connection !== connection) return;
    connection.write(inboundAckLine(bufferId));
  }
}
