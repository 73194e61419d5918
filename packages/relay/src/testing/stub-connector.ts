import type { CapabilityDescriptor } from '../descriptor.js';
import { RelayError } from '../errors.js';
import type { OpParamsInput, OutboundActionInput, OutboundOp } from '../frames/actions.js';
import type { OutboundResultObject } from '../frames/frames.js';
import type { MessageEvent } from '../message-event.js';
import type {
  InboundHandler,
  InterruptInboundHandler,
  OutboundOptions,
  PassthroughDelivery,
  PassthroughHandler,
  RelayTransport,
  ResolvedChatInfo,
} from '../transport.js';

/** One `sendInterrupt` call recorded by {@link StubConnector}. */
export interface RecordedInterrupt {
  readonly sessionKey: string;
  readonly reason: string | null;
}

/** The canned result per op; an op without one answers `{ success: true }`. */
export type CannedResults = { [Op in OutboundOp]?: OutboundResultObject };

/** The Python stub's defaults: `send` → `m1`, `send_media` → `md1`, `prompt` → `pm1`, `follow_up` → `f1`. */
function defaultCannedResults(): CannedResults {
  return {
    send: { success: true, message_id: 'm1' },
    send_media: { success: true, message_id: 'md1' },
    prompt: { success: true, message_id: 'pm1' },
    react: { success: true },
    follow_up: { success: true, message_id: 'f1' },
  };
}

/**
 * An in-memory {@link RelayTransport} for testing gateway-side code, reproducing the Hermes test
 * suite's `StubConnector`: no frames, no codec, no timers — every call resolves at once.
 *
 * - `handshake()` returns the descriptor it was built with; `connect()` resolves `true`.
 * - Every outbound action is recorded (`sent`, with the per-call platform in `sentPlatforms`), as is
 *   every follow-up (`followUps`, `followUpPlatforms`) and interrupt (`interrupts`).
 * - Actions are answered with a copy of a canned result: `send` `{success, message_id: "m1"}`,
 *   `send_media` `"md1"`, `prompt` `"pm1"`, `react` `{success}`, `follow_up` `"f1"`, any other op
 *   (unknown ones included) `{success: true}`. Canned results are sticky, not consumed: set
 *   `nextSendResult` (or `nextResults[op]`) once and every later call of that op returns it.
 * - `getChatInfo` answers from `chatInfo`, else `{ name: chatId, type: "dm" }`.
 * - Drivers `pushInbound`, `pushInterrupt`, `pushPassthrough` call the installed handlers as the
 *   connector would, and throw a `RelayError` `handler_missing` when the handler is not installed.
 *
 * It answers even when not connected, as the Python stub does; use the linked pair from this module
 * to exercise connection state, the wire format and failures.
 *
 * @example
 * const stub = new StubConnector(descriptor);
 * stub.nextSendResult = { success: false, error: 'egress declined: not approved' };
 * await adapter.connect(stub);
 * await stub.pushInbound(eventFromWire(createMessageEvent({ text: 'hi', source })));
 * expect(stub.sent.map((a) => a.op)).toContain('send');
 */
export class StubConnector implements RelayTransport {
  /** Whether `connect()` was called more recently than `disconnect()`. */
  connected = false;
  /** Every action passed to `sendOutbound`, in call order, as given. */
  readonly sent: OutboundActionInput[] = [];
  /** The `platform` option of each `sendOutbound` call, parallel to {@link sent} (`null` when absent). */
  readonly sentPlatforms: (string | null)[] = [];
  /** Every action passed to `sendFollowUp`, in call order. */
  readonly followUps: OpParamsInput['follow_up'][] = [];
  /** The `platform` option of each `sendFollowUp` call, parallel to {@link followUps}. */
  readonly followUpPlatforms: (string | null)[] = [];
  /** Every `sendInterrupt` call. */
  readonly interrupts: RecordedInterrupt[] = [];
  /** `getChatInfo` answers, by chat id. */
  readonly chatInfo = new Map<string, ResolvedChatInfo>();
  /** Canned result per op (see the class description); edit freely. */
  readonly nextResults: CannedResults = defaultCannedResults();

  readonly #descriptor: CapabilityDescriptor;
  #inbound: InboundHandler | undefined;
  #interruptInbound: InterruptInboundHandler | undefined;
  #passthrough: PassthroughHandler | undefined;

