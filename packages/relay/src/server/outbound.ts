import type { BoundedSocket } from '../bounded-socket.js';
import { type BufferedEntry, decodeBufferedFrame, type InboundBuffer } from '../buffer.js';
import { RelayError } from '../errors.js';
import type { OpParams, OutboundAction, OutboundOp } from '../frames/actions.js';
import { frameToWireObject, type OutboundResultObject, opResultSchemas } from '../frames/frames.js';

import { safeParseInEnglish } from '../internal.js';
import { copyJsonValue, jsonPath } from '../json.js';
import { compactJson, encodeFrame } from '../ndjson.js';
import type { CapabilityVault } from '../vault.js';
import type { ServedPlatform } from './options.js';
import type { OutboundContext } from './platform-adapter.js';

/** A failed result with `error` text, the shape every refusal of the server takes. */
export function failureResult(error: string): OutboundResultObject {
  return { success: false, error };
}

/**
 * What goes on the wire for an adapter's return value: the value checked against the op's result
 * schema and copied as plain JSON, without `ambiguous` (only the gateway sets it). A value the gateway
 * could not read (no boolean `success`, a mistyped `message_id`, something that is not JSON) becomes
 * `{ success: false, error }` naming the problem.
 */
export function normalizeOpResult(op: OutboundOp, value: unknown): OutboundResultObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return failureResult(`${op}: the platform adapter returned no result object`);
  }
  const ordered = orderedResultFast(op, value as Record<string, unknown>);
  return ordered === undefined ? normalizeBySchema(op, value) : plainResult(op, ordered);
}

/** {@link normalizeOpResult} through the op's result schema: the path for any result object. */
export function normalizeBySchema(op: OutboundOp, value: object): OutboundResultObject {
  const parsed = safeParseInEnglish(opResultSchemas[op], value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = jsonPath(issue?.path ?? []);
    return failureResult(
      `${op}: the platform adapter returned an invalid result (${issue?.message} at ${where})`,
    );
  }
  const result = plainResult(op, parsed.data);
  delete result['ambiguous'];
  return result;
}

/** A fresh copy of the checked result as plain JSON data, or the failure saying why it is not JSON. */
function plainResult(op: OutboundOp, checked: object): Record<string, unknown> {
  const copy = copyJsonValue(checked);
  if (copy.ok) return copy.value as Record<string, unknown>;
  return failureResult(
    `${op}: the platform adapter returned a result that is not JSON (${copy.refusal.message})`,
  );
}

/** A key of a result schema and the values it takes (all optional but `success`). */
type ResultKey = readonly [key: string, accepts: (value: unknown) => boolean];

const isBoolean = (value: unknown) => typeof value === 'boolean';
const isString = (value: unknown) => typeof value === 'string';
const isStringOrNull = (value: unknown) => value === null || typeof value === 'string';
const isAnything = () => true;

/** The keys every result schema starts with, in its order (`success` is required). */
const BASE_KEYS: readonly ResultKey[] = [
  ['success', isBoolean],
  ['error', isString],
  ['code', isString],
  ['raw_response', isAnything],
  ['ambiguous', isBoolean],
];
const MESSAGE_KEYS: readonly ResultKey[] = [...BASE_KEYS, ['message_id', isStringOrNull]];
const THREAD_KEYS: readonly ResultKey[] = [
  ...BASE_KEYS,
  ['thread_id', isStringOrNull],
  ['message_id', isStringOrNull],
];

/** The keys of each op's result schema; `get_chat_info`, whose keys are nested, is left to its schema. */
const RESULT_KEYS: { readonly [Op in OutboundOp]?: readonly ResultKey[] } = {
  send: MESSAGE_KEYS,
  edit: MESSAGE_KEYS,
  typing: BASE_KEYS,
  follow_up: MESSAGE_KEYS,
  send_media: MESSAGE_KEYS,
  prompt: MESSAGE_KEYS,
  react: BASE_KEYS,
  thread_create: THREAD_KEYS,
  thread_rename: BASE_KEYS,
};

