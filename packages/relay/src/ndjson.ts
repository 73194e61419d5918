import { frameError, frameNotObjectError, isFrameError, RelayError } from './errors.js';
import { decodeFrame, type RelayFrame } from './frames/decode.js';
import {
  type ConnectorFrameInput,
  decodeOutboundFast,
  frameToWireObject,
  type GatewayFrameInput,
  type UnknownFrame,
} from './frames/frames.js';

import { isPythonBlankLine, pythonJsonDumps } from './python.js';

/**
 * How a frame's JSON is written. `compact`: `JSON.stringify` (no spaces, non-ASCII as raw UTF-8).
 * `python`: byte for byte what the gateway's `json.dumps(frame)` writes (`", "`/`": "` separators,
 * `\uXXXX` escapes); use it to emulate a gateway. The gateway reads both.
 */
export type FrameJsonStyle = 'compact' | 'python';

/** Options of {@link encodeFrame}. */
export interface EncodeFrameOptions {
  /** Default `compact`. */
  readonly style?: FrameJsonStyle;
}

/** Anything {@link encodeFrame} writes: a frame of either direction (decoded or built) or an unknown frame. */
export type EncodableFrame = GatewayFrameInput | ConnectorFrameInput | RelayFrame | UnknownFrame;

/**
 * Writes one frame as one wire line: JSON plus `\n`, ready to be sent as one WebSocket text message
 * (the gateway writes exactly one frame per message; its reader splits on `\n`, so the newline is
 * required). The frame is checked first with the decoder's schemas and defaulted fields are filled in
 * (`reply_to: null`, `metadata: {}`, `interrupt.reason: null` …) so what is written always decodes;
 * keys come out in the gateway's order. An {@link UnknownFrame} (and an unknown action) is written
 * back as its `raw` object.
 *
 * @throws {RelayError} `invalid_frame`: a known frame with a missing or mistyped field; `not_object`:
 *   not an object; `unencodable_frame`: a non-finite number (compact style), a bigint or a cycle.
 * @example
 * encodeFrame({ type: 'outbound_result', requestId: 'a1b2', result: { success: true, message_id: 'm1' } });
 * // '{"type":"outbound_result","requestId":"a1b2","result":{"success":true,"message_id":"m1"}}\n'
 * encodeFrame({ type: 'interrupt', session_key: 'agent:main:telegram:dm:42' }, { style: 'python' });
 * // '{"type": "interrupt", "session_key": "agent:main:telegram:dm:42", "reason": null}\n'
 */
export function encodeFrame(frame: EncodableFrame, options: EncodeFrameOptions = {}): string {
  const value: unknown = frame;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw frameNotObjectError(value);
  const input = frameToWireObject(value as Record<string, unknown>);
  // The gateway's frame of every outbound call has a hand-written check that answers as its schema does.
  const checked =
    (input['type'] === 'outbound' ? decodeOutboundFast(input) : undefined) ?? decodeFrame(input);
  const wire = frameToWireObject(checked as unknown as Record<string, unknown>);
  return `${options.style === 'python' ? pythonJsonDumps(wire) : compactJson(wire)}\n`;
}

/**
 * `JSON.stringify(value)`, refusing non-finite numbers (standard JSON has none).
 *
 * @throws {RelayError} `unencodable_frame`: a non-finite number, a bigint or a cycle.
 */
export function compactJson(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    // A non-finite number comes out as `null`: only then is the (slower) checking pass needed.
    return text.includes('null') ? JSON.stringify(value, rejectNonFinite) : text;
  } catch (error) {
    if (error instanceof RelayError && error.code === 'unencodable_frame') throw error;
    throw frameError(
      'unencodable_frame',
      `frame cannot be written as JSON: ${error instanceof Error ? error.message : String(error)}`,
      '$',
      { cause: error },
    );
  }
}

function rejectNonFinite(_key: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw frameError('unencodable_frame', `${value} cannot be written as standard JSON`, '$');
  }
  return value;
}

/** The UTF-8 length of a string in bytes; a lone surrogate counts 3 (it is written as U+FFFD). */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/**
 * Default longest line, in UTF-8 bytes: 1 MiB, the largest WebSocket message the gateway's
 * `websockets` client accepts by default (one frame travels in one message).
 */
export const DEFAULT_MAX_LINE_BYTES = 1024 * 1024;

