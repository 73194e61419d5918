import { type CapabilityDescriptor, validatorsFor } from '../capabilities/index.js';
import type { JsonSchema } from '../capabilities/json-schema.js';
import { compileSchema } from '../capabilities/validators.js';
import type { SlowConsumerLimit } from '../errors.js';
import { HearthNetLocalError } from '../errors.js';

/** One dispatched SSE event: its name (`message` when the stream gave none) and its data text. */
export interface SseEvent {
  readonly type: 'event';
  readonly event: string;
  /** The `data:` lines joined with `\n`. */
  readonly data: string;
}

/** One SSE comment line (`: keepalive`), without the colon and the one space after it. */
export interface SseComment {
  readonly type: 'comment';
  readonly text: string;
}

/** What an SSE stream carries, in order. */
export type SseItem = SseEvent | SseComment;

/**
 * A HearthNet stream frame (contract §5.3): an event name and its JSON data, e.g.
 * `{ event: 'token', data: { text: 'Sie ' } }`.
 */
export interface SseFrame<Event extends string = string, Data = unknown> {
  readonly event: Event;
  readonly data: Data;
}

/** The event name of the terminal success frame (contract §5.3). */
export const DONE_EVENT = 'done';
/** The event name of the terminal error frame; its data is a §5.4 error body. */
export const ERROR_EVENT = 'error';
/** The event name of a progress frame, `{current, total, stage}`, allowed on any stream. */
export const PROGRESS_EVENT = 'progress';
/** The event name of a back-pressure acknowledgement `{upto}`, sent client → server. */
export const ACK_EVENT = 'ack';
/**
 * The event name of the first frame of a client stream: its data is the call body `{params, input}`
 * that the request signature covers (see `createBusHandler`, client streams).
 */
export const REQUEST_EVENT = 'request';

/** Whether a frame ends its stream: `done` or `error` (contract §5.3). */
export function isTerminalEvent(event: string): boolean {
  return event === DONE_EVENT || event === ERROR_EVENT;
}

const LINE_BREAK = /\r\n|\r|\n/;

/**
 * One SSE event as text: `event: <name>`, one `data:` line per line of `data` (so multi-line data
 * survives), then a blank line. Line breaks are `\n`, as the reference writes them.
 *
 * @throws {HearthNetLocalError} `invalid_sse_frame` when the event name is empty or holds a line break.
 * @example
 * encodeSseEvent({ event: 'token', data: '{"text":"Sie "}' }); // 'event: token\ndata: {"text":"Sie "}\n\n'
 */
export function encodeSseEvent(event: Pick<SseEvent, 'event' | 'data'>): string {
  assertEventName(event.event);
  if (typeof event.data !== 'string')
    throw new HearthNetLocalError('invalid_sse_frame', 'SSE event data must be a string');
  const { data } = event;
  // Frame JSON never holds a line break: one `data:` line, without splitting a large text.
  if (data.indexOf('\n') === -1 && data.indexOf('\r') === -1)
    return `event: ${event.event}\ndata: ${data}\n\n`;
  const lines = data.split(LINE_BREAK).map((line) => `data: ${line}\n`);
  return `event: ${event.event}\n${lines.join('')}\n`;
}

/**
 * A HearthNet stream frame as SSE text (contract §5.3): `event: <name>` and `data: <JSON, single
 * line>`. The JSON is compact `JSON.stringify` output, which never holds a raw line break; frames are
 * not signed, so their JSON need not be canonical.
 *
 * @throws {HearthNetLocalError} `invalid_sse_frame` for an unusable event name, or data JSON cannot carry
 *   (`undefined`, a function, a bigint, a cycle).
 * @example
 * encodeSseFrame({ event: 'done', data: { tokens_out: 3, stop_reason: 'end' } });
 * // 'event: done\ndata: {"tokens_out":3,"stop_reason":"end"}\n\n'
 */
