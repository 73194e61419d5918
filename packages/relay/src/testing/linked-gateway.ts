import type { CapabilityDescriptor } from '../descriptor.js';
import type { OpParamsInput, OutboundActionInput } from '../frames/actions.js';
import { decodeConnectorFrame } from '../frames/decode.js';
import {
  type ConnectorFrame,
  type GatewayFrameInput,
  GOING_IDLE_ACK_TIMEOUT_MS,
  type HelloFrame,
  type InboundFrame,
  type OutboundFrameInput,
  type OutboundResultObject,
  type PassthroughForwardFrame,
  readChatInfo,
  type UnknownFrame,
} from '../frames/frames.js';

import { type Deferred, deferred, within } from '../internal.js';
import { eventFromWire } from '../message-event.js';
import { encodeFrame, FrameDecoder, type FrameJsonStyle } from '../ndjson.js';
import {
  connectionLostError,
  descriptorRejectedError,
  handshakeTimeoutError,
  type InboundHandler,
  type InterruptInboundHandler,
  notConnectedError,
  type OutboundOptions,
  outboundTimeoutError,
  type PassthroughHandler,
  passthroughDeliveryFromForward,
  type RelayTransport,
  type RelayTransportError,
  type ResolvedChatInfo,
  transportClosedError,
} from '../transport.js';
import type { LinkedConnection, LinkedContext, PipeEnd, WireChunk } from './linked-connection.js';

/** One identity the gateway fronts: the fields of its `hello` frame. */
export type HelloIdentity = Omit<HelloFrame, 'type'>;

/** Settings of the gateway end of a linked pair. */
export interface LinkedGatewayOptions {
  /** Sent as one `hello` each, in order; the first is the session default. */
  readonly identities: readonly HelloIdentity[];
  readonly outboundTimeoutMs: number;
  readonly handshakeTimeoutMs: number;
  readonly jsonStyle: FrameJsonStyle;
  readonly newRequestId: () => string;
  readonly ackPassthroughBuffers: boolean;
}

/**
 * The gateway end of a linked pair: a {@link RelayTransport} that writes real frames (by default byte
 * for byte as the Python gateway's `json.dumps`) and reads the connector's through `FrameDecoder`.
 */
export interface LinkedGatewayTransport extends RelayTransport {
  /** Whether a connection is open. */
  readonly connected: boolean;
  /**
   * What went wrong on this end without failing a call, in order: undecodable connector lines
   * (`RelayError`s with a frame code), inbound events `eventFromWire` refused, and errors thrown by the
   * handlers.
   */
  readonly errors: readonly unknown[];
  /** The descriptor received for `platform` on this connection (one per hello), if any. */
  descriptorFor(platform: string): CapabilityDescriptor | undefined;
  goIdle(timeoutMs?: number): Promise<boolean>;
}

interface PendingRequest {
  readonly resolve: (result: OutboundResultObject) => void;
  readonly reject: (error: RelayTransportError) => void;
  readonly what: string;
  readonly timer: ReturnType<typeof setTimeout>;
}

type SequencedFrame =
  | InboundFrame
  | PassthroughForwardFrame
  | Extract<ConnectorFrame, { type: 'interrupt_inbound' }>;

/** Implementation of {@link LinkedGatewayTransport}; built by `createLinkedTransportPair`. */
export class LinkedGateway implements LinkedGatewayTransport {
  readonly errors: unknown[] = [];
  readonly #context: LinkedContext;
  readonly #options: LinkedGatewayOptions;
  readonly #dial: (end: (connection: LinkedConnection) => PipeEnd) => LinkedConnection | undefined;
  #connection: LinkedConnection | undefined;
  #decoder = new FrameDecoder({ decode: decodeConnectorFrame });
  #handshake: Deferred<CapabilityDescriptor> = deferred();
  #descriptor: CapabilityDescriptor | undefined;
  #descriptors = new Map<string, CapabilityDescriptor>();
  readonly #pending = new Map<string, PendingRequest>();
  #goingIdleAck: Deferred<boolean> | undefined;
  /** Inbound, interrupt and passthrough frames run one after another on this chain. */
  #sequence: Promise<void> = Promise.resolve();
  #inbound: InboundHandler | undefined;
  #interruptInbound: InterruptInboundHandler | undefined;
  #passthrough: PassthroughHandler | undefined;

  constructor(
    context: LinkedContext,
    options: LinkedGatewayOptions,
    dial: (end: (connection: LinkedConnection) => PipeEnd) => LinkedConnection | undefined,
  ) {
    this.#context = context;
    this.#options = options;
    this.#dial = dial;
  }

  get connected(): boolean {
    return this.#connection !== undefined;
  }

  descriptorFor(platform: string): CapabilityDescriptor | undefined {
    return this.#descriptors.get(platform);
  }