/** One outcome of {@link FrameDecoder.push}: a frame, or the typed error of one bad line. */
export type FrameDecoderResult<F> =
  | { readonly ok: true; readonly frame: F }
  | { readonly ok: false; readonly error: RelayError };

/** Options of {@link FrameDecoder}. */
export interface FrameDecoderOptions<F> {
  /**
   * Turns one line (without its `\n`) into a frame, throwing a `RelayError` with a frame code
   * (`FrameErrorCode`) when it cannot. Default {@link decodeFrame} (both directions); a connector passes
   * `decodeGatewayFrame`, a gateway `decodeConnectorFrame`.
   */
  readonly decode?: (line: string) => F;
  /** Longest accepted line in UTF-8 bytes, the `\n` not counted. Default `DEFAULT_MAX_LINE_BYTES`. */
  readonly maxLineBytes?: number;
}

const NEWLINE = 0x0a;
const utf8Encoder = new TextEncoder();
/** Fatal so that invalid bytes are reported, and BOM-keeping so that a line starting with one is malformed, as in Python. */
const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Streaming reader of the relay wire: newline-delimited JSON frames over WebSocket messages.
 *
 * Feed it every WebSocket message (text or binary) as it arrives; it works like the gateway's reader.
 * Messages are concatenated and split on `\n`; each complete line is one frame, a trailing partial
 * line waits for more data. So any chunking works: one frame per message (what the gateway sends),
 * several frames per message, a frame split over messages, a multi-byte UTF-8 character split over
 * binary messages. Blank lines (Python `str.isspace` whitespace only) are skipped; a line ending in
 * `\r` (`\r\n` line ends) decodes normally because `\r` is JSON whitespace.
 *
 * A bad line never stops the stream: it yields a typed error (`malformed_json`, `not_object`,
 * `invalid_frame`, `invalid_utf8`, `line_too_long`) and decoding goes on with the next line. Where
 * the gateway's reader dies (a non-object line, invalid UTF-8), this decoder reports and continues.
 * Unknown frame types come out as {@link UnknownFrame}s. `push` never throws a frame codec `RelayError`.
 *
 * @example
 * const decoder = new FrameDecoder({ decode: decodeGatewayFrame });
 * ws.on('message', (data) => {
 *   for (const result of decoder.push(data)) {
 *     if (result.ok) handle(result.frame);
 *     else log.warn(result.error.code, result.error.message);
 *   }
 * });
 */
export class FrameDecoder<F = RelayFrame | UnknownFrame> {
  readonly #decode: (line: string) => F;
  readonly #maxLineBytes: number;
  /** Pieces of the current, unterminated line. */
  #parts: (string | Uint8Array)[] = [];
  /** UTF-8 bytes in {@link #parts}. */
  #partBytes = 0;
  /** The current line passed the limit: drop everything up to the next newline. */
  #discarding = false;

  constructor(options: FrameDecoderOptions<F> = {}) {
    this.#decode = options.decode ?? (decodeFrame as unknown as (line: string) => F);
    const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    if (!Number.isSafeInteger(max) || max < 1) {
      throw new RelayError('invalid_argument', `maxLineBytes must be a positive integer, got ${max}`, {
        path: 'maxLineBytes',
      });
    }
    this.#maxLineBytes = max;
  }

  /** UTF-8 bytes of the unterminated line held back for the next chunk. */
  get bufferedBytes(): number {
    return this.#partBytes;
  }

  /**
   * Feeds one chunk (a WebSocket message) and returns the outcome of every line it completed, in
   * order; often none or one.
   */
  push(chunk: string | Uint8Array): FrameDecoderResult<F>[] {
    const results: FrameDecoderResult<F>[] = [];
    if (typeof chunk === 'string') this.#pushText(chunk, results);
    else this.#pushBytes(chunk, results);
    return results;
  }

