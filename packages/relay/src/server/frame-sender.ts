import type { WebSocket } from 'ws';

/**
 * Writes wire lines to one gateway socket and tells how much is still queued, so that buffered replay
 * can wait instead of queueing without limit on a slow gateway.
 */
export class FrameSender {
  readonly #ws: WebSocket;
  /** Settles when the latest write has been handed to the OS (or failed). */
  #lastWrite: Promise<void> = Promise.resolve();

  constructor(ws: WebSocket) {
    this.#ws = ws;
  }

  /** Bytes accepted by {@link send} but not yet handed to the OS. */
  get backlog(): number {
    return this.#ws.bufferedAmount;
  }

  /** Whether the socket is open for writing. */
  get open(): boolean {
    return this.#ws.readyState === this.#ws.OPEN;
  }

  /**
   * Sends one text message: a line, or lines already encoded as UTF-8; `false` when the socket is no
   * longer open.
   */
  send(message: string | Uint8Array): boolean {
    if (!this.open) return false;
    this.#lastWrite = new Promise((resolve) => this.#ws.send(message, { binary: false }, () => resolve()));
    return true;
  }

  /** Settles once everything sent so far has been handed to the OS, or failed with the socket. */
  drained(): Promise<void> {
    return this.#lastWrite;
  }
}