export function encodeSseFrame(frame: SseFrame): string {
  if (frame === null || typeof frame !== 'object')
    throw new HearthNetLocalError('invalid_sse_frame', 'a frame must be an object');
  assertEventName(frame.event);
  let json: string | undefined;
  try {
    json = JSON.stringify(frame.data);
  } catch (error) {
    throw new HearthNetLocalError(
      'invalid_sse_frame',
      `frame data is not JSON: ${(error as Error).message}`,
      { cause: error },
    );
  }
  if (json === undefined)
    throw new HearthNetLocalError('invalid_sse_frame', 'frame data is not JSON (undefined or a function)');
  // JSON.stringify escapes every line break inside strings and adds none between tokens: one `data:` line.
  return `event: ${frame.event}\ndata: ${json}\n\n`;
}

/**
 * The UTF-8 bytes of SSE text (a frame, a comment) for a stream body: Node's `Buffer.from` where it can be
 * reached (several times faster than `TextEncoder` on a 350 KB chunk frame), `TextEncoder` elsewhere.
 */
export const sseBytes: (text: string) => Uint8Array = /* @__PURE__ */ (() => {
  const nodeBuffer = globalThis.process?.getBuiltinModule?.('node:buffer');
  if (nodeBuffer !== undefined) {
    const { Buffer: NodeBuffer } = nodeBuffer;
    return (text: string) => NodeBuffer.from(text, 'utf8');
  }
  const encoder = new TextEncoder();
  return (text: string) => encoder.encode(text);
})();

/**
 * A frame whose SSE bytes its producer wrote: byte for byte what {@link encodeSseFrame} writes for its
 * `event` and `data`, which is built only when read. The stream writers send `bytes` as they are, without
 * making the frame's text or checking it against the capability's schema (the producer builds it from
 * values it checked): a `file.read` or `file.put` chunk goes out with its base64 written once, straight
 * into the frame. Internal to this package.
 */
export class PreEncodedSseFrame<Data = unknown> implements SseFrame<string, Data> {
  readonly event: string;
  readonly bytes: Uint8Array;
  readonly #build: () => Data;
  #data: { readonly value: Data } | undefined;

  constructor(event: string, bytes: Uint8Array, build: () => Data) {
    this.event = event;
    this.bytes = bytes;
    this.#build = build;
  }

  get data(): Data {
    this.#data ??= { value: this.#build() };
    return this.#data.value;
  }
}

/**
 * An SSE comment line, e.g. the keepalive `: keepalive\n\n` the reference's writer sends. Readers
 * skip comments; they keep idle connections open through proxies.
 *
 * @throws {HearthNetLocalError} `invalid_sse_frame` when the text holds a line break.
 */
export function encodeSseComment(text = 'keepalive'): string {
  if (typeof text !== 'string' || LINE_BREAK.test(text)) {
    throw new HearthNetLocalError('invalid_sse_frame', 'an SSE comment must be one line of text');
  }
  return `: ${text}\n\n`;
}

function assertEventName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || name === '' || LINE_BREAK.test(name)) {
    throw new HearthNetLocalError(
      'invalid_sse_frame',
      `an SSE event name must be a non-empty single line, got ${JSON.stringify(name)}`,
    );
  }
}

const CR = '\r';
const LF = '\n';

/** Options of an {@link SseParser}. */
export interface SseParserOptions {
  /**
   * The most UTF-16 code units one event (its data plus its current line) may grow to before the
   * parser gives up with `frame_too_large`. Default 16 MiB: a `file.read` chunk frame holds a 256 KiB
   * chunk in base64.
   */
  readonly maxEventLength?: number;
}

/** Node's ASCII check and latin1 reading, where `node:buffer` can be reached; `undefined` elsewhere. */
const ascii = /* @__PURE__ */ (() => {
  const nodeBuffer = globalThis.process?.getBuiltinModule?.('node:buffer');
  if (nodeBuffer === undefined || typeof nodeBuffer.isAscii !== 'function') return undefined;
  const { Buffer: NodeBuffer, isAscii } = nodeBuffer;
  return {
    isAscii: (bytes: Uint8Array) => isAscii(bytes),
    text: (bytes: Uint8Array) =>
      NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'),
  };
})();

