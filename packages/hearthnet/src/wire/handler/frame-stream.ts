import { asHearthNetError, toErrorBody } from '../../capabilities/index.js';
import { encodeSseFrame } from '../sse/encode.js';
import { DONE_EVENT, isTerminalEvent, type SseFrame } from '../sse/sse-event.js';
import type { StreamFrameValidator } from '../sse/wire-frame-schemas.js';

const utf8 = new TextEncoder();

/** How {@link frameStream} reports its end. */
export interface FrameStreamHooks {
  /** Checks each frame the handler yields; a frame that fails ends the stream with `internal_error`. */
  readonly validate: StreamFrameValidator;
  /** Called once when the stream is over: finished, failed, or cancelled by the client. */
  readonly onClose: (reason: 'finished' | 'cancelled') => void;
  /** Called with an exception the handler threw while streaming. */
  readonly onError: (error: unknown) => void;
}

/**
 * The SSE body of a streamed call (contract §5.3): one frame per `pull`, so a slow client slows the
 * handler down; exactly one terminal frame — the handler's `done` (or `error`), a `done` with `{}`
 * when the handler ends without one, or an `error` frame with the §5.4 body when it throws. Frames
 * after the terminal one are never sent. Cancelling the body (the client went away) calls
 * `onClose('cancelled')` and stops the handler's iterator.
 */
export function frameStream(
  frames: AsyncIterable<SseFrame>,
  hooks: FrameStreamHooks,
): ReadableStream<Uint8Array> {
  const iterator = frames[Symbol.asyncIterator]();
  let closed = false;
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
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let frame: SseFrame;
        try {
          const next = await iterator.next();
          if (closed) return;
          frame = next.done === true ? { event: DONE_EVENT, data: {} } : hooks.validate(next.value);
        } catch (error) {
          if (closed) return;
          hooks.onError(error);
          frame = { event: 'error', data: toErrorBody(asHearthNetError(error)) };
        }
        controller.enqueue(utf8.encode(encodeSseFrame(frame)));
        if (isTerminalEvent(frame.event)) {
          controller.close();
          stopIterator();
          close('finished');
        }
      },
      cancel() {
        close('cancelled');
        stopIterator();
      },
    },
    { highWaterMark: 0 },
  );
}
