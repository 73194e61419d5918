import { HearthNetLocalError } from '../../errors.js';
import type { SseItem } from './sse-event.js';

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