/**
 * An incremental parser of `text/event-stream` (the WHATWG SSE rules, contract §5.3): feed it chunks
 * as they arrive, split anywhere — inside a UTF-8 sequence, between `\r` and `\n` — and it returns
 * the events and comments completed so far. Lines end with CRLF, LF or CR; `event:` names the next
 * event (default `message`); `data:` lines are joined with `\n`; one space after the colon is
 * dropped; `id:`, `retry:` and unknown fields are ignored; a blank line dispatches (an event without
 * data is not dispatched); a leading BOM is skipped. What is left unterminated at the end of the
 * stream is discarded, as the SSE rules say.
 *
 * @example
 * const parser = new SseParser();
 * parser.push('event: tok');                    // []
 * parser.push('en\ndata: {"text":"hi"}\n\n');   // [{ type: 'event', event: 'token', data: '{"text":"hi"}' }]
 */
export class SseParser {
  readonly #decoder = new TextDecoder('utf-8', { fatal: true });
  /** No byte so far was outside ASCII (a leading BOM is not ASCII, so the decoder still skips it). */
  #asciiSoFar = true;
  readonly #maxEventLength: number;
  /** The pieces of the current line, not yet ended by a line break. */
  #pending: string[] = [];
  #pendingLength = 0;
  /** The previous chunk ended with CR: a LF at the start of the next one belongs to it. */
  #skipLeadingLf = false;
  #eventName = '';
  #data: string[] = [];
  #dataLength = 0;
  #finished = false;
  /** No text has arrived yet: a leading BOM is still to be skipped. */
  #atStart = true;

  constructor(options: SseParserOptions = {}) {
    const max = options.maxEventLength ?? 16 * 1024 * 1024;
    if (!Number.isSafeInteger(max) || max < 1) {
      throw new HearthNetLocalError(
        'invalid_wire_options',
        `maxEventLength must be a positive integer, got ${String(max)}`,
      );
    }
    this.#maxEventLength = max;
  }

