/** The part of a `net.Socket` that {@link WriteCoalescer} uses. */
export interface CorkableStream {
  cork(): void;
  uncork(): void;
  readonly destroyed: boolean;
}

/**
 * Coalesces the WebSocket messages written during one turn of the event loop into one socket write:
 * the first write of a turn corks the socket and the turn's end (`process.nextTick`, after the
 * microtasks) uncorks it. Every message keeps its own WebSocket frame; only the TCP writes are fewer.
 * A burst of `inbound_ack`s, one per frame of a replayed batch, then costs one system call.
 */
export class WriteCoalescer {
  readonly #stream: CorkableStream;
  #corked = false;
  readonly #uncork = () => {
    this.#corked = false;
    if (!this.#stream.destroyed) this.#stream.uncork();
  };

  constructor(stream: CorkableStream) {
    this.#stream = stream;
  }

  /** Call before each write: holds the writes of this turn back until its end. */
  hold(): void {
    if (this.#corked || this.#stream.destroyed) return;
    this.#corked = true;
    this.#stream.cork();
    process.nextTick(this.#uncork);
  }
}
