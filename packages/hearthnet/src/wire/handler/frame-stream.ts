import { asHearthNetError, TimeoutError, toErrorBody } from '../../capabilities/index.js';
import { HearthNetLocalError } from '../../errors.js';
import type { AckWindow } from '../sse/ack-window.js';
import { encodeSseComment, encodeSseFrame } from '../sse/encode.js';
import { DEFAULT_ACK_TIMEOUT_MS } from '../sse/slow-consumer.js';
import { DONE_EVENT, isTerminalEvent, type SseFrame } from '../sse/sse-event.js';
import type { StreamFrameValidator } from '../sse/wire-frame-schemas.js';

const utf8 = new TextEncoder();
const KEEPALIVE = utf8.encode(encodeSseComment('keepalive'));

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
   * {@link DEFAULT_ACK_TIMEOUT_MS} (60 s).
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
            next.result.done === true ? { event: DONE_EVENT, data: {} } : hooks.validate(next.result.value);
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
        controller.enqueue(utf8.encode(encodeSseFrame(frame)));
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
