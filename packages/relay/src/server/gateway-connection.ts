import type { WebSocket } from 'ws';
import { BoundedSocket } from '../bounded-socket.js';
import type { InboundBuffer } from '../buffer.js';
import type { RelayBusMessage, RelayBusSubscription } from '../bus.js';
import { descriptorToWire } from '../descriptor.js';
import { isFrameError, type PeerLimit, RelayError } from '../errors.js';
import { decodeGatewayFrame } from '../frames/decode.js';
import type {
  GatewayFrame,
  HelloFrame,
  InterruptFrame,
  OutboundFrame,
  OutboundResultObject,
  UnknownFrame,
} from '../frames/frames.js';
import { within } from '../internal.js';
import { encodeFrame, FrameDecoder } from '../ndjson.js';
import type { CapabilityVault } from '../vault.js';
import {
  acceptedBefore,
  type ChatRoute,
  type ChatRouteContext,
  type ResolvedServerOptions,
  type ServedPlatform,
} from './options.js';
import {
  executeOutbound,
  failureResult,
  outboundResultLine,
  ReplayPump,
  RunningOutboundCalls,
} from './outbound.js';
import { callbackError } from './platform-adapter.js';
import type { RecentChats } from './recent-chats.js';

/** A hello'd identity of a connection and the platform adapter that serves it. */
export interface ConnectionIdentity {
  /** The platform the hello named. */
  readonly platform: string;
  readonly botId: string;
  readonly served: ServedPlatform;
}

/**
 * Where a connection is in its life: waiting for its first answerable hello, delivering (`active`),
 * buffered-only after `going_idle`, or closed.
 */
export type ConnectionPhase = 'handshaking' | 'active' | 'idle' | 'closed';

/** What a connection needs from its server. */
export interface ConnectionHost {
  readonly options: ResolvedServerOptions;
  readonly buffer: InboundBuffer;
  readonly vault: CapabilityVault;
  /** The chats and sessions this server delivered inbound events for. */
  readonly recentChats: RecentChats;
  /** Subscribes `listener` to the tenant's bus messages. */
  subscribe(tenant: string, listener: (message: RelayBusMessage) => void): Promise<RelayBusSubscription>;
  /** Tells the other connections of the tenant, on every instance, that this one takes over. */
  publishTakeover(connection: GatewayConnection): Promise<void>;
  /** The first descriptor was sent and the tenant's bus subscription is live: the connection now delivers. */
  activated(connection: GatewayConnection): void;
  /** Replay waited for the socket backlog to drain. */
  backpressure(connection: GatewayConnection, bufferedAmount: number): void;
  /** A fault of the peer (a bad line, an unknown platform, a passed limit). */
  warn(error: Error): void;
  /** A fault of this side (a throwing callback, a failing bus or buffer). */
  fail(error: Error): void;
}

/** Facts about a gateway connection, as the server's events report them. */
export interface GatewayConnectionInfo {
  readonly connectionId: string;
  readonly gatewayId: string;
  readonly tenant: string;
}

/**
 * One authenticated gateway socket: reads its NDJSON frames, answers hellos with descriptors and
 * outbound frames with exactly one `outbound_result` each, replays the tenant's buffered entries once
 * active, forwards interrupts both ways, and flips to buffered-only on `going_idle`.
 */
export class GatewayConnection implements GatewayConnectionInfo {
  readonly connectionId: string;
  readonly gatewayId: string;
  readonly tenant: string;
  readonly #ws: WebSocket;
  readonly #host: ConnectionHost;
  readonly #sender: BoundedSocket;
  readonly #decoder: FrameDecoder<GatewayFrame | UnknownFrame>;
  readonly #pump: ReplayPump;
  readonly #running: RunningOutboundCalls;
  readonly #identities: ConnectionIdentity[] = [];
  /** Outbound frames waiting for `routeChat`. */
  #routing = 0;
  /** Received messages not fully handled yet (while the socket holds), oldest first. */
  readonly #received: (string | Buffer)[] = [];
  /** Lines refused so far (malformed, or a hello for an unknown platform). */
  #refusedLines = 0;
  /** Acks and interrupts started and not finished; see {@link #unanswered}. */
  #unansweredCount = 0;
  /** Where the next line of `#received[0]` starts (UTF-16 units of a string, bytes of a buffer). */
  #receivedOffset = 0;
  #phase: ConnectionPhase = 'handshaking';
  #subscription: Promise<RelayBusSubscription | undefined> | undefined;
  /** Cleared on each ping; a socket still `false` at the next ping is dead. */
  #alive = true;

