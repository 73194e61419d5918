import { readStrictJson } from '../../canonical-json/strict-json.js';
import { BadRequestError } from '../../capabilities/index.js';
import { HearthNetLocalError } from '../../errors.js';
import { ACK_EVENT, REQUEST_EVENT, type SseEvent, type SseFrame } from '../sse/sse-event.js';
import { SseParser } from '../sse/sse-parser.js';
import { type StreamFrameValidator, streamFrameValidator } from '../sse/wire-frame-schemas.js';

/** Checks `ack` (and `progress`) frames; the capability's own frames are checked by the consumer. */
const contractWideFrames = streamFrameValidator();

/** How {@link openClientStream} reads a client stream. */
export interface ClientStreamOptions {
  /** The largest first (`request`) frame accepted, in UTF-16 code units: the body limit of a JSON call. */
  readonly maxRequestLength: number;
  /** The largest later frame accepted. */
  readonly maxEventLength: number;
  /** Receives every `ack` frame's `upto`, as soon as it is read. */
  readonly onAck: (upto: number) => void;
  /** How many frames may wait, read but not yet taken by the handler, before reading pauses. */
  readonly capacity: number;
}

/** An opened client stream: the call body from its `request` frame, and the frames that follow. */
export interface ClientStream {
  /** The data of the `request` frame: the call body `{params, input}` the signature covers. */
  readonly body: unknown;
  /**
   * The frames after `request`, JSON-decoded, `ack` frames excluded (they go to `onAck`); ends when
   * the client ends its request body. Throws `bad_request` for a frame that breaks the SSE or JSON
   * rules. Iterate it once; {@link validatedFrames} checks them against a capability's schema.
   */
  readonly frames: AsyncIterable<SseFrame>;
  /** Stops reading the request body (the call is over). */
  close(): void;
}

type Slot = { readonly frame: SseFrame } | { readonly error: unknown } | { readonly end: true };

/**
 * Reads a client stream, the request body of a call whose `Content-Type` is `text/event-stream`: SSE
 * frames, the first one `request` with the call body as its JSON data, then the client's frames
 * (`chunk` for `file.put`, `ack` for back-pressure on the server's stream). Reading runs ahead of the
 * handler by at most `capacity` frames, so a slow handler slows the client down; `ack` frames are
 * handed to `onAck` as they arrive.
 *
 * @throws {BadRequestError} when the body ends or breaks before a `request` frame, or that frame's data
 *   is not JSON.
 */
export async function openClientStream(
  body: ReadableStream<Uint8Array> | null,
  options: ClientStreamOptions,
): Promise<ClientStream> {
  if (body === null) throw new BadRequestError('a client stream needs a request body');
  const source = body.getReader();
  const parser = new SseParser({
    maxEventLength: Math.max(options.maxRequestLength, options.maxEventLength),
  });
  const events: SseEvent[] = [];
  const readEvents = async (): Promise<boolean> => {
    const { done, value } = await source.read();
    const items = done ? parser.finish() : parser.push(value);
    for (const item of items) if (item.type === 'event') events.push(item);
    return !done;
  };
  let open = true;
  try {
    while (events.length === 0 && open) open = await readEvents();
  } catch (error) {
    void source.cancel().catch(() => undefined);
    throw new BadRequestError(`the client stream is unreadable: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const first = events.shift();
  if (first === undefined || first.event !== REQUEST_EVENT) {
    void source.cancel().catch(() => undefined);
    throw new BadRequestError(`a client stream starts with a "${REQUEST_EVENT}" frame holding the call body`);
  }
  if (first.data.length > options.maxRequestLength) {
    void source.cancel().catch(() => undefined);
    throw new BadRequestError(`the request frame exceeds ${options.maxRequestLength} characters`);
  }
  // Signed like a JSON body, so read as strictly (see parseStrictJson).
  let requestBody: unknown;
  try {
    requestBody = readStrictJson(
      first.data,
      'the request frame data',
      (message, options) => new BadRequestError(message, options),
    );
  } catch (error) {
    void source.cancel().catch(() => undefined);
    throw error;
  }

  const queue: Slot[] = [];
  let wakeConsumer: (() => void) | undefined;
  let wakeReader: (() => void) | undefined;
  let closed = false;
  const deliver = (slot: Slot) => {
    queue.push(slot);
    wakeConsumer?.();
  };
  const toFrame = (event: SseEvent): SseFrame => {
    let data: unknown;
    try {
      data = JSON.parse(event.data);
    } catch (error) {
      throw new HearthNetLocalError('sse_protocol', `client frame "${event.event}" data is not JSON`, {
        cause: error,
        details: { reason: 'invalid_json' },
      });
    }
    return contractWideFrames({ event: event.event, data });
  };
  const pump = async () => {
    try {
      for (;;) {
        while (events.length > 0) {
          const frame = toFrame(events.shift() as SseEvent);
          if (frame.event === ACK_EVENT) {
            options.onAck((frame.data as { upto: number }).upto);
            continue;
          }
          deliver({ frame });
          while (queue.length >= options.capacity && !closed) {
            await new Promise<void>((resolve) => {
              wakeReader = resolve;
            });
          }
        }
        if (closed || !open) break;
        open = await readEvents();
      }
      deliver({ end: true });
    } catch (error) {
      deliver({
        error:
          error instanceof HearthNetLocalError && error.code === 'sse_protocol'
            ? new BadRequestError(`client stream: ${error.message}`, { cause: error })
            : error,
      });
    }
  };
  void pump();

  async function* frames(): AsyncGenerator<SseFrame, void, undefined> {
    for (;;) {
      const slot = queue.shift();
      if (slot === undefined) {
        if (closed) return;
        await new Promise<void>((resolve) => {
          wakeConsumer = resolve;
        });
        continue;
      }
      wakeReader?.();
      if ('end' in slot) return;
      if ('error' in slot) throw slot.error;
      yield slot.frame;
    }
  }

  return {
    body: requestBody,
    frames: frames(),
    close: () => {
      if (closed) return;
      closed = true;
      wakeReader?.();
      wakeConsumer?.();
      void source.cancel().catch(() => undefined);
    },
  };
}

/**
 * The frames of a client stream checked against a capability's stream schema: a frame that fails is
 * thrown as `bad_request`.
 */
export async function* validatedFrames(
  frames: AsyncIterable<SseFrame>,
  validate: StreamFrameValidator,
): AsyncGenerator<SseFrame, void, undefined> {
  for await (const frame of frames) {
    try {
      yield validate(frame);
    } catch (error) {
      if (!(error instanceof HearthNetLocalError && error.code === 'sse_protocol')) throw error;
      throw new BadRequestError(`client stream: ${error.message}`, { cause: error });
    }
  }
}