  /** @param descriptor What `handshake()` returns. */
  constructor(descriptor: CapabilityDescriptor) {
    this.#descriptor = descriptor;
  }

  /** Canned `send` result (`nextResults.send`). */
  get nextSendResult(): OutboundResultObject | undefined {
    return this.nextResults.send;
  }
  set nextSendResult(result: OutboundResultObject) {
    this.nextResults.send = result;
  }

  /** Canned `send_media` result (`nextResults.send_media`). */
  get nextMediaResult(): OutboundResultObject | undefined {
    return this.nextResults.send_media;
  }
  set nextMediaResult(result: OutboundResultObject) {
    this.nextResults.send_media = result;
  }

  /** Canned `prompt` result (`nextResults.prompt`). */
  get nextPromptResult(): OutboundResultObject | undefined {
    return this.nextResults.prompt;
  }
  set nextPromptResult(result: OutboundResultObject) {
    this.nextResults.prompt = result;
  }

  /** Canned `react` result (`nextResults.react`). */
  get nextReactResult(): OutboundResultObject | undefined {
    return this.nextResults.react;
  }
  set nextReactResult(result: OutboundResultObject) {
    this.nextResults.react = result;
  }

  /** Canned `follow_up` result (`nextResults.follow_up`). */
  get nextFollowUpResult(): OutboundResultObject | undefined {
    return this.nextResults.follow_up;
  }
  set nextFollowUpResult(result: OutboundResultObject) {
    this.nextResults.follow_up = result;
  }

  async connect(): Promise<boolean> {
    this.connected = true;
    return true;
  }

  async disconnect(): Promise<void> {
    this.connected = false;
  }

  async handshake(): Promise<CapabilityDescriptor> {
    return this.#descriptor;
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

  async sendOutbound(
    action: OutboundActionInput,
    options: OutboundOptions = {},
  ): Promise<OutboundResultObject> {
    this.sent.push(action);
    this.sentPlatforms.push(options.platform ?? null);
    return this.#cannedResult(action.op);
  }

  async getChatInfo(chatId: string): Promise<ResolvedChatInfo> {
    return this.chatInfo.get(chatId) ?? { name: chatId, type: 'dm' };
  }

  async sendInterrupt(sessionKey: string, reason: string | null = null): Promise<void> {
    this.interrupts.push({ sessionKey, reason });
  }

  async sendFollowUp(
    action: OpParamsInput['follow_up'],
    options: OutboundOptions = {},
  ): Promise<OutboundResultObject> {
    this.followUps.push(action);
    this.followUpPlatforms.push(options.platform ?? null);
    return this.#cannedResult('follow_up');
  }

  /** Delivers `event` to the inbound handler, as the connector's `inbound` frame would. */
  async pushInbound(event: MessageEvent): Promise<void> {
    if (this.#inbound === undefined) throw handlerMissingError('inbound');
    await this.#inbound(event);
  }

  /** Delivers an `interrupt_inbound` for `sessionKey` / `chatId` to the interrupt handler. */
  async pushInterrupt(sessionKey: string, chatId: string): Promise<void> {
    if (this.#interruptInbound === undefined) throw handlerMissingError('interrupt_inbound');
    await this.#interruptInbound(sessionKey, chatId);
  }

  /** Delivers a forwarded webhook (with its `bufferId`, `null` by default) to the passthrough handler. */
  async pushPassthrough(forward: PassthroughDelivery, bufferId: string | null = null): Promise<void> {
    if (this.#passthrough === undefined) throw handlerMissingError('passthrough');
    await this.#passthrough(forward, bufferId);
  }

  #cannedResult(op: string): OutboundResultObject {
    const canned = Object.hasOwn(this.nextResults, op) ? this.nextResults[op as OutboundOp] : undefined;
    return { ...(canned ?? { success: true }) };
  }
}

/** Which handler a `StubConnector` push driver needed. */
export type StubHandlerKind = 'inbound' | 'interrupt_inbound' | 'passthrough';

/**
 * `handler_missing`: a push driver was called before the code under test installed the handler it
 * drives (in the gateway: before the adapter's `connect()`). Mirrors the Python stub's
 * `RuntimeError("no inbound handler registered …")`.
 */
function handlerMissingError(handler: StubHandlerKind): RelayError {
  return new RelayError(
    'handler_missing',
    `no ${handler} handler registered (install it, e.g. by connecting the adapter, before pushing)`,
    { details: { handler } },
  );
}