  /**
   * Feeds one chunk (bytes, or text already decoded) and returns the items it completes.
   *
   * @throws {HearthNetLocalError} `sse_protocol` (`invalid_utf8` or `frame_too_large`).
   */
  push(chunk: Uint8Array | string): SseItem[] {
    if (this.#finished)
      throw new HearthNetLocalError('sse_protocol', 'data after the end of the stream', {
        details: { reason: 'frame_after_terminal' },
      });
    if (typeof chunk !== 'string') return this.#feed(this.#decode(chunk, true));
    // The UTF-8 decoder skips a leading BOM of bytes; text gets the same treatment here.
    return this.#feed(this.#atStart && chunk.startsWith('\uFEFF') ? chunk.slice(1) : chunk);
  }

  /**
   * Ends the stream: flushes the UTF-8 decoder and returns the last items. An event or line left
   * without its terminating blank line is discarded.
   *
   * @throws {HearthNetLocalError} `sse_protocol` (`invalid_utf8`) when the stream ends inside a UTF-8
   *   sequence.
   */
  finish(): SseItem[] {
    if (this.#finished) return [];
    const items = this.#feed(this.#decode(new Uint8Array(0), false));
    this.#finished = true;
    this.#pending = [];
    this.#pendingLength = 0;
    this.#data = [];
    return items;
  }

  #decode(bytes: Uint8Array, stream: boolean): string {
    // While every byte so far was ASCII the decoder holds no partial sequence, and ASCII bytes are their
    // own text: Node reads them at memory speed (a chunk frame is ≈ 350 KB of base64).
    if (this.#asciiSoFar && ascii?.isAscii(bytes)) return ascii.text(bytes);
    this.#asciiSoFar = false;
    try {
      return this.#decoder.decode(bytes, { stream });
    } catch (error) {
      throw new HearthNetLocalError('sse_protocol', 'the event stream is not valid UTF-8', {
        cause: error,
        details: { reason: 'invalid_utf8' },
      });
    }
  }

  #feed(text: string): SseItem[] {
    if (text.length > 0) this.#atStart = false;
    let input = text;
    if (this.#skipLeadingLf && input.length > 0) {
      this.#skipLeadingLf = false;
      if (input.startsWith(LF)) input = input.slice(1);
    }
    const items: SseItem[] = [];
    let start = 0;
    // Line breaks are found with indexOf (CR rarely occurs: once absent, it is not searched again).
    let nextCr = input.indexOf(CR);
    let nextLf = input.indexOf(LF);
    while (nextCr !== -1 || nextLf !== -1) {
      const end = nextCr === -1 ? nextLf : nextLf === -1 ? nextCr : Math.min(nextCr, nextLf);
      let line = input.slice(start, end);
      if (this.#pending.length > 0) {
        line = this.#pending.join('') + line;
        this.#pending = [];
        this.#pendingLength = 0;
      }
      this.#line(line, items);
      start = end + 1;
      if (end === nextCr) {
        if (start < input.length) {
          if (input.charCodeAt(start) === 10) start += 1;
        } else {
          this.#skipLeadingLf = true;
        }
      }
      if (nextCr !== -1 && nextCr < start) nextCr = input.indexOf(CR, start);
      if (nextLf !== -1 && nextLf < start) nextLf = input.indexOf(LF, start);
    }
    if (start < input.length) {
      const rest = input.slice(start);
      this.#pending.push(rest);
      this.#pendingLength += rest.length;
    }
    if (this.#pendingLength + this.#dataLength > this.#maxEventLength) {
      throw new HearthNetLocalError(
        'sse_protocol',
        `an SSE event exceeds ${this.#maxEventLength} characters`,
        { details: { reason: 'frame_too_large' } },
      );
    }
    return items;
  }

  #line(line: string, items: SseItem[]): void {
    if (line === '') {
      this.#dispatch(items);
      return;
    }
    const colon = line.indexOf(':');
    if (colon === 0) {
      items.push({ type: 'comment', text: withoutLeadingSpace(line.slice(1)) });
      return;
    }
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : withoutLeadingSpace(line.slice(colon + 1));
    if (field === 'event') this.#eventName = value;
    else if (field === 'data') {
      this.#data.push(value);
      this.#dataLength += value.length + 1;
      if (this.#dataLength > this.#maxEventLength) {
        throw new HearthNetLocalError(
          'sse_protocol',
          `an SSE event exceeds ${this.#maxEventLength} characters`,
          { details: { reason: 'frame_too_large' } },
        );
      }
    }
  }

  #dispatch(items: SseItem[]): void {
    if (this.#data.length > 0) {
      items.push({
        type: 'event',
        event: this.#eventName === '' ? 'message' : this.#eventName,
        data: this.#data.join(LF),
      });
    }
    this.#eventName = '';
    this.#data = [];
    this.#dataLength = 0;
  }
}

function withoutLeadingSpace(value: string): string {
  return value.startsWith(' ') ? value.slice(1) : value;
}

/** Options of an {@link SseFrameReader}. */
export interface SseFrameReaderOptions extends SseParserOptions {
  /** Checks (and types) each frame; see `streamFrameValidator`. Default: frames are only JSON-decoded. */
  readonly validate?: StreamFrameValidator;
  /** Called with the text of each comment (keepalive). */
  readonly onComment?: (text: string) => void;
}

/**
 * Reads HearthNet stream frames (contract §5.3) from SSE chunks: each event's data is decoded as one JSON
 * value and checked by `validate`; the stream must end with exactly one terminal frame, `done` or `error`: a
 * frame after it, or the end of the stream before it, is an {@link HearthNetLocalError} `sse_protocol`.
 * Comments are keepalives and are skipped.
 *
 * @example
 * const reader = new SseFrameReader({ validate: streamFrameValidator(catalogueDescriptor('llm.chat')) });
 * for (const frame of reader.push(chunk)) render(frame);
 * reader.finish(); // throws missing_terminal if `done`/`error` never came
 */
export class SseFrameReader {
  readonly #parser: SseParser;
  readonly #validate: StreamFrameValidator | undefined;
  readonly #onComment: ((text: string) => void) | undefined;
  #terminal: SseFrame | undefined;

