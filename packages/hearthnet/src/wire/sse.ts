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

/** Options of an {@link SseParser}. */
export interface SseParserOptions {
  /**
   * The most bytes one event (its data plus its current line) may grow to before the parser gives up
   * with `frame_too_large`. Default 16 MiB: a `file.read` chunk frame holds a 256 KiB chunk in base64.
   */
  readonly maxEventLength?: number;
}

const CR = 0x0d;
const LF = 0x0a;
const COLON = 0x3a;
const SPACE = 0x20;
const BOM = Uint8Array.of(0xef, 0xbb, 0xbf);
const EVENT_FIELD = Uint8Array.of(0x65, 0x76, 0x65, 0x6e, 0x74);
const DATA_FIELD = Uint8Array.of(0x64, 0x61, 0x74, 0x61);

/** Node's byte search (memchr), ASCII check and latin1 reading, where `node:buffer` can be reached. */
const nodeBytes = /* @__PURE__ */ (() => {
  const nodeBuffer = globalThis.process?.getBuiltinModule?.('node:buffer');
  if (nodeBuffer === undefined || typeof nodeBuffer.isAscii !== 'function') return undefined;
  const { Buffer: NodeBuffer, isAscii } = nodeBuffer;
  const indexOf = NodeBuffer.prototype.indexOf;
  return {
    indexOf: (bytes: Uint8Array, byte: number, from: number): number => indexOf.call(bytes, byte, from),
    isAscii: (bytes: Uint8Array) => isAscii(bytes),
    latin1: (bytes: Uint8Array) =>
      NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'),
  };
})();

const indexOfByte =
  nodeBytes?.indexOf ?? ((bytes: Uint8Array, byte: number, from: number) => bytes.indexOf(byte, from));
/** Decodes a line the stream check already found valid (a BOM inside a line is text, not a mark). */
const lineDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const textEncoder = new TextEncoder();

/** The text of bytes the stream check found valid UTF-8: at memory speed while they are ASCII. */
function textOf(bytes: Uint8Array): string {
  if (nodeBytes?.isAscii(bytes) === true) return nodeBytes.latin1(bytes);
  return lineDecoder.decode(bytes);
}

/** Whether `bytes` (checked UTF-8 so far) end inside a multi-byte sequence; `true` when they cannot tell. */
function endsInsideSequence(bytes: Uint8Array): boolean {
  for (let back = 1; back <= Math.min(4, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back] as number;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back;
  }
  return true;
}

function sameBytes(bytes: Uint8Array, length: number, expected: Uint8Array): boolean {
  if (length !== expected.length) return false;
  for (let k = 0; k < length; k += 1) if (bytes[k] !== expected[k]) return false;
  return true;
}

/** An event as the scanner dispatches it: its name and its data lines, still bytes. */
interface ScannedEvent {
  readonly type: 'event';
  readonly event: string;
  readonly lines: readonly Uint8Array[];
}

/** An event of one data line that the scanner's `fromBytes` read as a frame. */
interface ScannedFrame {
  readonly type: 'frame';
  readonly frame: SseFrame;
}

type ScannedItem = ScannedEvent | SseComment | ScannedFrame;

/**
 * The byte-level engine of {@link SseParser} and {@link SseFrameReader}: finds lines with a byte search,
 * keeps data lines as bytes until their event is dispatched, checks the stream is UTF-8 as it arrives,
 * and makes text only of what needs it (names, comments, and the data a caller asks as text).
 */
class SseScanner {
  readonly #check = new TextDecoder('utf-8', { fatal: true });
  /** The check may hold the start of a sequence: the next chunk goes through it even if it is ASCII. */
  #checkPending = false;
  readonly #maxEventLength: number;
  /** The pieces of the current line, not yet ended by a line break (copies, unless `keepViews`). */
  #line: Uint8Array[] = [];
  #lineLength = 0;
  /** The previous chunk ended with CR: a LF at the start of the next one belongs to it. */
  #skipLeadingLf = false;
  #eventName = '';
  #data: Uint8Array[] = [];
  #dataLength = 0;
  /** How many bytes of a leading BOM have come so far; -1 once the start of the stream is past. */
  #bomSeen = 0;
  #finished = false;

