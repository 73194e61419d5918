import { type CapabilityDescriptor, descriptorToWire } from '../descriptor.js';
import type { OutboundAction } from '../frames/actions.js';
import { decodeGatewayFrame } from '../frames/decode.js';
import type {
  ConnectorFrameInput,
  GatewayFrame,
  HelloFrame,
  InterruptFrame,
  OutboundFrame,
  OutboundResultObject,
  UnknownFrame,
} from '../frames/frames.js';

import type { MessageEventWire } from '../message-event.js';
import { encodeFrame, FrameDecoder } from '../ndjson.js';
import { notConnectedError } from '../transport.js';
import { LinkedConnection, type LinkedContext, type PipeEnd, type WireChunk } from './linked-connection.js';

/** A `passthrough_forward`'s `forward` object as built for sending. */
export type PassthroughForwardInput = Extract<
  ConnectorFrameInput,
  { type: 'passthrough_forward' }
>['forward'];

/**
 * What the test supplies to play the connector of a linked pair. Every callback may be async; the
 * connector end answers outbound requests concurrently (results can come back out of order).
 */
export interface LinkedConnectorHandler {
  /**
   * The answer to each `hello`: a descriptor, or a function of the hello giving one (one per fronted
   * identity), or `undefined` to leave the hello unanswered (the gateway's handshake then times out).
   */
  readonly descriptor:
    | CapabilityDescriptor
    | ((hello: HelloFrame) => CapabilityDescriptor | undefined | Promise<CapabilityDescriptor | undefined>);
  /**
   * Executes one outbound action and returns its `result`. A throw, a rejected promise or a value
   * that is not a JSON object becomes `{ success: false, error }`: every `requestId` gets exactly
   * one `outbound_result`. Absent: every action fails with `success: false`.
   */
  readonly onOutbound?: (
    action: OutboundAction,
    frame: OutboundFrame,
  ) => OutboundResultObject | Promise<OutboundResultObject>;
  /** Called with each `interrupt` frame. */
  readonly onInterrupt?: (frame: InterruptFrame) => void | Promise<void>;
  /** Called with each acked `bufferId`. */
  readonly onInboundAck?: (bufferId: string) => void | Promise<void>;
  /**
   * Called on `going_idle`; the `going_idle_ack` is sent after it returns, unless it returns `false`
   * (to test the gateway's ack timeout).
   */
  readonly onGoingIdle?: () => boolean | undefined | Promise<boolean | undefined>;
}

/** The connector end of a linked pair: drivers for the connector's frames, and what it received. */
export interface LinkedConnector {
  /** Whether a gateway connection is open. */
  readonly connected: boolean;
  /** Whether the next gateway `connect()` is accepted; `false` makes it resolve `false`. */
  accepting: boolean;
  /** Every frame decoded from the gateway, in order. */
  readonly received: readonly (GatewayFrame | UnknownFrame)[];
  /** Every `hello`, in order (across connections). */
  readonly hellos: readonly HelloFrame[];
  /** Every `outbound` frame, in arrival order. */
  readonly outbound: readonly OutboundFrame[];
  /** Every `interrupt` frame. */
  readonly interrupts: readonly InterruptFrame[];
  /** Every acked `bufferId`, in order. */
  readonly inboundAcks: readonly string[];
  /** How many `going_idle` frames arrived. */
  readonly goingIdleCount: number;
  /** Undecodable gateway lines and errors thrown by the handler's callbacks, in order. */
  readonly errors: readonly unknown[];
  /**
   * Sends an `inbound` frame with `event` (build it with `createMessageEvent`) and, for a buffered
   * delivery, its `bufferId`. Throws a `RelayTransportError` `not_connected` when no gateway is connected.
   */
  pushInbound(event: MessageEventWire, options?: { readonly bufferId?: string }): void;
  /** Sends an `interrupt_inbound` frame. */
  pushInterrupt(sessionKey: string, chatId: string): void;
  /** Sends a `passthrough_forward` frame. */
  pushPassthrough(forward: PassthroughForwardInput, options?: { readonly bufferId?: string }): void;
  /** Encodes and sends any connector frame (or an unknown one, written as its `raw` object). */
  sendFrame(frame: ConnectorFrameInput | UnknownFrame): void;
  /** Sends one raw WebSocket message as is: malformed lines, partial frames, odd chunking. */
  sendRaw(chunk: WireChunk): void;
  /** Closes the connection from the connector's side (the gateway sees the connection lost). */
  close(): void;
}

/** Implementation of {@link LinkedConnector}; built by `createLinkedTransportPair`. */
export class LinkedConnectorEnd implements LinkedConnector {
  accepting = true;
  readonly received: (GatewayFrame | UnknownFrame)[] = [];
  readonly hellos: HelloFrame[] = [];
  readonly outbound: OutboundFrame[] = [];
  readonly interrupts: InterruptFrame[] = [];
  readonly inboundAcks: string[] = [];
  readonly errors: unknown[] = [];
  goingIdleCount = 0;
  readonly #context: LinkedContext;
  readonly #handler: LinkedConnectorHandler;
  #connection: LinkedConnection | undefined;
  #decoder = new FrameDecoder({ decode: decodeGatewayFrame });

  constructor(context: LinkedContext, handler: LinkedConnectorHandler) {
    this.#context = context;
    this.#handler = handler;
  }

  get connected(): boolean {
    return this.#connection !== undefined;
  }

