import type { ActivityTracker } from './activity.js';

/** One WebSocket message of a linked pair: a text or a binary message. */
export type WireChunk = string | Uint8Array;

/** What one end of a pipe is told, in the order it was written. */
export interface PipeEnd {
  /** One message arrived. Must not throw. */
  receive(chunk: WireChunk): void;
  /** The writer closed the connection; nothing follows. Must not throw. */
  closed(): void;
}

type PipeItem = { readonly kind: 'message'; readonly chunk: WireChunk } | { readonly kind: 'close' };

/**
 * One direction of an in-memory connection: messages and the close arrive asynchronously (in a
 * microtask, as from a socket, never inside the writer's call), in the order written.
 */
export class InMemoryPipe {
  readonly #tracker: ActivityTracker;
  readonly #end: PipeEnd;
  #queue: PipeItem[] = [];
  #scheduled = false;
  #ended = false;

  constructor(tracker: ActivityTracker, end: PipeEnd) {
    this.#tracker = tracker;
    this.#end = end;
  }

  /** Whether {@link end} was called: nothing more can be written. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Queues messages for delivery; ignored once the pipe has ended. */
  write(chunks: readonly WireChunk[]): void {
    if (this.#ended) return;
    for (const chunk of chunks) this.#queue.push({ kind: 'message', chunk });
    this.#schedule();
  }

  /** Queues the close behind every message written so far. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#queue.push({ kind: 'close' });
    this.#schedule();
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    this.#tracker.track(Promise.resolve().then(() => this.#drain()));
  }

  #drain(): void {
    this.#scheduled = false;
    const items = this.#queue;
    this.#queue = [];
    for (const item of items) {
      if (item.kind === 'message') this.#end.receive(item.chunk);
      else this.#end.closed();
    }
  }
}