  /** Whether the caller never changes a chunk it pushed (a body's chunks): lines may then stay views of it. */
  readonly #keepViews: boolean;
  /** Reads an event of one data line as a frame, when it can (internal: chunk frames). */
  readonly #fromBytes: FrameFromBytes | undefined;

  constructor(options: SseParserOptions, keepViews: boolean, fromBytes?: FrameFromBytes) {
    this.#keepViews = keepViews;
    this.#fromBytes = fromBytes;
    const max = options.maxEventLength ?? 16 * 1024 * 1024;
    if (!Number.isSafeInteger(max) || max < 1) {
      throw new HearthNetLocalError(
        'invalid_wire_options',
        `maxEventLength must be a positive integer, got ${String(max)}`,
      );
    }
    this.#maxEventLength = max;
  }

  push(chunk: Uint8Array | string): ScannedItem[] {
    if (this.#finished)
      throw new HearthNetLocalError('sse_protocol', 'data after the end of the stream', {
        details: { reason: 'frame_after_terminal' },
      });
    const bytes = typeof chunk === 'string' ? textEncoder.encode(chunk) : chunk;
    this.#checkUtf8(bytes);
    const items: ScannedItem[] = [];
    let start = 0;
    if (this.#bomSeen !== -1) {
      while (start < bytes.length && this.#bomSeen < BOM.length && bytes[start] === BOM[this.#bomSeen]) {
        this.#bomSeen += 1;
        start += 1;
      }
      if (this.#bomSeen === BOM.length) this.#bomSeen = -1;
      else if (start < bytes.length) {
        // Not a BOM after all: what matched of one is text.
        const matched = this.#bomSeen;
        this.#bomSeen = -1;
        if (matched > 0) this.#feed(BOM.subarray(0, matched), 0, items);
      } else return items;
    }
    this.#feed(bytes, start, items);
    return items;
  }

  finish(): ScannedItem[] {
    if (this.#finished) return [];
    this.#finished = true;
    this.#line = [];
    this.#lineLength = 0;
    this.#data = [];
    try {
      this.#check.decode();
    } catch (error) {
      throw invalidUtf8(error);
    }
    return [];
  }

  #checkUtf8(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    const isAscii = nodeBytes?.isAscii(bytes);
    if (isAscii === true && !this.#checkPending) return;
    try {
      this.#check.decode(bytes, { stream: true });
    } catch (error) {
      throw invalidUtf8(error);
    }
    this.#checkPending = isAscii !== true && endsInsideSequence(bytes);
  }

  #feed(bytes: Uint8Array, from: number, items: ScannedItem[]): void {
    let start = from;
    if (this.#skipLeadingLf && start < bytes.length) {
      this.#skipLeadingLf = false;
      if (bytes[start] === LF) start += 1;
    }
    // Line breaks are found with a byte search (CR rarely occurs: once absent, it is not searched again).
    let nextCr = indexOfByte(bytes, CR, start);
    let nextLf = indexOfByte(bytes, LF, start);
    while (nextCr !== -1 || nextLf !== -1) {
      const end = nextCr === -1 ? nextLf : nextLf === -1 ? nextCr : Math.min(nextCr, nextLf);
      this.#endLine(bytes, start, end, items);
      start = end + 1;
      if (end === nextCr) {
        if (start < bytes.length) {
          if (bytes[start] === LF) start += 1;
        } else {
          this.#skipLeadingLf = true;
        }
      }
      if (nextCr !== -1 && nextCr < start) nextCr = indexOfByte(bytes, CR, start);
      if (nextLf !== -1 && nextLf < start) nextLf = indexOfByte(bytes, LF, start);
    }
    if (start < bytes.length) {
      this.#line.push(
        this.#keepViews ? bytes.subarray(start) : Uint8Array.prototype.slice.call(bytes, start),
      );
      this.#lineLength += bytes.length - start;
    }
    if (this.#lineLength + this.#dataLength > this.#maxEventLength) throw this.#tooLarge();
  }

  /** Ends the current line at `bytes[end]` (its pieces so far, then `bytes[start, end)`). */
  #endLine(bytes: Uint8Array, start: number, end: number, items: ScannedItem[]): void {
    let line: Uint8Array;
    const inCallersChunk = this.#line.length === 0;
    if (inCallersChunk) {
      line = bytes.subarray(start, end);
    } else {
      line = new Uint8Array(this.#lineLength + end - start);
      let at = 0;
      for (const piece of this.#line) {
        line.set(piece, at);
        at += piece.length;
      }
      line.set(bytes.subarray(start, end), at);
      this.#line = [];
      this.#lineLength = 0;
    }
    if (line.length === 0) {
      this.#dispatch(items);
      return;
    }
    const colon = indexOfByte(line, COLON, 0);
    if (colon === 0) {
      items.push({ type: 'comment', text: textOf(line.subarray(line[1] === SPACE ? 2 : 1)) });
      return;
    }
    const fieldLength = colon === -1 ? line.length : colon;
    let valueStart = colon === -1 ? line.length : colon + 1;
    if (line[valueStart] === SPACE) valueStart += 1;
    if (sameBytes(line, fieldLength, EVENT_FIELD)) {
      this.#eventName = textOf(line.subarray(valueStart));
    } else if (sameBytes(line, fieldLength, DATA_FIELD)) {
      // A line still in the caller's chunk is copied (unless `keepViews`): a later chunk may dispatch it.
      const value =
        inCallersChunk && !this.#keepViews
          ? Uint8Array.prototype.slice.call(line, valueStart)
          : line.subarray(valueStart);
      this.#data.push(value);
      this.#dataLength += value.length + 1;
      if (this.#dataLength > this.#maxEventLength) throw this.#tooLarge();
    }
  }

  #dispatch(items: ScannedItem[]): void {
    if (this.#data.length > 0) {
      const event = this.#eventName === '' ? 'message' : this.#eventName;
      const frame =
        this.#fromBytes !== undefined && this.#data.length === 1
          ? this.#fromBytes(event, this.#data[0] as Uint8Array)
          : undefined;
      items.push(
        frame === undefined ? { type: 'event', event, lines: this.#data } : { type: 'frame', frame },
      );
    }
    this.#eventName = '';
    this.#data = [];
    this.#dataLength = 0;
  }

  #tooLarge(): HearthNetLocalError {
    return new HearthNetLocalError('sse_protocol', `an SSE event exceeds ${this.#maxEventLength} bytes`, {
      details: { reason: 'frame_too_large' },
    });
  }
}

function invalidUtf8(cause: unknown): HearthNetLocalError {
  return new HearthNetLocalError('sse_protocol', 'the event stream is not valid UTF-8', {
    cause,
    details: { reason: 'invalid_utf8' },
  });
}

/** The data of a scanned event as text: its lines joined with `\n`. */
function dataText(lines: readonly Uint8Array[]): string {
  return lines.length === 1 ? textOf(lines[0] as Uint8Array) : lines.map(textOf).join('\n');
}

/**
 * An incremental parser of `text/event-stream` (the WHATWG SSE rules, contract §5.3): feed it chunks
 * as they arrive, split anywhere — inside a UTF-8 sequence, between `\r` and `\n` — and it returns
 * the events and comments completed so far. Lines end with CRLF, LF or CR; `event:` names the next
 * event (default `message`); `data:` lines are joined with `\n`; one space after the colon is
 * dropped; `id:`, `retry:` and unknown fields are ignored; a blank line dispatches (an event without
 * data is not dispatched); a leading BOM is skipped. What is left unterminated at the end of the
 * stream is discarded, as the SSE rules say. Text is fed as its UTF-8 bytes.
 *
 * @example
 * const parser = new SseParser();
 * parser.push('event: tok');                    // []
 * parser.push('en\ndata: {"text":"hi"}\n\n');   // [{ type: 'event', event: 'token', data: '{"text":"hi"}' }]
 */
export class SseParser {
  readonly #scanner: SseScanner;

  constructor(options: SseParserOptions = {}) {
    this.#scanner = new SseScanner(options, false);
  }

  /**
   * Feeds one chunk (bytes, or text) and returns the items it completes.
   *
   * @throws {HearthNetLocalError} `sse_protocol` (`invalid_utf8` or `frame_too_large`).
   */
  push(chunk: Uint8Array | string): SseItem[] {
    return this.#scanner.push(chunk).map(asItem);
  }

  /**
   * Ends the stream and returns the last items (none: an event or line left without its terminating
   * blank line is discarded).
   *
   * @throws {HearthNetLocalError} `sse_protocol` (`invalid_utf8`) when the stream ends inside a UTF-8
   *   sequence.
   */
  finish(): SseItem[] {
    return this.#scanner.finish().map(asItem);
  }
}

/** What {@link bodyEventParser} gives: SSE items, and the frames `fromBytes` read. */
export type BodyEvent = SseItem | ScannedFrame;

/**
 * An {@link SseParser} for a body whose chunks are never changed once read (lines stay views of them),
 * that hands every event of one data line to `fromBytes` first (internal: the node reads `file.put`
 * chunks with `ChunkFrame`).
 */
export function bodyEventParser(
  options: SseParserOptions,
  fromBytes: FrameFromBytes | undefined,
): { push(chunk: Uint8Array): BodyEvent[]; finish(): BodyEvent[] } {
  const scanner = new SseScanner(options, true, fromBytes);
  const eventOf = (item: ScannedItem): BodyEvent => (item.type === 'frame' ? item : asItem(item));
  return {
    push: (chunk) => scanner.push(chunk).map(eventOf),
    finish: () => scanner.finish().map(eventOf),
  };
}

/** An event or a comment as text (a scanner without `fromBytes` makes no frames). */
function asItem(item: ScannedItem): SseItem {
  if (item.type === 'frame') throw new Error('unreachable: a frame from a scanner without fromBytes');
  return item.type === 'comment' ? item : { type: 'event', event: item.event, data: dataText(item.lines) };
}

/** Options of an {@link SseFrameReader}. */
export interface SseFrameReaderOptions extends SseParserOptions {
  /** Checks (and types) each frame; see `streamFrameValidator`. Default: frames are only JSON-decoded. */
  readonly validate?: StreamFrameValidator;
  /** Called with the text of each comment (keepalive). */
  readonly onComment?: (text: string) => void;
}

/**
 * Reads one event's data bytes as a frame the reader takes as it is (not JSON-decoded, not validated), or
 * answers `undefined` to leave the event to the JSON reader. Internal: `file.read` chunk frames.
 */
export type FrameFromBytes = (event: string, data: Uint8Array) => SseFrame | undefined;

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
  readonly #reading: FrameReading;

  constructor(options: SseFrameReaderOptions = {}) {
    this.#reading = new FrameReading(new SseScanner(scannerOptions(options), false), options);
  }

  /** The terminal frame, once it has arrived. */
  get terminal(): SseFrame | undefined {
    return this.#reading.terminal;
  }

  /**
   * Feeds one chunk; returns the frames it completes, the terminal one included.
   *
   * @throws {HearthNetLocalError} `sse_protocol`
   */
  push(chunk: Uint8Array | string): SseFrame[] {
    return this.#reading.push(chunk);
  }

  /**
   * Ends the stream; returns the last frames.
   *
   * @throws {HearthNetLocalError} `sse_protocol` (`missing_terminal`) when no `done` or `error` frame came.
   */
  finish(): SseFrame[] {
    return this.#reading.finish();
  }
}

function scannerOptions(options: SseFrameReaderOptions): SseParserOptions {
  return options.maxEventLength === undefined ? {} : { maxEventLength: options.maxEventLength };
}

/** What {@link SseFrameReader} does, over a scanner of its caller's (see {@link readBodyFrames}). */
class FrameReading {
  readonly #scanner: SseScanner;
  readonly #validate: StreamFrameValidator | undefined;
  readonly #onComment: ((text: string) => void) | undefined;
  #terminal: SseFrame | undefined;