  constructor(ws: WebSocket, info: GatewayConnectionInfo, host: ConnectionHost) {
    this.connectionId = info.connectionId;
    this.gatewayId = info.gatewayId;
    this.tenant = info.tenant;
    this.#ws = ws;
    this.#host = host;
    const { maxBufferedAmount, dropBufferedAmount, drainTimeoutMs } = host.options;
    this.#sender = new BoundedSocket(
      ws,
      { pauseAbove: maxBufferedAmount, dropAbove: dropBufferedAmount, drainTimeoutMs },
      { onDrop: (error) => this.#dropped(error), onResume: () => this.#drain() },
    );
    this.#running = new RunningOutboundCalls(host.options.outboundTimeoutMs);
    this.#decoder = new FrameDecoder({ decode: decodeGatewayFrame, maxLineBytes: host.options.maxPayload });
    this.#pump = new ReplayPump({
      tenant: info.tenant,
      buffer: host.buffer,
      sender: this.#sender,
      batchSize: host.options.replayBatchSize,
      maxBufferedAmount: host.options.maxBufferedAmount,
      onBackpressure: (amount) => host.backpressure(this, amount),
      onError: (error) => host.fail(callbackError('buffer.read', error)),
    });
    ws.on('message', (data: Buffer, isBinary: boolean) =>
      this.#receive(isBinary ? data : data.toString('utf8')),
    );
    ws.on('pong', () => {
      this.#alive = true;
    });
  }

  /** Where the connection is in its life. */
  get phase(): ConnectionPhase {
    return this.#phase;
  }

  /** The hello'd identities answered so far; the first is the session default. */
  get identities(): readonly ConnectionIdentity[] {
    return this.#identities;
  }

  /** Bytes queued on the socket and not yet handed to the OS. */
  get bufferedAmount(): number {
    return this.#sender.backlog;
  }

  /** The limit the gateway passed, when the server dropped the connection for it. */
  get dropped(): PeerLimit | undefined {
    return this.#sender.dropped;
  }

  /**
   * Pings the gateway; terminates the socket when the previous ping got no pong. Skipped while the
   * socket is not read (a pong could not be seen).
   */
  heartbeat(): void {
    if (this.#ws.readyState !== this.#ws.OPEN) return;
    if (!this.#sender.reading) {
      // A pong cannot be read while the socket is held; the flow-control deadlines judge the peer then.
      this.#alive = true;
      return;
    }
    if (!this.#alive) {
      this.#ws.terminate();
      return;
    }
    this.#alive = false;
    this.#ws.ping();
  }

  /** Closes the socket with `code` and `reason`; {@link closed} follows when it is closed. */
  close(code: number, reason: string): void {
    this.#ws.close(code, reason);
  }

  /** Called by the server once the socket is closed: stops everything and drops the subscription. */
  closed(): void {
    if (this.#phase === 'closed') return;
    this.#phase = 'closed';
    this.#pump.stop();
    this.#running.closeAll(new RelayError('relay_server_connection_closed', 'the gateway connection closed'));
    this.#unsubscribe();
  }

  /** The gateway passed a limit and the socket is being dropped: stop now, report it. */
  #dropped(error: RelayError): void {
    this.closed();
    this.#host.warn(error);
  }

  #receive(chunk: string | Buffer): void {
    if (chunk.length === 0) return;
    this.#received.push(chunk);
    if (this.#received.length === 1) this.#drain();
  }

  /**
   * Handles the received messages line by line, in order, while the gateway is read. Once its backlog
   * makes the socket hold, the rest waits undecoded until the backlog drains: a gateway that sends a
   * message of thousands of requests and reads none of the answers gets no more than the bound, and
   * costs no more than the messages it already sent.
   */
  #drain(): void {
    const received = this.#received;
    while (received.length > 0 && this.#sender.reading && this.#phase !== 'closed') {
      const chunk = received[0] as string | Buffer;
      const newline = chunk.indexOf('\n', this.#receivedOffset);
      const end = newline === -1 ? chunk.length : newline + 1;
      const start = this.#receivedOffset;
      const piece =
        start === 0 && end === chunk.length
          ? chunk
          : typeof chunk === 'string'
            ? chunk.slice(start, end)
            : chunk.subarray(start, end);
      if (end === chunk.length) {
        received.shift();
        this.#receivedOffset = 0;
      } else this.#receivedOffset = end;
      for (const result of this.#decoder.push(piece)) {
        if (result.ok) this.#dispatch(result.frame);
        else this.#badLine(result.error);
      }
    }
    if (this.#phase === 'closed') received.length = 0;
  }

  #dispatch(frame: GatewayFrame | UnknownFrame): void {
    if (this.#phase === 'closed') return;
    switch (frame.type) {
      case 'hello':
        this.#hello(frame);
        return;
      case 'outbound':
        void this.#outbound(frame);
        return;
      case 'inbound_ack':
        this.#unanswered(
          this.#host.buffer.ack(this.tenant, frame.bufferId).catch((error: unknown) => {
            this.#host.fail(callbackError('buffer.ack', error));
          }),
        );
        return;
      case 'going_idle':
        this.#goIdle();
        return;
      case 'interrupt':
        this.#unanswered(this.#interrupt(frame));
        return;
      default:
        return;
    }
  }

  /** A line that is not a frame: skipped, except an `outbound` whose `requestId` can still be answered. */
  #badLine(error: RelayError): void {
    if (this.#refused()) return;
    this.#host.warn(error);
    if (error.code !== 'invalid_frame' || error.details?.frameType !== 'outbound') return;
    const requestId = error.details.raw?.['requestId'];
    if (typeof requestId === 'string')
      this.#answer(requestId, failureResult(`invalid outbound frame: ${error.message}`));
  }

  /** Counts a refused line; past {@link MAX_REFUSED_LINES} drops the connection (`true` then). */
  #refused(): boolean {
    this.#refusedLines += 1;
    if (this.#refusedLines <= MAX_REFUSED_LINES) return false;
    this.#sender.drop('bad_frames', `more than ${MAX_REFUSED_LINES} lines refused on one connection`);
    return true;
  }

  #hello(hello: HelloFrame): void {
    const { platforms, fallbackPlatform } = this.#host.options;
    const served = platforms.get(hello.platform) ?? fallbackPlatform;
    if (served === undefined) {
      if (!this.#refused())
        this.#host.warn(
          new RelayError(
            'relay_server_unknown_platform',
            `no platform adapter for hello platform ${JSON.stringify(hello.platform)}`,
            { path: 'platform', details: { platform: hello.platform } },
          ),
        );
      return;
    }
    const known = this.#identities.some(
      (identity) => identity.platform === hello.platform && identity.botId === hello.botId,
    );
    if (!known) {
      const { maxIdentities } = this.#host.options;
      if (this.#identities.length >= maxIdentities) {
        this.#sender.drop('identities', `more than ${maxIdentities} identities said hello on one connection`);
        return;
      }
      this.#identities.push({ platform: hello.platform, botId: hello.botId, served });
    }
    this.#send(descriptorLine(served));
    if (this.#phase === 'handshaking') void this.#activate();
  }

  /** After the first descriptor: subscribe to the tenant, take over from older sockets, replay. */
  async #activate(): Promise<void> {
    this.#phase = 'active';
    this.#subscription = this.#host
      .subscribe(this.tenant, (message) => this.#busMessage(message))
      .catch((error: unknown) => {
        this.#host.fail(callbackError('bus.subscribe', error));
        return undefined;
      });
    const subscription = await this.#subscription;
    if (this.#phase !== 'active') {
      // Went idle or closed while subscribing: #unsubscribe already ran on the pending promise.
      return;
    }
    if (subscription !== undefined) {
      await this.#host.publishTakeover(this).catch((error: unknown) => {
        this.#host.fail(callbackError('bus.publish', error));
      });
    }
    this.#host.activated(this);
    this.#pump.wake();
  }

  #busMessage(message: RelayBusMessage): void {
    if (this.#phase !== 'active') return;
    switch (message.type) {
      case 'buffered':
        this.#pump.wake();
        return;
      case 'interrupt_inbound':
        this.#send(
          encodeFrame({
            type: 'interrupt_inbound',
            session_key: message.session_key,
            chat_id: message.chat_id,
          }),
        );
        return;
      case 'takeover':
        if (
          message.connectionId !== this.connectionId &&
          !acceptedBefore(message.connectionId, this.connectionId)
        ) {
          this.close(1000, 'replaced');
        }
        return;
    }
  }

  /** `going_idle`: send nothing more (entries stay buffered for the next connection), then ack. */
  #goIdle(): void {
    if (this.#phase === 'handshaking' || this.#phase === 'active') {
      this.#phase = 'idle';
      this.#pump.stop();
      this.#unsubscribe();
    }
    this.#send(encodeFrame({ type: 'going_idle_ack' }));
  }

  async #outbound(frame: OutboundFrame): Promise<void> {
    const { maxRunningOutbound } = this.#host.options;
    // A frame waiting for `routeChat` counts as running: a hung rule cannot pile up frames.
    if (this.#running.size + this.#routing >= maxRunningOutbound) {
      this.#answer(
        frame.requestId,
        failureResult(`busy: ${maxRunningOutbound} outbound calls are already running on this connection`),
      );
      return;
    }
    this.#routing += 1;
    let identity: ConnectionIdentity | string;
    try {
      identity = await this.#identityFor(frame);
    } finally {
      this.#routing -= 1;
    }
    if (typeof identity === 'string') {
      this.#answer(frame.requestId, failureResult(identity));
      return;
    }
    const result = await executeOutbound({
      action: frame.action,
      platform: identity.served,
      context: {
        tenant: this.tenant,
        gatewayId: this.gatewayId,
        platform: identity.platform,
        botId: identity.botId,
        requestId: frame.requestId,
      },
      vault: this.#host.vault,
      running: this.#running,
    });
    this.#answer(frame.requestId, result);
  }

  /**
   * The identity an outbound frame targets: the hello'd one with its `platform` (and `botId` when
   * given); for a frame without a platform, the one `routeChat` picks, else that of the chat's latest
   * inbound event delivered here, else the session default. A text saying why there is none.
   */
  async #identityFor(frame: OutboundFrame): Promise<ConnectionIdentity | string> {
    if (this.#identities.length === 0) return 'no platform was announced in a hello on this connection';
    let platform = frame.platform;
    let botId = frame.botId;
    let chosen: 'platform' | 'routeChat' = 'platform';
    if (platform === undefined) {
      const action = frame.action as { readonly chat_id?: unknown; readonly session_key?: unknown };
      // A `follow_up` names its session: the session's own chat, whose platform is known with it.
      const session =
        typeof action.session_key === 'string'
          ? this.#host.recentChats.chatOf(this.tenant, action.session_key)
          : undefined;
      const chatId = typeof action.chat_id === 'string' ? action.chat_id : session?.chatId;
      const { op } = frame.action;
      const route = chatId === undefined || op === 'unknown' ? undefined : await this.#routeChat(chatId, op);
      if (typeof route === 'object' && 'failure' in route) return route.failure;
      if (route !== undefined) {
        ({ platform, botId } = typeof route === 'string' ? { platform: route, botId: undefined } : route);
        chosen = 'routeChat';
      } else {
        platform =
          session?.platform ??
          (chatId === undefined ? undefined : this.#host.recentChats.platformOf(this.tenant, chatId));
        if (platform === undefined || !this.#identities.some((identity) => identity.platform === platform)) {
          return this.#identities[0] as ConnectionIdentity;
        }
      }
    }
    const match = this.#identities.find(
      (identity) => identity.platform === platform && (botId === undefined || identity.botId === botId),
    );
    if (match !== undefined) return match;
    const who = botId === undefined ? platform : `${platform}/${botId}`;
    return chosen === 'platform'
      ? `platform ${who} was not announced in a hello on this connection`
      : `routeChat chose platform ${who}, which was not announced in a hello on this connection`;
  }

  /** The connector's `routeChat` rule for a frame without a platform; a throw becomes a failure. */
  async #routeChat(
    chatId: string,
    op: ChatRouteContext['op'],
  ): Promise<ChatRoute | undefined | { readonly failure: string }> {
    const { routeChat, outboundTimeoutMs } = this.#host.options;
    if (routeChat === undefined) return undefined;
    const late = new Error('routeChat did not answer in time');
    try {
      const route = await within(
        Promise.resolve(
          routeChat(chatId, {
            tenant: this.tenant,
            gatewayId: this.gatewayId,
            op,
            identities: this.#identities.map(({ platform, botId }) => ({ platform, botId })),
          }),
        ),
        outboundTimeoutMs,
        () => late,
      );
      if (route === undefined || typeof route === 'string') return route;
      if (
        route !== null &&
        typeof route === 'object' &&
        typeof route.platform === 'string' &&
        (route.botId === undefined || typeof route.botId === 'string')
      ) {
        return route;
      }
      throw new TypeError(`routeChat returned ${String(route)}, not a platform or { platform, botId }`);
    } catch (error) {
      if (error === late) {
        return { failure: `routeChat did not answer for chat ${chatId} within ${outboundTimeoutMs} ms` };
      }
      this.#host.fail(callbackError('routeChat', error));
      return { failure: `routeChat failed for chat ${chatId}` };
    }
  }

  /**
   * Tracks work a frame started that writes nothing back (an ack to the buffer, an interrupt to the
   * adapter): past {@link MAX_UNANSWERED} of them at once the gateway is not read until they finish, so
   * a flood of acks or interrupts waits in TCP instead of piling up calls to a slow store or adapter.
   */
  #unanswered(work: Promise<unknown>): void {
    this.#unansweredCount += 1;
    if (this.#unansweredCount > MAX_UNANSWERED) this.#sender.hold('unanswered');
    void work.then(() => {
      this.#unansweredCount -= 1;
      if (this.#unansweredCount <= MAX_UNANSWERED) this.#sender.release('unanswered');
    });
  }

  /** Sends the one `outbound_result` of `requestId` (a failure when the result cannot be encoded). */
  #answer(requestId: string, result: OutboundResultObject): void {
    let line: string;
    try {
      line = outboundResultLine(requestId, result);
    } catch (error) {
      if (!isFrameError(error)) throw error;
      line = outboundResultLine(requestId, failureResult(error.message));
    }
    this.#send(line);
  }

  async #interrupt(frame: InterruptFrame): Promise<void> {
    // The session's chat, when this server delivered an event of it: its platform's adapter is told.
    const chat = this.#host.recentChats.chatOf(this.tenant, frame.session_key);
    const ofChat = this.#identities.find((candidate) => candidate.platform === chat?.platform);
    const identity = ofChat ?? this.#identities[0];
    const onInterrupt = identity?.served.adapter.onInterrupt;
    if (identity === undefined || onInterrupt === undefined) return;
    try {
      await onInterrupt(frame.session_key, frame.reason, {
        tenant: this.tenant,
        gatewayId: this.gatewayId,
        platform: identity.platform,
        botId: identity.botId,
        // Only the chat's own platform's adapter gets its id: another platform's chat is not its to act on.
        chatId: ofChat === undefined ? undefined : chat?.chatId,
      });
    } catch (error) {
      this.#host.fail(callbackError('onInterrupt', error));
    }
  }

  #send(line: string): void {
    if (this.#phase !== 'closed') this.#sender.send(line);
  }

  #unsubscribe(): void {
    const pending = this.#subscription;
    this.#subscription = undefined;
    void pending
      ?.then((subscription) => subscription?.unsubscribe())
      .catch((error: unknown) => this.#host.fail(callbackError('bus.unsubscribe', error)));
  }
}

/** Lines one connection may send that the server refuses (each reported) before it is dropped. */
const MAX_REFUSED_LINES = 100;

/** Acks and interrupts one connection may have running before the gateway is no longer read. */
const MAX_UNANSWERED = 1_000;

/** The encoded `descriptor` line of each served platform, made once: hellos are answered often. */
const descriptorLines = new WeakMap<ServedPlatform, string>();

function descriptorLine(served: ServedPlatform): string {
  let line = descriptorLines.get(served);
  if (line === undefined) {
    line = encodeFrame({ type: 'descriptor', descriptor: descriptorToWire(served.descriptor) });
    descriptorLines.set(served, line);
  }
  return line;
}
