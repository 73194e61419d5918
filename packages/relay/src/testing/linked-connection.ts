/**
 * Counts the asynchronous work in flight in a linked pair (deliveries, handler runs), so a test can
 * wait until both ends are quiet.
 */
export class ActivityTracker {
  readonly #pending = new Set<Promise<unknown>>();

  /** Registers `work` until it settles; returns it unchanged. */
  track<T>(work: Promise<T>): Promise<T> {
    this.#pending.add(work);
    const done = (): void => {
      this.#pending.delete(work);
    };
    work.then(done, done);
    return work;
  }

  /** Resolves once no tracked work is left, including work started while waiting. */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }
}

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

/** Which way a wire message travelled. */
export type WireDirection = 'to_connector' | 'to_gateway';

/** One message written on a linked pair, as written (a whole frame line, or raw data). */
export interface WireRecord {
  readonly direction: WireDirection;
  readonly data: WireChunk;
}

/** What both ends of a linked pair share. */
export interface LinkedContext {
  readonly tracker: ActivityTracker;
  /** Every message written, both directions, in order. */
  readonly wire: WireRecord[];
  /** Splits one encoded frame line into the messages that carry it. */
  readonly chunk: (line: string) => readonly WireChunk[];
}

/** One open in-memory socket between the two ends: a pipe each way. */
export class LinkedConnection {
  readonly toConnector: InMemoryPipe;
  readonly toGateway: InMemoryPipe;

  constructor(
    tracker: ActivityTracker,
    gatewayEnd: (connection: LinkedConnection) => PipeEnd,
    connectorEnd: (connection: LinkedConnection) => PipeEnd,
  ) {
    this.toConnector = new InMemoryPipe(tracker, connectorEnd(this));
    this.toGateway = new InMemoryPipe(tracker, gatewayEnd(this));
  }
}