  /** Opens a connection for a dialing gateway, or refuses it when not {@link accepting}. */
  accept(gatewayEnd: (connection: LinkedConnection) => PipeEnd): LinkedConnection | undefined {
    if (!this.accepting) return undefined;
    this.#connection?.toGateway.end();
    const connection = new LinkedConnection(this.#context.tracker, gatewayEnd, (opened) =>
      this.#endFor(opened),
    );
    this.#connection = connection;
    this.#decoder = new FrameDecoder({ decode: decodeGatewayFrame });
    return connection;
  }

  pushInbound(event: MessageEventWire, options: { readonly bufferId?: string } = {}): void {
    this.sendFrame({ type: 'inbound', event, ...options });
  }

  pushInterrupt(sessionKey: string, chatId: string): void {
    this.sendFrame({ type: 'interrupt_inbound', session_key: sessionKey, chat_id: chatId });
  }

  pushPassthrough(forward: PassthroughForwardInput, options: { readonly bufferId?: string } = {}): void {
    this.sendFrame({ type: 'passthrough_forward', forward, ...options });
  }

  sendFrame(frame: ConnectorFrameInput | UnknownFrame): void {
    this.#reply(this.#requireConnection(), frame);
  }

  sendRaw(chunk: WireChunk): void {
    this.#send(this.#requireConnection(), chunk, [chunk]);
  }

  close(): void {
    const connection = this.#connection;
    if (connection === undefined) return;
    this.#connection = undefined;
    connection.toGateway.end();
  }

  #requireConnection(): LinkedConnection {
    if (this.#connection === undefined) throw notConnectedError('linked connector send');
    return this.#connection;
  }

  /** Writes `data` (recorded whole) as `messages`, unless `connection` is no longer the open one. */
  #send(connection: LinkedConnection, data: WireChunk, messages: readonly WireChunk[]): void {
    if (this.#connection !== connection) return;
    this.#context.wire.push({ direction: 'to_gateway', data });
    connection.toGateway.write(messages);
  }

  /** Encodes and writes a frame on `connection` if it is still the open one. */
  #reply(connection: LinkedConnection, frame: ConnectorFrameInput | UnknownFrame): void {
    const line = encodeFrame(frame);
    this.#send(connection, line, this.#context.chunk(line));
  }

  #endFor(connection: LinkedConnection): PipeEnd {
    return {
      receive: (chunk) => {
        if (this.#connection === connection) this.#receive(connection, chunk);
      },
      closed: () => {
        if (this.#connection === connection) this.#connection = undefined;
      },
    };
  }

  #receive(connection: LinkedConnection, chunk: WireChunk): void {
    for (const result of this.#decoder.push(chunk)) {
      if (!result.ok) {
        this.errors.push(result.error);
        continue;
      }
      const frame = result.frame;
      this.received.push(frame);
      this.#dispatch(connection, frame);
    }
  }

  #dispatch(connection: LinkedConnection, frame: GatewayFrame | UnknownFrame): void {
    switch (frame.type) {
      case 'hello':
        this.hellos.push(frame);
        this.#run(async () => {
          const { descriptor } = this.#handler;
          const answer = typeof descriptor === 'function' ? await descriptor(frame) : descriptor;
          if (answer !== undefined)
            this.#reply(connection, { type: 'descriptor', descriptor: descriptorToWire(answer) });
        });
        return;
      case 'outbound':
        this.outbound.push(frame);
        this.#context.tracker.track(this.#answer(connection, frame));
        return;
      case 'interrupt':
        this.interrupts.push(frame);
        this.#run(async () => this.#handler.onInterrupt?.(frame));
        return;
      case 'inbound_ack':
        this.inboundAcks.push(frame.bufferId);
        this.#run(async () => this.#handler.onInboundAck?.(frame.bufferId));
        return;
      case 'going_idle':
        this.goingIdleCount += 1;
        this.#run(async () => {
          const ack = await this.#handler.onGoingIdle?.();
          if (ack !== false) this.#reply(connection, { type: 'going_idle_ack' });
        });
        return;
      default:
        return;
    }
  }

  /** Runs a callback as tracked work; what it throws is recorded in {@link errors}. */
  #run(work: () => Promise<unknown>): void {
    this.#context.tracker.track(
      work().then(
        () => undefined,
        (error: unknown) => {
          this.errors.push(error);
        },
      ),
    );
  }

  /** Executes one outbound action and sends exactly one `outbound_result` for it. Never rejects. */
  async #answer(connection: LinkedConnection, frame: OutboundFrame): Promise<void> {
    let result: OutboundResultObject;
    try {
      const onOutbound = this.#handler.onOutbound;
      result =
        onOutbound === undefined
          ? { success: false, error: `linked connector: no onOutbound handler (op ${describeOp(frame)})` }
          : await onOutbound(frame.action, frame);
    } catch (error) {
      result = { success: false, error: errorText(error) };
    }
    if (result === null || typeof result !== 'object' || Array.isArray(result)) {
      result = { success: false, error: 'linked connector: onOutbound did not return an object' };
    }
    let line: string;
    try {
      line = encodeFrame({ type: 'outbound_result', requestId: frame.requestId, result });
    } catch (error) {
      line = encodeFrame({
        type: 'outbound_result',
        requestId: frame.requestId,
        result: { success: false, error: errorText(error) },
      });
    }
    this.#send(connection, line, this.#context.chunk(line));
  }
}

function describeOp(frame: OutboundFrame): string {
  return frame.action.op === 'unknown' ? String(frame.action.rawOp) : frame.action.op;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