/**
 * A hand-written check of a result against its op's schema for a plain object whose own values are
 * never `undefined`: the result as the schema writes it (its keys first, in its order, then the
 * others; `ambiguous` left out), or `undefined` when the result is anything else, and the schema
 * decides. `op-result.test.ts` checks that both give the same answer.
 */
export function orderedResultFast(op: OutboundOp, value: Record<string, unknown>): object | undefined {
  const keys = RESULT_KEYS[op];
  if (keys === undefined || Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  if (Object.hasOwn(value, '__proto__') || !Object.hasOwn(value, 'success')) return undefined;
  const ordered: Record<string, unknown> = {};
  for (const [key, accepts] of keys) {
    if (!Object.hasOwn(value, key)) continue;
    const item = value[key];
    if (item === undefined || !accepts(item)) return undefined;
    if (key !== 'ambiguous') ordered[key] = item;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key) || Object.hasOwn(ordered, key) || key === 'ambiguous') continue;
    const item = value[key];
    if (item === undefined) return undefined;
    ordered[key] = item;
  }
  return ordered;
}

/** One outbound action to execute on a platform adapter. */
export interface OutboundCall {
  readonly action: OutboundAction;
  readonly platform: ServedPlatform;
  readonly context: Omit<OutboundContext, 'signal'>;
  readonly vault: CapabilityVault;
  /** The connection's running calls: they time the call out and abort it when the connection closes. */
  readonly running: RunningOutboundCalls;
}

/**
 * Executes one outbound action and returns the `result` to answer it with; never rejects. An unknown
 * op, an op the adapter does not implement, a `follow_up` without a usable capability, a throwing
 * adapter, an invalid return value and a call running past the connection's timeout (whose signal is
 * then aborted) or its close each give `{ success: false, error }`.
 */
export function executeOutbound(call: OutboundCall): Promise<OutboundResultObject> {
  const { action, platform } = call;
  if (action.op === 'unknown') {
    return Promise.resolve(failureResult(`unsupported op ${JSON.stringify(action.rawOp ?? null)}`));
  }
  const op = action.op;
  if (typeof platform.adapter[op] !== 'function') {
    return Promise.resolve(failureResult(`op ${op} is not supported by platform ${platform.name}`));
  }
  // The first of the adapter's outcome and an abort settles the promise; the other changes nothing.
  return new Promise((resolve) => {
    const running = call.running.start(op, (reason) => resolve(failureResult(`${op}: ${reason.message}`)));
    const context: OutboundContext = {
      ...call.context,
      get signal() {
        return running.signal;
      },
    };
    runAdapter(action, call, context).then(
      (result) => {
        running.finish();
        resolve(result);
      },
      (error: unknown) => {
        running.finish();
        resolve(failureResult(errorText(error)));
      },
    );
  });
}

