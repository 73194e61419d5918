import { HearthNetLocalError } from '../../errors.js';
import { isTerminalEvent, type SseFrame } from './sse-event.js';
import { SseParser, type SseParserOptions } from './sse-parser.js';
import type { StreamFrameValidator } from './wire-frame-schemas.js';

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
 * const reader = new SseFrameReader({ validate: streamFrameValidator(LLM_CHAT) });
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