  constructor(options: SseFrameReaderOptions = {}) {
    this.#parser = new SseParser(
      options.maxEventLength === undefined ? {} : { maxEventLength: options.maxEventLength },
    );
    this.#validate = options.validate;
    this.#onComment = options.onComment;
  }

  /** The terminal frame, once it has arrived. */
  get terminal(): SseFrame | undefined {
    return this.#terminal;
  }

  /**
   * Feeds one chunk; returns the frames it completes, the terminal one included.
   *
   * @throws {HearthNetLocalError} `sse_protocol`
   */
  push(chunk: Uint8Array | string): SseFrame[] {
    return this.#frames(this.#parser.push(chunk));
  }

  /**
   * Ends the stream; returns the last frames.
   *
   * @throws {HearthNetLocalError} `sse_protocol` (`missing_terminal`) when no `done` or `error` frame came.
   */
  finish(): SseFrame[] {
    const frames = this.#frames(this.#parser.finish());
    if (this.#terminal === undefined) {
      throw new HearthNetLocalError('sse_protocol', 'the stream ended without a done or error frame', {
        details: { reason: 'missing_terminal' },
      });
    }
    return frames;
  }

  #frames(items: ReturnType<SseParser['push']>): SseFrame[] {
    const frames: SseFrame[] = [];
    for (const item of items) {
      if (item.type === 'comment') {
        this.#onComment?.(item.text);
        continue;
      }
      if (this.#terminal !== undefined) {
        throw new HearthNetLocalError(
          'sse_protocol',
          `frame "${item.event}" after the terminal "${this.#terminal.event}" frame`,
          { details: { reason: 'frame_after_terminal' } },
        );
      }
      let data: unknown;
      try {
        data = JSON.parse(item.data);
      } catch (error) {
        throw new HearthNetLocalError('sse_protocol', `frame "${item.event}" data is not JSON`, {
          cause: error,
          details: { reason: 'invalid_json' },
        });
      }
      const raw: SseFrame = { event: item.event, data };
      const frame = this.#validate === undefined ? raw : this.#validate(raw);
      if (isTerminalEvent(frame.event)) this.#terminal = frame;
      frames.push(frame);
    }
    return frames;
  }
}

/**
 * The frames of an SSE response body, as an async iterator (see {@link SseFrameReader} for the
 * rules). Stopping early (`break`, `return`) cancels the body, which closes the connection.
 *
 * @throws {HearthNetLocalError} `sse_protocol` from the iterator.
 */
export async function* readSseFrames(
  body: ReadableStream<Uint8Array>,
  options: SseFrameReaderOptions = {},
): AsyncGenerator<SseFrame, void, undefined> {
  const reader = new SseFrameReader(options);
  const source = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await source.read();
      if (done) break;
      yield* reader.push(value);
    }
    finished = true;
    yield* reader.finish();
  } finally {
    if (!finished) await source.cancel().catch(() => undefined);
    source.releaseLock();
  }
}

const COUNT = { type: 'integer', minimum: 0 } as const;

/** `progress` data (contract §5.3): `{current, total, stage}`, any capability; `current` required. */
export const PROGRESS_FRAME_DATA_SCHEMA = {
  type: 'object',
  properties: { current: COUNT, total: COUNT, stage: { type: 'string' } },
  required: ['current'],
} as const satisfies JsonSchema;

/** `ack` data (contract §5.3): `{upto}`, the number of frames the client has received so far. */
export const ACK_FRAME_DATA_SCHEMA = {
  type: 'object',
  properties: { upto: COUNT },
  required: ['upto'],
} as const satisfies JsonSchema;

/** `error` data: the §5.4 error body; `error` (the code) required. */
export const ERROR_FRAME_DATA_SCHEMA = {
  type: 'object',
  properties: {
    error: { type: 'string', minLength: 1 },
    message: { type: 'string' },
    retry_after_ms: COUNT,
    alt_capabilities: { type: 'array', items: { type: 'string' } },
    alt_nodes: { type: 'array', items: { type: 'string' } },
    schema_hash_expected: { type: 'string' },
  },
  required: ['error'],
} as const satisfies JsonSchema;

