import { HearthNetLocalError } from '../../errors.js';
import { encodeSseEvent, encodeSseFrame } from '../sse/encode.js';
import { REQUEST_EVENT, type SseFrame } from '../sse/sse-event.js';

const utf8 = new TextEncoder();

/** How many bytes of frames may wait in the request body before `write` waits for the network. */
const HIGH_WATER_BYTES = 1024 * 1024;

/**
 * The request body of a client stream: SSE frames written one by one while the response is read.
 * `write` resolves once the frame is queued and the queue is below 1 MiB, so a fast sender is paced
 * by the connection; `end` closes the body (the server then sees the end of the client's frames).
 */
export class ClientFrameWriter {
  readonly body: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #room: (() => void) | undefined;
  #state: 'open' | 'ended' | 'failed' = 'open';
  #failure: unknown;

  constructor() {
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        pull: () => {
          this.#wake();
        },
        cancel: (reason) => {
          this.#fail(reason ?? new DOMException('the request body was cancelled', 'AbortError'));
        },
      },
      { highWaterMark: HIGH_WATER_BYTES, size: (chunk) => chunk.byteLength },
    );
  }

  /**
   * Queues one frame.
   *
   * @throws {HearthNetLocalError} `invalid_wire_options` after `end()`.
   * @throws the reason the body failed (the connection closed or the call was aborted).
   */
  write(frame: SseFrame): Promise<void> {
    return this.#write(encodeSseFrame(frame));
  }

  /** Queues the first frame, `request`, with the call body exactly as signed (canonical JSON text). */
  writeRequest(bodyJson: string): Promise<void> {
    return this.#write(encodeSseEvent({ event: REQUEST_EVENT, data: bodyJson }));
  }

  async #write(text: string): Promise<void> {
    if (this.#state === 'failed') throw this.#failure;
    if (this.#state === 'ended')
      throw new HearthNetLocalError('invalid_wire_options', 'the client stream has ended: no more frames');
    this.#controller.enqueue(utf8.encode(text));
    while (this.#state === 'open' && (this.#controller.desiredSize ?? 0) <= 0) {
      await new Promise<void>((resolve) => {
        this.#room = resolve;
      });
    }
    this.#throwIfFailed();
  }

  #throwIfFailed(): void {
    if (this.#state === 'failed') throw this.#failure;
  }

  /** Ends the body; later `end` calls do nothing. */
  end(): void {
    if (this.#state !== 'open') return;
    this.#state = 'ended';
    this.#controller.close();
    this.#wake();
  }

  /** Fails the body (and every waiting `write`) with `reason`. */
  abort(reason: unknown): void {
    if (this.#state === 'open') this.#controller.error(reason);
    this.#fail(reason);
  }

  #fail(reason: unknown): void {
    if (this.#state === 'failed') return;
    this.#state = 'failed';
    this.#failure = reason;
    this.#wake();
  }

  #wake(): void {
    const room = this.#room;
    this.#room = undefined;
    room?.();
  }
}