  /**
   * Ends the stream: a non-blank unterminated line is reported as `incomplete_frame` (never decoded,
   * as in the gateway). The decoder is then empty and can be reused.
   */
  end(): FrameDecoderResult<F>[] {
    const results: FrameDecoderResult<F>[] = [];
    if (!this.#discarding && this.#parts.length > 0) {
      if (!this.#isBlankPending()) {
        results.push({ ok: false, error: incompleteFrameError(this.#partBytes) });
      }
    }
    this.#reset();
    // A line cut short by the end was being dropped for its length: the next stream starts afresh.
    this.#discarding = false;
    return results;
  }

  #pushText(chunk: string, results: FrameDecoderResult<F>[]): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf('\n', start);
      if (newline === -1) {
        if (start < chunk.length) {
          const piece = chunk.slice(start);
          this.#append(piece, utf8Length(piece), results);
        }
        return;
      }
      const piece = chunk.slice(start, newline);
      if (this.#parts.length === 0 && !this.#discarding) this.#decodeWholeLine(piece, results);
      else {
        this.#append(piece, utf8Length(piece), results);
        this.#completeLine(results);
      }
      start = newline + 1;
    }
  }

  /** Fast path: a line that arrived whole in one text chunk. */
  #decodeWholeLine(line: string, results: FrameDecoderResult<F>[]): void {
    // 3 bytes per UTF-16 unit is an upper bound, so most lines need no exact count.
    if (line.length * 3 > this.#maxLineBytes && utf8Length(line) > this.#maxLineBytes) {
      results.push({ ok: false, error: lineTooLongError(this.#maxLineBytes) });
      return;
    }
    this.#decodeLine(line, results);
  }

  #pushBytes(chunk: Uint8Array, results: FrameDecoderResult<F>[]): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      // Copied: the caller may reuse its buffer once push returns.
      if (end > start) this.#append(chunk.slice(start, end), end - start, results);
      if (newline === -1) return;
      this.#completeLine(results);
      start = newline + 1;
    }
  }

  /** Adds a piece of `bytes` UTF-8 bytes to the current line, or starts discarding once the line passes the limit. */
  #append(piece: string | Uint8Array, bytes: number, results: FrameDecoderResult<F>[]): void {
    if (this.#discarding || bytes === 0) return;
    if (this.#partBytes + bytes > this.#maxLineBytes) {
      results.push({ ok: false, error: lineTooLongError(this.#maxLineBytes) });
      this.#reset();
      this.#discarding = true;
      return;
    }
    this.#parts.push(piece);
    this.#partBytes += bytes;
  }

  #completeLine(results: FrameDecoderResult<F>[]): void {
    if (this.#discarding) {
      this.#discarding = false;
      return;
    }
    const parts = this.#parts;
    this.#reset();
    if (parts.length === 0) return;
    let line: string;
    try {
      line = this.#joinText(parts);
    } catch (error) {
      results.push({
        ok: false,
        error: frameError('invalid_utf8', 'frame line is not valid UTF-8', '$', { cause: error }),
      });
      return;
    }
    this.#decodeLine(line, results);
  }

  #decodeLine(line: string, results: FrameDecoderResult<F>[]): void {
    if (isPythonBlankLine(line)) return;
    try {
      results.push({ ok: true, frame: this.#decode(line) });
    } catch (error) {
      if (!isFrameError(error)) throw error;
      results.push({ ok: false, error });
    }
  }

  /** The text of a line's pieces; throws a TypeError on invalid UTF-8 in byte pieces. */
  #joinText(parts: readonly (string | Uint8Array)[]): string {
    if (parts.every((part) => typeof part === 'string')) return (parts as string[]).join('');
    const bytes = parts.map((part) => (typeof part === 'string' ? utf8Encoder.encode(part) : part));
    const total = bytes.reduce((sum, part) => sum + part.length, 0);
    const joined = new Uint8Array(total);
    let offset = 0;
    for (const part of bytes) {
      joined.set(part, offset);
      offset += part.length;
    }
    return utf8Decoder.decode(joined);
  }

  /** Whether the unterminated line is blank; undecodable bytes count as content. */
  #isBlankPending(): boolean {
    try {
      return isPythonBlankLine(this.#joinText(this.#parts));
    } catch {
      return false;
    }
  }

  #reset(): void {
    this.#parts = [];
    this.#partBytes = 0;
  }
}

/** `line_too_long`: a line grew past `maxLineBytes`. */
function lineTooLongError(maxLineBytes: number): RelayError {
  return frameError(
    'line_too_long',
    `frame line longer than ${maxLineBytes} bytes; skipped to the next newline`,
    '$',
    {
      details: { maxLineBytes },
    },
  );
}

/** `incomplete_frame`: the stream ended with `bufferedBytes` of a line without its terminating newline. */
function incompleteFrameError(bufferedBytes: number): RelayError {
  return frameError(
    'incomplete_frame',
    `stream ended inside a frame (${bufferedBytes} bytes without a terminating newline)`,
    '$',
    { details: { bufferedBytes } },
  );
}
