import { canonicalJsonString } from '../canonical-json/canonical-json.js';
import { readStrictJson } from '../canonical-json/strict-json.js';
import { toErrorBody } from '../capabilities/error-body.js';
import {
  asHearthNetError,
  BadRequestError,
  type HearthNetError,
  TimeoutError,
} from '../capabilities/index.js';
import type { KeyPair } from '../crypto/key-pair.js';
import { HearthNetLocalError } from '../errors.js';
import { ChunkFrame, frameBytes } from './chunk-frame.js';
import { formatWireTimestamp, JSON_CONTENT_TYPE, signResponseEnvelope, WIRE_HEADERS } from './envelope.js';
import {
  ACK_EVENT,
  type AckWindow,
  bodyEventParser,
  DEFAULT_ACK_TIMEOUT_MS,
  DONE_EVENT,
  encodeSseComment,
  type FrameFromBytes,
  isTerminalEvent,
  REQUEST_EVENT,
  type SseEvent,
  type SseFrame,
  type StreamFrameValidator,
  streamFrameValidator,
} from './sse.js';

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
  /** Reads an event of one data line from its bytes first (`file.put` chunks, see `ChunkFrame`). */
  readonly fromBytes?: FrameFromBytes;
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
  const parser = bodyEventParser(
    { maxEventLength: Math.max(options.maxRequestLength, options.maxEventLength) },
    options.fromBytes,
  );
  const events: (SseEvent | SseFrame)[] = [];
  const readEvents = async (): Promise<boolean> => {
    const { done, value } = await source.read();
    const items = done ? parser.finish() : parser.push(value);
    for (const item of items) {
      if (item.type === 'event') events.push(item);
      else if (item.type === 'frame') events.push(item.frame);
    }
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
  if (first === undefined || first.event !== REQUEST_EVENT || !('type' in first)) {
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
  const toFrame = (event: SseEvent | SseFrame): SseFrame => {
    // A frame read from its bytes is a `chunk`, never an `ack` or `progress`.
    if (!('type' in event)) return event;
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
          const frame = toFrame(events.shift() as SseEvent | SseFrame);
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
  chunkFramesAllowed = false,
): AsyncGenerator<SseFrame, void, undefined> {
  for await (const frame of frames) {
    try {
      // A ChunkFrame read by `filePutChunkFromBytes` is one the schema of `file.put@1.0` allows.
      yield chunkFramesAllowed && frame instanceof ChunkFrame ? frame : validate(frame);
    } catch (error) {
      if (!(error instanceof HearthNetLocalError && error.code === 'sse_protocol')) throw error;
      throw new BadRequestError(`client stream: ${error.message}`, { cause: error });
    }
  }
}

const KEEPALIVE = new TextEncoder().encode(encodeSseComment('keepalive'));

/** How {@link frameStream} checks its frames, keeps an idle connection open and reports its end. */
export interface FrameStreamHooks {
  /** Checks each frame the handler yields; a frame that fails ends the stream with `internal_error`. */
  readonly validate: StreamFrameValidator;
  /**
   * Writes the comment line `: keepalive` whenever the handler has produced nothing for this many
   * milliseconds, so that proxies and clients do not close an idle stream. `0` writes none.
   */
  readonly keepaliveMs: number;
  /** Called once when the stream is over: finished, failed, or cancelled by the client. */
  readonly onClose: (reason: 'finished' | 'cancelled') => void;
  /** Called with an exception the handler threw while streaming. */
  readonly onError: (error: unknown) => void;
  /**
   * Back-pressure by the client's `ack` frames (contract §5.3): each frame waits for room in this
   * window before it is written. Default: none (TCP back-pressure only).
   */
  readonly credit?: AckWindow;
  /**
   * How long (ms) `credit` may stay full before the client is taken for one that does not acknowledge:
   * the stream ends with an `error` frame (`timeout`) in place of the frame that waited. Default
   * `DEFAULT_ACK_TIMEOUT_MS` (60 s).
   */
  readonly ackTimeoutMs?: number;
}

/** The settled `next()` of the handler's iterator, so that a rejection waiting behind a keepalive is never unhandled. */
type Next =
  | { readonly ok: true; readonly result: IteratorResult<SseFrame> }
  | { readonly ok: false; readonly error: unknown };

const IDLE = Symbol('idle');

/**
 * The SSE body of a streamed call (contract §5.3): one frame per `pull`, so a slow client slows the
 * handler down; exactly one terminal frame — the handler's `done` (or `error`), a `done` with `{}`
 * when the handler ends without one, or an `error` frame with the §5.4 body when it throws. Frames
 * after the terminal one are never sent. With `credit`, a frame is written only when the client's
 * `ack` frames leave room for it; a window still full after `ackTimeoutMs` ends the stream with an
 * `error` frame (`timeout`). While the handler is busy producing its next frame, a `: keepalive`
 * comment goes out every `keepaliveMs`. Cancelling the body (the client went away) calls
 * `onClose('cancelled')` and stops the handler's iterator.
 */
export function frameStream(
  frames: AsyncIterable<SseFrame>,
  hooks: FrameStreamHooks,
): ReadableStream<Uint8Array> {
  const iterator = frames[Symbol.asyncIterator]();
  let closed = false;
  const cancelled = new AbortController();
  // The handler's next frame, kept across pulls that ended with a keepalive instead.
  let pending: Promise<Next> | undefined;
  let idle: { readonly timer: ReturnType<typeof setTimeout>; readonly wake: () => void } | undefined;
  const close = (reason: 'finished' | 'cancelled') => {
    if (closed) return;
    closed = true;
    hooks.onClose(reason);
  };
  const stopIterator = () => {
    void Promise.resolve()
      .then(() => iterator.return?.())
      .catch(() => undefined);
  };
  const stopIdleTimer = () => {
    if (idle === undefined) return;
    clearTimeout(idle.timer);
    idle.wake();
    idle = undefined;
  };
  const nextOrIdle = (next: Promise<Next>): Promise<Next | typeof IDLE> => {
    if (hooks.keepaliveMs === 0) return next;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        idle = undefined;
        resolve(IDLE);
      }, hooks.keepaliveMs);
      idle = { timer, wake: () => resolve(IDLE) };
      void next.then((settled) => {
        if (idle?.timer === timer) {
          clearTimeout(timer);
          idle = undefined;
        }
        resolve(settled);
      });
    });
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        pending ??= Promise.resolve()
          .then(() => iterator.next())
          .then(
            (result): Next => ({ ok: true, result }),
            (error: unknown): Next => ({ ok: false, error }),
          );
        const next = await nextOrIdle(pending);
        if (closed) return;
        if (next === IDLE) {
          controller.enqueue(KEEPALIVE);
          return;
        }
        pending = undefined;
        let frame: SseFrame;
        try {
          if (!next.ok) throw next.error;
          frame =
            next.result.done === true
              ? { event: DONE_EVENT, data: {} }
              : next.result.value instanceof ChunkFrame
                ? next.result.value
                : hooks.validate(next.result.value);
        } catch (error) {
          hooks.onError(error);
          frame = { event: 'error', data: toErrorBody(asHearthNetError(error)) };
        }
        if (hooks.credit !== undefined) {
          try {
            await hooks.credit.reserve(cancelled.signal, hooks.ackTimeoutMs ?? DEFAULT_ACK_TIMEOUT_MS);
          } catch (error) {
            if (!(error instanceof HearthNetLocalError && error.code === 'slow_consumer') || closed) return;
            // A client that does not acknowledge may still read: tell it why the stream ends.
            frame = { event: 'error', data: toErrorBody(new TimeoutError(error.message)) };
            cancelled.abort(error);
          }
        }
        controller.enqueue(frameBytes(frame));
        if (isTerminalEvent(frame.event)) {
          controller.close();
          stopIterator();
          close('finished');
        }
      },
      cancel() {
        cancelled.abort();
        close('cancelled');
        stopIdleTimer();
        stopIterator();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * What every response of one call shares: who answers, about which request. A wire dialect writes its
 * answers and refusals with it.
 */
export interface ResponseContext {
  /** The answering node: its node id is `X-HearthNet-From`, its key signs responses. */
  readonly identity: KeyPair;
  /** The capability called (`''` before the call's routing was read). */
  readonly capability: string;
  /** The version asked for (`''` before the call's routing was read). */
  readonly version: string;
  /** The request id answered (`''` when the call carries none). */
  readonly requestId: string;
  /** Whether contract responses are signed (`BusHandlerOptions.signResponses`). */
  readonly signResponses: boolean;
  /** The handler's clock, epoch ms, for `X-HearthNet-Timestamp`. */
  readonly now: () => number;
}

/**
 * A JSON response (contract §5.2, §5.4): `X-HearthNet-Request-Id`, `-From`, `-Timestamp` and, when
 * signing, `-Signature` over the response envelope. The body is sent as canonical JSON of its
 * normalised form, so the bytes the signature covers are the bytes sent.
 */
export function jsonResponse(context: ResponseContext, status: number, body: unknown): Response {
  const timestamp = formatWireTimestamp(context.now());
  const headers = new Headers({ 'Content-Type': JSON_CONTENT_TYPE });
  if (context.requestId !== '') headers.set(WIRE_HEADERS.requestId, context.requestId);
  headers.set(WIRE_HEADERS.from, context.identity.nodeId);
  headers.set(WIRE_HEADERS.timestamp, timestamp);
  let sent = body;
  if (context.signResponses) {
    const signed = signResponseEnvelope(
      {
        capability: context.capability,
        version: context.version,
        requestId: context.requestId,
        from: context.identity.nodeId,
        timestamp,
        status,
        body,
      },
      context.identity,
    );
    headers.set(WIRE_HEADERS.signature, signed.signature);
    sent = signed.body;
  }
  return new Response(canonicalJsonString(sent), { status, headers });
}

/** The §5.4 error response of any thrown value, with its §5.5 status unless `status` overrides it. */
export function errorResponse(context: ResponseContext, error: unknown, status?: number): Response {
  const converted: HearthNetError = asHearthNetError(error);
  return jsonResponse(context, status ?? converted.status, toErrorBody(converted));
}

/**
 * A request body read whole, but never more than `maxBytes` of it: a larger `Content-Length` is
 * refused before reading, and a body without one (chunked, or a `text/event-stream` that the node
 * adapter streams) is cancelled as soon as it passes the limit, so memory stays bounded either way.
 *
 * @throws {BadRequestError} when the body exceeds `maxBytes`.
 */
export async function readBodyWithin(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get('Content-Length') ?? '0');
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function tooLarge(maxBytes: number): BadRequestError {
  return new BadRequestError(`the request body exceeds ${maxBytes} bytes`);
}