const wireFrameSchemas: ReadonlyMap<string, ReturnType<typeof compileSchema>> = new Map([
  [PROGRESS_EVENT, compileSchema(PROGRESS_FRAME_DATA_SCHEMA)],
  [ACK_EVENT, compileSchema(ACK_FRAME_DATA_SCHEMA)],
  [ERROR_EVENT, compileSchema(ERROR_FRAME_DATA_SCHEMA)],
]);

/** Checks one frame and returns it (defaults filled in), or throws {@link HearthNetLocalError}
 * `sse_protocol` (`details.reason` `invalid_frame`). */
export type StreamFrameValidator = (frame: SseFrame) => SseFrame;

/**
 * The validator of a capability's stream frames (contract §5.3): `progress`, `ack` and `error`
 * against the contract-wide schemas above, every other event against the descriptor's
 * `streamSchema` (through the catalogue's validators). Without a descriptor, or for a descriptor
 * that does not stream, only the contract-wide events are checked.
 *
 * @example
 * const validate = streamFrameValidator(catalogueDescriptor('llm.chat'));
 * validate({ event: 'token', data: { text: 'Sie ' } }); // ok
 * validate({ event: 'token', data: {} });              // throws HearthNetLocalError sse_protocol
 * (invalid_frame)
 */
export function streamFrameValidator(descriptor?: CapabilityDescriptor): StreamFrameValidator {
  const capabilityFrames = descriptor === undefined ? null : validatorsFor(descriptor).stream;
  const capability = descriptor === undefined ? 'stream' : `${descriptor.name}@${descriptor.version}`;
  return (frame) => {
    const wide = wireFrameSchemas.get(frame.event);
    if (wide !== undefined) {
      const result = wide.safeParse(frame.data);
      if (!result.success) throw invalid(capability, frame.event, result.error.issues[0]?.message);
      return { event: frame.event, data: result.data };
    }
    if (capabilityFrames === null) return frame;
    const result = capabilityFrames.check(frame);
    if (!result.ok)
      throw invalid(capability, frame.event, `${result.issues[0]?.path}: ${result.issues[0]?.message}`);
    return result.value as SseFrame;
  };
}

function invalid(capability: string, event: string, detail: string | undefined): HearthNetLocalError {
  return new HearthNetLocalError(
    'sse_protocol',
    `${capability} frame "${event}" does not match its schema: ${detail ?? 'invalid'}`,
    { details: { reason: 'invalid_frame' } },
  );
}

/** The frames a sender may have unacknowledged, and the reference's value for it. */
export const DEFAULT_ACK_WINDOW = 16;

/**
 * Credit-based back-pressure for a frame sender (contract §5.3 `ack`: `{"upto": N}` means the
 * receiver has the first N frames). At most `window` frames may be unacknowledged: {@link reserve}
 * waits until one more frame fits. The reference uses a 16-frame window and acknowledges every 8
 * frames (half the window); {@link ackDue} gives a receiver that rhythm.
 *
 * @example
 * const credit = new AckWindow(16);
 * for await (const frame of frames) { await credit.reserve(signal); send(frame); }
 * // elsewhere, for each ack frame received: credit.acknowledge(frame.data.upto);
 */
export class AckWindow {
  readonly #window: number;
  #sent = 0;
  #acknowledged = 0;
  #waiters: (() => void)[] = [];

  constructor(window: number = DEFAULT_ACK_WINDOW) {
    if (!Number.isSafeInteger(window) || window < 1) {
      throw new HearthNetLocalError(
        'invalid_wire_options',
        `the ack window must be a positive integer, got ${String(window)}`,
      );
    }
    this.#window = window;
  }

  /** Frames sent so far. */
  get sent(): number {
    return this.#sent;
  }

  /** The highest `upto` received. */
  get acknowledged(): number {
    return this.#acknowledged;
  }