  async connect(): Promise<boolean> {
    if (this.#connection !== undefined) return true;
    const connection = this.#dial((opened) => this.#endFor(opened));
    if (connection === undefined) return false;
    this.#connection = connection;
    this.#decoder = new FrameDecoder({ decode: decodeConnectorFrame });
    this.#handshake = deferred();
    this.#descriptor = undefined;
    this.#descriptors = new Map();
    for (const identity of this.#options.identities) this.#write(connection, { type: 'hello', ...identity });
    return true;
  }

  async disconnect(): Promise<void> {
    const connection = this.#connection;
    if (connection === undefined) return;
    this.#connection = undefined;
    connection.toConnector.end();
    this.#failAll((what, requestId) => transportClosedError(what, requestId));
  }

  async handshake(): Promise<CapabilityDescriptor> {
    if (this.#descriptor !== undefined) return this.#descriptor;
    if (this.#connection === undefined) throw notConnectedError('handshake');
    const timeoutMs = this.#options.handshakeTimeoutMs;
    return within(this.#handshake.promise, timeoutMs, () => handshakeTimeoutError(timeoutMs));
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
    const connection = this.#connection;
    if (connection === undefined) throw notConnectedError('send_interrupt');
    this.#write(connection, { type: 'interrupt', session_key: sessionKey, reason });
  }

  async goIdle(timeoutMs: number = GOING_IDLE_ACK_TIMEOUT_MS): Promise<boolean> {
    const connection = this.#connection;
    if (connection === undefined) return false;
    this.#goingIdleAck?.resolve(false);
    const ack = deferred<boolean>();
    this.#goingIdleAck = ack;
    this.#write(connection, { type: 'going_idle' });
    const timer = setTimeout(() => ack.resolve(false), timeoutMs);
    try {
      return await ack.promise;
    } finally {
      clearTimeout(timer);
      if (this.#goingIdleAck === ack) this.#goingIdleAck = undefined;
    }
  }

  async #request(
    action: OutboundActionInput,
    platform: string | undefined,
    what: string,
  ): Promise<OutboundResultObject> {
    const connection = this.#connection;
    if (connection === undefined) throw notConnectedError(what);
    const requestId = this.#options.newRequestId();
    const frame: OutboundFrameInput = { type: 'outbound', requestId, action, ...this.#routing(platform) };
    const line = encodeFrame(frame, { style: this.#options.jsonStyle });
    const timeoutMs = this.#options.outboundTimeoutMs;
    return new Promise<OutboundResultObject>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(requestId);
        reject(outboundTimeoutError(requestId, timeoutMs));
      }, timeoutMs);
      this.#pending.set(requestId, { resolve, reject, what, timer });
      this.#writeLine(connection, line);
    });
  }

  /** Frame `platform` when one is given; its `botId` only when that identity has a non-empty one. */
  #routing(platform: string | undefined): { platform?: string; botId?: string } {
    if (!platform) return {};
    const botId = this.#options.identities.find((identity) => identity.platform === platform)?.botId;
    return botId ? { platform, botId } : { platform };
  }

  #write(connection: LinkedConnection, frame: GatewayFrameInput): void {
    this.#writeLine(connection, encodeFrame(frame, { style: this.#options.jsonStyle }));
  }

  #writeLine(connection: LinkedConnection, line: string): void {
    if (connection.toConnector.ended) return;
    this.#context.wire.push({ direction: 'to_connector', data: line });
    connection.toConnector.write(this.#context.chunk(line));
  }

  #endFor(connection: LinkedConnection): PipeEnd {
    return {
      receive: (chunk: WireChunk) => {
        if (this.#connection === connection) this.#receive(connection, chunk);
      },
      closed: () => {
        if (this.#connection !== connection) return;
        this.#connection = undefined;
        this.#failAll((what, requestId) => connectionLostError(what, requestId));
      },
    };
  }

  #receive(connection: LinkedConnection, chunk: WireChunk): void {
    for (const result of this.#decoder.push(chunk)) {
      if (!result.ok) {
        this.errors.push(result.error);
        if (result.error.code === 'invalid_frame' && result.error.details?.frameType === 'descriptor') {
          this.#handshake.reject(descriptorRejectedError(result.error.message, { cause: result.error }));
        }
        continue;
      }
      this.#dispatch(connection, result.frame);
    }
  }

  #dispatch(connection: LinkedConnection, frame: ConnectorFrame | UnknownFrame): void {
    switch (frame.type) {
      case 'descriptor': {
        const descriptor = frame.descriptor;
        const platform = descriptor.platform;
        if (typeof platform === 'string' && platform !== '') this.#descriptors.set(platform, descriptor);
        if (this.#descriptor === undefined) this.#descriptor = descriptor;
        this.#handshake.resolve(this.#descriptor);
        return;
      }
      case 'outbound_result': {
        const pending = this.#pending.get(frame.requestId);
        if (pending === undefined) return;
        this.#pending.delete(frame.requestId);
        clearTimeout(pending.timer);
        pending.resolve(frame.result);
        return;
      }
      case 'going_idle_ack':
        this.#goingIdleAck?.resolve(true);
        return;
      case 'inbound':
      case 'interrupt_inbound':
      case 'passthrough_forward':
        this.#sequence = this.#context.tracker.track(
          this.#sequence.then(() => this.#handleInOrder(connection, frame)),
        );
        return;
      default:
        return;
    }
  }

  /** Runs one sequenced frame's handler; acks a buffered one after it. Never rejects. */
  async #handleInOrder(connection: LinkedConnection, frame: SequencedFrame): Promise<void> {
    if (this.#connection !== connection) return;
    try {
      switch (frame.type) {
        case 'inbound': {
          const handler = this.#inbound;
          if (handler === undefined) return;
          await handler(eventFromWire(frame.event));
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
          if (this.#options.ackPassthroughBuffers) this.#ack(connection, frame.bufferId);
          return;
        }
      }
    } catch (error) {
      this.errors.push(error);
    }
  }

  #ack(connection: LinkedConnection, bufferId: string | null | undefined): void {
    if (!bufferId || this.#connection !== connection) return;
    this.#write(connection, { type: 'inbound_ack', bufferId });
  }

  #failAll(error: (what: string, requestId: string | undefined) => RelayTransportError): void {
    for (const [requestId, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(error(pending.what, requestId));
    }
    this.#pending.clear();
    this.#handshake.reject(error('handshake', undefined));
    this.#goingIdleAck?.resolve(false);
  }
}
