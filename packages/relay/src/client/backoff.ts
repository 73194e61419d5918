/** Delays between re-dials, in milliseconds. */
export interface ReconnectBackoffOptions {
  /** The first delay; default 1 000 ms, as the gateway. */
  readonly initialMs?: number;
  /** The longest delay; default 30 000 ms, as the gateway. */
  readonly maxMs?: number;
}

/** The gateway's first re-dial delay. */
export const DEFAULT_BACKOFF_INITIAL_MS = 1_000;
/** The gateway's longest re-dial delay. */
export const DEFAULT_BACKOFF_MAX_MS = 30_000;

/**
 * The gateway's re-dial schedule: the first delay, then twice the previous one, capped at the
 * longest; {@link reset} (after a successful handshake) starts over.
 *
 * @example
 * const backoff = new ReconnectBackoff({ initialMs: 1000, maxMs: 30000 });
 * [1, 2, 3, 4, 5, 6, 7].map(() => backoff.next()); // [1000, 2000, 4000, 8000, 16000, 30000, 30000]
 */
export class ReconnectBackoff {
  readonly #initialMs: number;
  readonly #maxMs: number;
  #nextMs: number;

  /** Options are taken as given; `WebSocketRelayTransport` checks them first. */
  constructor(options: Required<ReconnectBackoffOptions>) {
    this.#initialMs = options.initialMs;
    this.#maxMs = options.maxMs;
    this.#nextMs = options.initialMs;
  }

  /** The delay before the next re-dial; each call doubles the following one up to the cap. */
  next(): number {
    const delay = this.#nextMs;
    this.#nextMs = Math.min(delay * 2, this.#maxMs);
    return delay;
  }

  /** Starts the schedule over from the first delay. */
  reset(): void {
    this.#nextMs = this.#initialMs;
  }
}
