import { RateLimitedError } from '../capabilities/hearthnet-errors.js';
import { HearthNetLocalError } from '../errors.js';

/**
 * Where a server remembers the request ids it has accepted, for replay protection (contract §5.1
 * signs the request id and timestamp; a server refuses a signed request it has already seen). Back it
 * by a shared store when several processes serve one node id.
 */
export interface SeenRequestIds {
  /**
   * Records `key` until `expiresAtMs` (epoch ms). Returns `false` when `key` is already recorded and
   * not yet expired — a replay — and `true` when it is new. May throw a `HearthNetError` (e.g.
   * `RateLimitedError`) when it cannot record a new key; the request is then refused with it.
   */
  add(key: string, expiresAtMs: number): boolean | Promise<boolean>;
}

/** Options of {@link MemorySeenRequestIds}. */
export interface MemorySeenRequestIdsOptions {
  /** The most unexpired ids held at once; a new id past it is refused. Default 100 000. */
  readonly maxEntries?: number;
  /** The clock, epoch ms. Default `Date.now`. */
  readonly now?: () => number;
}

/**
 * An in-memory {@link SeenRequestIds}: each id is kept until its expiry, and at most `maxEntries`
 * unexpired ids are held. It fails closed: while it is full, a new id is refused with
 * `RateLimitedError` (429 `rate_limited`, `retry_after_ms` until the oldest id expires) rather than
 * forgetting an id that could then be replayed within its timestamp window. Size `maxEntries` above
 * the request rate times the window (100 000 covers more than 1 600 requests a second with the default
 * ±30 s window).
 *
 * @example
 * const seen = new MemorySeenRequestIds({ maxEntries: 10_000 });
 * seen.add('ed25519:… 01J…', Date.now() + 30_000); // true
 * seen.add('ed25519:… 01J…', Date.now() + 30_000); // false: a replay
 */
export class MemorySeenRequestIds implements SeenRequestIds {
  readonly #expiries = new Map<string, number>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: MemorySeenRequestIdsOptions = {}) {
    const maxEntries = options.maxEntries ?? 100_000;
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
      throw new HearthNetLocalError(
        'invalid_wire_options',
        `maxEntries must be a positive integer, got ${String(maxEntries)}`,
      );
    }
    this.#maxEntries = maxEntries;
    this.#now = options.now ?? Date.now;
  }

  /** How many ids are held now (expired ones may still count until the next {@link add}). */
  get size(): number {
    return this.#expiries.size;
  }

  add(key: string, expiresAtMs: number): boolean {
    const now = this.#now();
    this.#dropExpired(now);
    const known = this.#expiries.get(key);
    if (known !== undefined && known > now) return false;
    if (known === undefined && this.#expiries.size >= this.#maxEntries) {
      const oldest = this.#expiries.values().next();
      const retryAfterMs = oldest.done === true ? 1 : Math.max(1, oldest.value - now);
      throw new RateLimitedError(
        `this node already remembers ${this.#maxEntries} request ids inside their timestamp window`,
        { retryAfterMs },
      );
    }
    this.#expiries.delete(key);
    this.#expiries.set(key, expiresAtMs);
    return true;
  }

  /** Drops expired ids from the front; ids arrive roughly in expiry order, so this stays cheap. */
  #dropExpired(now: number): void {
    for (const [key, expiresAt] of this.#expiries) {
      if (expiresAt > now) return;
      this.#expiries.delete(key);
    }
  }
}