  constructor(scanner: SseScanner, options: SseFrameReaderOptions) {
    this.#scanner = scanner;
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
    return this.#frames(this.#scanner.push(chunk));
  }

  /**
   * Ends the stream; returns the last frames.
   *
   * @throws {HearthNetLocalError} `sse_protocol` (`missing_terminal`) when no `done` or `error` frame came.
   */
  finish(): SseFrame[] {
    const frames = this.#frames(this.#scanner.finish());
    if (this.#terminal === undefined) {
      throw new HearthNetLocalError('sse_protocol', 'the stream ended without a done or error frame', {
        details: { reason: 'missing_terminal' },
      });
    }
    return frames;
  }

  #frames(items: readonly ScannedItem[]): SseFrame[] {
    const frames: SseFrame[] = [];
    for (const item of items) {
      if (item.type === 'comment') {
        this.#onComment?.(item.text);
        continue;
      }
      if (this.#terminal !== undefined) {
        throw new HearthNetLocalError(
          'sse_protocol',
          `frame "${item.type === 'frame' ? item.frame.event : item.event}" after the terminal "${this.#terminal.event}" frame`,
          { details: { reason: 'frame_after_terminal' } },
        );
      }
      const frame = item.type === 'frame' ? item.frame : this.#jsonFrame(item);
      if (isTerminalEvent(frame.event)) this.#terminal = frame;
      frames.push(frame);
    }
    return frames;
  }