async function runAdapter(
  action: OpParams[OutboundOp],
  call: OutboundCall,
  context: OutboundContext,
): Promise<OutboundResultObject> {
  const adapter = call.platform.adapter;
  switch (action.op) {
    case 'follow_up': {
      const lookup = await call.vault.resolve(context.tenant, action.session_key, action.kind);
      // The same text for an absent and another tenant's capability: a gateway learns nothing.
      if (!lookup.found)
        return failureResult(`follow_up: no usable ${action.kind} capability for this session`);
      return normalizeOpResult(
        'follow_up',
        await adapter.follow_up?.(action, { ...context, credential: lookup.credential }),
      );
    }
    case 'send':
      return normalizeOpResult(action.op, await adapter.send?.(action, context));
    case 'edit':
      return normalizeOpResult(action.op, await adapter.edit?.(action, context));
    case 'typing':
      return normalizeOpResult(action.op, await adapter.typing?.(action, context));
    case 'get_chat_info':
      return normalizeOpResult(action.op, await adapter.get_chat_info?.(action, context));
    case 'send_media':
      return normalizeOpResult(action.op, await adapter.send_media?.(action, context));
    case 'prompt':
      return normalizeOpResult(action.op, await adapter.prompt?.(action, context));
    case 'react':
      return normalizeOpResult(action.op, await adapter.react?.(action, context));
    case 'thread_create':
      return normalizeOpResult(action.op, await adapter.thread_create?.(action, context));
    case 'thread_rename':
      return normalizeOpResult(action.op, await adapter.thread_rename?.(action, context));
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** One running outbound call of a {@link RunningOutboundCalls}. */

export interface RunningOutboundCall {
  /** Aborted once the call times out or its connection closes (made on first use). */
  readonly signal: AbortSignal;
  /** The call completed: it no longer times out. */
  finish(): void;
}

interface Entry extends RunningOutboundCall {
  readonly op: string;
  readonly deadline: number;
  abort(reason: Error): void;
}

/**
 * The outbound calls running on one gateway connection and their deadlines, kept by one timer: every call
 * gets the same `timeoutMs`, so deadlines come in start order, and the timer only ever waits for the oldest
 * running call. A call that times out, or is still running when {@link closeAll} is called, has its signal
 * aborted and its `onAbort` called once with a `RelayError` `relay_server_outbound_timeout` or a
 * `RelayError` `relay_server_connection_closed`.
 *
 * @example
 * const calls = new RunningOutboundCalls(30_000);
 * const call = calls.start('send', (reason) => resolve(failureResult(reason.message)));
 * await adapter.send(action, { ...context, signal: call.signal });
 * call.finish();
 */
export class RunningOutboundCalls {
  readonly #timeoutMs: number;
  /** In start order, which is deadline order. */
  readonly #running = new Set<Entry>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closedWith: Error | undefined;
  readonly #sweep = () => {
    this.#timer = undefined;
    const now = performance.now();
    for (const entry of this.#running) {
      if (entry.deadline > now) break;
      entry.abort(
        new RelayError(
          'relay_server_outbound_timeout',
          `${entry.op} did not complete within ${this.#timeoutMs} ms`,
          {
            details: { op: entry.op, timeoutMs: this.#timeoutMs },
          },
        ),
      );
    }
    this.#arm();
  };

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /** How many calls are running. */
  get size(): number {
    return this.#running.size;
  }

  /** Starts the deadline of a call of `op`; after {@link closeAll} the call is aborted at once. */
  start(op: string, onAbort: (reason: Error) => void): RunningOutboundCall {
    const running = this.#running;
    let controller: AbortController | undefined;
    let abortedWith: Error | undefined;
    const entry: Entry = {
      op,
      deadline: performance.now() + this.#timeoutMs,
      get signal() {
        if (controller === undefined) {
          controller = new AbortController();
          if (abortedWith !== undefined) controller.abort(abortedWith);
        }
        return controller.signal;
      },
      finish: () => {
        running.delete(entry);
      },
      abort: (reason) => {
        if (!running.delete(entry)) return;
        abortedWith = reason;
        controller?.abort(reason);
        onAbort(reason);
      },
    };
    running.add(entry);
    if (this.#closedWith !== undefined) entry.abort(this.#closedWith);
    else this.#arm();
    return entry;
  }

  /** The connection closed: aborts every running call and every later one. */
  closeAll(reason: RelayError): void {
    this.#closedWith = reason;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const entry of this.#running) entry.abort(reason);
  }

  /**
   * Arms the timer for the oldest running call, when none is armed. It is not cleared when that call
   * finishes early: it then fires for nothing and re-arms for the next one. Unreferenced: the
   * connection's socket keeps the process alive while calls run.
   */
  #arm(): void {
    if (this.#timer !== undefined) return;
    const oldest = this.#running.values().next();
    if (oldest.done === true) return;
    this.#timer = setTimeout(this.#sweep, Math.max(0, oldest.value.deadline - performance.now()));
    this.#timer.unref();
  }
}

/**
 * The `outbound_result` line answering `requestId`: byte for byte what `encodeFrame` writes for
 * `{ type: 'outbound_result', requestId, result }`, written directly for a result the server built
 * (plain JSON data, its keys in their own order) without the frame encoder's schema pass; a result
 * with an own `__proto__` key goes through `encodeFrame`.
 *
 * @throws {RelayError} `unencodable_frame`: a result holding a non-finite number.
 * @example
 * outboundResultLine('9f0c', { success: true, message_id: 'm1' });
 * // '{"type":"outbound_result","requestId":"9f0c","result":{"success":true,"message_id":"m1"}}\n'
 */
export function outboundResultLine(requestId: string, result: OutboundResultObject): string {
  if (Object.hasOwn(result, '__proto__')) return encodeFrame({ type: 'outbound_result', requestId, result });
  return `{"type":"outbound_result","requestId":${JSON.stringify(requestId)},"result":${compactJson(result)}}\n`;
}

const INBOUND_PREFIX = '{"type":"inbound","event":';

/**
 * The wire line of a buffered entry as the pieces it is written from, so that replay can write them
 * into one message without joining strings: `head`, less its last character (its closing `}`) when
 * `dropsClosingBrace`, then `tail`, which ends with `\n`.
 */
export interface BufferedFrameLine {
  readonly head: string;
  readonly dropsClosingBrace: boolean;
  readonly tail: string;
}

/**
 * The wire line of a buffered entry, byte for byte what `encodeFrame` writes for its frame with
 * `bufferId` added: an `inbound` frame's stored text gets `"bufferId"` spliced in as its last key
 * (its keys are already in wire order); anything else is decoded and written in wire order.
 *
 * @throws {RelayError} `corrupt_buffered_frame`: stored text that is not a buffered frame.
 * @example
 * lineText(bufferedFrameLine('{"type":"inbound","event":{"text":"hi"}}', '7'));
 * // '{"type":"inbound","event":{"text":"hi"},"bufferId":"7"}\n'
 */
export function bufferedFrameLine(frameJson: string, bufferId: string): BufferedFrameLine {
  if (frameJson.startsWith(INBOUND_PREFIX) && frameJson.endsWith('}')) {
    return { head: frameJson, dropsClosingBrace: true, tail: `,"bufferId":${JSON.stringify(bufferId)}}\n` };
  }
  const wire = frameToWireObject({ ...decodeBufferedFrame(frameJson), bufferId });
  return { head: JSON.stringify(wire), dropsClosingBrace: false, tail: '\n' };
}

/** The length of a line in UTF-16 code units. */
export function lineLength(line: BufferedFrameLine): number {
  return line.head.length - (line.dropsClosingBrace ? 1 : 0) + line.tail.length;
}

/** The text of a line. */
export function lineText(line: BufferedFrameLine): string {
  return (line.dropsClosingBrace ? line.head.slice(0, -1) : line.head) + line.tail;
}

/**
 * The UTF-8 bytes of `lines`, one after another: each piece is encoded once, straight into the
 * message (no joined string, no second pass over it to count and encode).
 */
export function utf8Lines(lines: readonly BufferedFrameLine[]): Buffer {
  let size = 0;
  for (const line of lines) {
    size += Buffer.byteLength(line.head) - (line.dropsClosingBrace ? 1 : 0) + Buffer.byteLength(line.tail);
  }
  const bytes = Buffer.allocUnsafe(size);
  let offset = 0;
  for (const line of lines) {
    // A dropped `}` is written and then overwritten by the tail, which is never empty.
    offset += bytes.write(line.head, offset) - (line.dropsClosingBrace ? 1 : 0);
    offset += bytes.write(line.tail, offset);
  }
  return bytes;
}

/**
 * Lines are joined into one message up to this many UTF-16 units (at most 192 KiB of UTF-8), far
 * below the 1 MiB message limit of the Python gateway's `websockets` client; a longer line goes alone.
 */
const MAX_BATCH_MESSAGE_LENGTH = 64 * 1024;

/** What a {@link ReplayPump} works with. */
export interface ReplayPumpSettings {
  readonly tenant: string;
  readonly buffer: InboundBuffer;
  readonly sender: BoundedSocket;
  readonly batchSize: number;
  readonly maxBufferedAmount: number;
  /** Called each time replay waits for the socket backlog to drain. */
  readonly onBackpressure: (bufferedAmount: number) => void;
  /** Called when reading the buffer fails; replay resumes on the next {@link ReplayPump.wake}. */
  readonly onError: (error: unknown) => void;
}

/**
 * Sends a tenant's buffered entries down one gateway connection, in append order, each once: it keeps
 * the id of the last entry it sent and reads only what follows it, so a wake-up during a pass simply
 * causes another pass. While the socket backlog is above `maxBufferedAmount` it waits for the backlog
 * to drain before sending more. The lines of a batch go out together as one WebSocket message (the
 * gateway's reader splits messages on `\n`), up to 64 Ki characters and the room left under
 * `maxBufferedAmount`. Entries stay
 * in the buffer until the gateway acks them; a new connection gets a new pump that starts from the
 * oldest pending entry.
 */
export class ReplayPump {
  readonly #settings: ReplayPumpSettings;
  #lastSentId: string | null = null;
  #running = false;
  #wokenWhileRunning = false;
  #stopped = false;

  constructor(settings: ReplayPumpSettings) {
    this.#settings = settings;
  }

  /**
   * Starts a pass once the current tick's microtasks have run (so that the entries appended by the
   * same burst of calls go out together), or asks the running pass for one more.
   */
  wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#wokenWhileRunning = true;
      return;
    }
    this.#running = true;
    process.nextTick(() => void this.#run());
  }

  /** Sends nothing more (the connection went idle or closed); the entries stay buffered. */
  stop(): void {
    this.#stopped = true;
  }

  async #run(): Promise<void> {
    try {
      do {
        this.#wokenWhileRunning = false;
        while (await this.#pass()) {
          // Full batches: read on.
        }
      } while (this.#wokenWhileRunning && !this.#stopped);
    } catch (error) {
      this.#settings.onError(error);
    } finally {
      this.#running = false;
    }
  }

  /** Sends one batch; `true` when it was full (there may be more). */
  async #pass(): Promise<boolean> {
    const { buffer, tenant, batchSize } = this.#settings;
    if (this.#stopped) return false;
    const entries = await buffer.read(tenant, this.#lastSentId, batchSize);
    let next = 0;
    while (next < entries.length) {
      if (!(await this.#roomToSend())) return false;
      const sent = this.#sendFrom(entries, next);
      if (sent === 0) return false;
      next += sent;
    }
    return entries.length >= batchSize;
  }

  /** Waits while the backlog is above the limit; `false` when the pump was stopped meanwhile. */
  async #roomToSend(): Promise<boolean> {
    const { sender, maxBufferedAmount } = this.#settings;
    while (!this.#stopped && sender.open && sender.backlog > maxBufferedAmount) {
      this.#settings.onBackpressure(sender.backlog);
      await sender.drained();
    }
    return !this.#stopped;
  }

  /**
   * Sends `entries` from `start` as one message: at least one line, then more while the message
   * stays within its length limit and the backlog within its own (counting a character as a byte).
   * Returns how many entries it sent (0 when the socket is closed).
   */
  #sendFrom(entries: readonly BufferedEntry[], start: number): number {
    const { sender, maxBufferedAmount } = this.#settings;
    const room = Math.min(MAX_BATCH_MESSAGE_LENGTH, maxBufferedAmount - sender.backlog);
    const lines: BufferedFrameLine[] = [];
    let length = 0;
    let end = start;
    while (end < entries.length) {
      const entry = entries[end] as BufferedEntry;
      const line = bufferedFrameLine(entry.frameJson, entry.bufferId);
      if (end > start && length + lineLength(line) > room) break;
      lines.push(line);
      length += lineLength(line);
      end += 1;
    }
    if (!sender.send(utf8Lines(lines))) return 0;
    this.#lastSentId = (entries[end - 1] as BufferedEntry).bufferId;
    return end - start;
  }
}