  /**
   * Waits until one more frame fits in the window, then counts it as sent; resolves with its number
   * (1-based). Rejects with the signal's reason when `signal` aborts first, and with a
   * `HearthNetLocalError` `slow_consumer` (`ack_timeout`) when the window stays full for `timeoutMs` (no limit
   * when absent): a receiver that does not acknowledge.
   */
  async reserve(signal?: AbortSignal, timeoutMs?: number): Promise<number> {
    const deadline = timeoutMs === undefined ? undefined : performance.now() + timeoutMs;
    while (this.#sent - this.#acknowledged >= this.#window) {
      signal?.throwIfAborted();
      await new Promise<void>((resolve, reject) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const settle = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        };
        const onAbort = () => {
          settle();
          reject(signal?.reason);
        };
        const wake = () => {
          settle();
          resolve();
        };
        this.#waiters.push(wake);
        signal?.addEventListener('abort', onAbort, { once: true });
        if (deadline === undefined) return;
        timer = setTimeout(
          () => {
            settle();
            this.#waiters = this.#waiters.filter((waiter) => waiter !== wake);
            const message = `no ack for ${timeoutMs} ms with the window of ${this.#window} frames full`;
            reject(slowConsumerError('ack_timeout', message));
          },
          Math.max(0, deadline - performance.now()),
        );
      });
    }
    signal?.throwIfAborted();
    this.#sent += 1;
    return this.#sent;
  }

  /** Records `{"upto": upto}`; values not above the last one, or above what was sent, change nothing. */
  acknowledge(upto: number): void {
    if (!Number.isSafeInteger(upto) || upto <= this.#acknowledged || upto > this.#sent) return;
    this.#acknowledged = upto;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}

/**
 * Whether a receiver that has `received` frames and last acknowledged `lastAcked` should send
 * `{"upto": received}` now: once every half window (8 frames for the default 16).
 */
export function ackDue(received: number, lastAcked: number, window: number = DEFAULT_ACK_WINDOW): boolean {
  return received - lastAcked >= Math.max(1, Math.floor(window / 2));
}

/**
 * The WebSocket close code of a dropped slow consumer: 1008 (policy violation), with the limit as the
 * close reason — as the relay server closes a gateway that does not read.
 */
export const SLOW_CONSUMER_CLOSE_CODE = 1008;

/**
 * How long a peer may leave written bytes queued above a sender's bound (or, on `node:http`, a
 * response whose `write` reported a full buffer) before it is dropped, by default: 60 s, as the
 * relay server waits for a gateway.
 */
export const DEFAULT_DRAIN_TIMEOUT_MS = 60_000;

/** The longest delay a timer honours (about 24.8 days): `setTimeout` fires at once above it. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** How long a peer may leave an ack window full before it is dropped, by default: 60 s. */
export const DEFAULT_ACK_TIMEOUT_MS = 60_000;

/**
 * The `slow_consumer` error: a peer that does not read (or does not acknowledge) what it is sent was
 * dropped, so that it costs bounded memory and no connection held forever (`details.limit`: which
 * bound; also the WebSocket close reason, with close code {@link SLOW_CONSUMER_CLOSE_CODE}). Reported,
 * never thrown at callers: the abort reason of a `node:http` request whose client stopped reading, and
 * what a pub-sub WebSocket server hands to `onSlowSubscriber`.
 */
export function slowConsumerError(
  limit: SlowConsumerLimit,
  message: string,
  options?: ErrorOptions,
): HearthNetLocalError {
  return new HearthNetLocalError('slow_consumer', `slow consumer dropped (${limit}): ${message}`, {
    ...options,
    details: { limit },
  });
}

/**
 * The one rule every bounded sender of this package applies to its peer: `progress` (a drain, an ack)
 * must come within `timeoutMs`, else the peer is a slow consumer. Settles as `progress` does, or
 * rejects with `slowConsumerError(limit, message)` once `timeoutMs` passed first. `progress` is
 * never left with an unhandled rejection.
 */
export function progressWithin<T>(
  progress: Promise<T>,
  timeoutMs: number,
  limit: SlowConsumerLimit,
  message: () => string,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(slowConsumerError(limit, message())), timeoutMs);
  });
  return Promise.race([progress, late]).finally(() => clearTimeout(timer));
}