  #jsonFrame(item: ScannedEvent): SseFrame {
    let data: unknown;
    try {
      data = JSON.parse(dataText(item.lines));
    } catch (error) {
      throw new HearthNetLocalError('sse_protocol', `frame "${item.event}" data is not JSON`, {
        cause: error,
        details: { reason: 'invalid_json' },
      });
    }
    const raw: SseFrame = { event: item.event, data };
    return this.#validate === undefined ? raw : this.#validate(raw);
  }
}

/**
 * The frames of an SSE response body, as an async iterator (see {@link SseFrameReader} for the
 * rules). Stopping early (`break`, `return`) cancels the body, which closes the connection.
 *
 * @throws {HearthNetLocalError} `sse_protocol` from the iterator.
 */
export function readSseFrames(
  body: ReadableStream<Uint8Array>,
  options: SseFrameReaderOptions = {},
): AsyncGenerator<SseFrame, void, undefined> {
  return framesOf(body, new SseFrameReader(options));
}

/**
 * {@link readSseFrames} of a body whose chunks are never changed once read (this package's own fetch
 * and request bodies: lines stay views of them), with every event of one data line handed to
 * `fromBytes` first (internal: the client reads `file.read` chunks with `ChunkFrame`).
 */
export function readBodyFrames(
  body: ReadableStream<Uint8Array>,
  options: SseFrameReaderOptions,
  fromBytes: FrameFromBytes | undefined,
): AsyncGenerator<SseFrame, void, undefined> {
  return framesOf(body, new FrameReading(new SseScanner(scannerOptions(options), true, fromBytes), options));
}

async function* framesOf(
  body: ReadableStream<Uint8Array>,
  reader: { push(chunk: Uint8Array): SseFrame[]; finish(): SseFrame[] },
): AsyncGenerator<SseFrame, void, undefined> {
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
