import { RateLimitedError } from '../capabilities/hearthnet-errors.js';
import {
  BadRequestError,
  ExpiredError,
  HearthNetError,
  InvalidSignatureError,
} from '../capabilities/index.js';
import type { Ed25519Backend } from '../crypto/ed25519.js';
import { HearthNetLocalError } from '../errors.js';
import { parseWireTimestamp, type RequestEnvelopeFields, verifyRequestEnvelope } from './envelope.js';

/**
 * How far a request's `X-HearthNet-Timestamp` may be from the server's clock, either way: 30 s. The
 * contract names no window; 30 s is the lifetime it gives a node manifest (§6.1), the one freshness
 * bound it states.
 */
export const DEFAULT_CLOCK_SKEW_MS = 30_000;

/** Options of a {@link RequestVerifier}. */
export interface RequestVerifierOptions {
  /** Accepted distance between the request timestamp and `now`, each way, in ms. Default 30 000 (30 s). */
  readonly clockSkewMs?: number;
  /** Where accepted request ids are remembered. Default: a {@link MemorySeenRequestIds} on the same clock. */
  readonly seenRequestIds?: SeenRequestIds;
  /** The clock, epoch ms. Default `Date.now`. */
  readonly now?: () => number;
  /** Decode the signature and node id as the Python reference does (see `verifyPayload`). Default strict. */
  readonly lenientEncoding?: boolean;
  /** The Ed25519 backend. */
  readonly backend?: Ed25519Backend;
}

/**
 * Checks an incoming signed request (contract §5.1), in this order, throwing the §9 error of the first rule
 * broken: 1. a signature is present and verifies over the synthetic envelope under the key of `from` →
 * otherwise `invalid_signature`; 2. the timestamp is RFC 3339 UTC (`bad_request` otherwise) and within
 * `clockSkewMs` of now → otherwise `expired` (re-sign with a fresh timestamp and resend); 3. `(from,
 * request_id)` has not been accepted before within the window → otherwise `invalid_signature` (a replayed
 * request).
 *
 * The replay check comes last, so an unauthenticated sender cannot burn another node's request ids.
 *
 * @example
 * const verifier = new RequestVerifier({ clockSkewMs: 60_000 });
 * await verifier.verify(fields, request.headers.get('X-HearthNet-Signature'));
 */
export class RequestVerifier {
  readonly #clockSkewMs: number;
  readonly #seen: SeenRequestIds;
  readonly #now: () => number;
  readonly #verifyOptions: { lenientEncoding?: boolean; backend?: Ed25519Backend };

  constructor(options: RequestVerifierOptions = {}) {
    const clockSkewMs = options.clockSkewMs ?? DEFAULT_CLOCK_SKEW_MS;
    if (!Number.isSafeInteger(clockSkewMs) || clockSkewMs < 0) {
      throw new HearthNetLocalError(
        'invalid_wire_options',
        `clockSkewMs must be a non-negative integer, got ${String(clockSkewMs)}`,
      );
    }
    this.#clockSkewMs = clockSkewMs;
    this.#now = options.now ?? Date.now;
    this.#seen = options.seenRequestIds ?? new MemorySeenRequestIds({ now: this.#now });
    this.#verifyOptions = {
      ...(options.lenientEncoding === undefined ? {} : { lenientEncoding: options.lenientEncoding }),
      ...(options.backend === undefined ? {} : { backend: options.backend }),
    };
  }

  /**
   * Resolves when the request passes every rule; rejects with {@link InvalidSignatureError},
   * {@link ExpiredError} or {@link BadRequestError}.
   */
  async verify(fields: RequestEnvelopeFields, signature: string | null | undefined): Promise<void> {
    const failure = await this.check(fields, signature);
    if (failure !== undefined) throw failure;
  }

  /** {@link verify} as a value: the error it would throw, or `undefined` when the request passes. */
  async check(
    fields: RequestEnvelopeFields,
    signature: string | null | undefined,
  ): Promise<HearthNetError | undefined> {
    if (typeof signature !== 'string' || signature === '') {
      return new InvalidSignatureError('the request carries no X-HearthNet-Signature');
    }
    const verdict = verifyRequestEnvelope(fields, signature, this.#verifyOptions);
    if (!verdict.valid) {
      return new InvalidSignatureError(`request signature rejected (${verdict.reason})`);
    }
    const sentAt = parseWireTimestamp(fields.timestamp);
    if (sentAt === undefined) {
      return new BadRequestError(
        `X-HearthNet-Timestamp is not RFC 3339 UTC: ${JSON.stringify(fields.timestamp)}`,
      );
    }
    const now = this.#now();
    if (Math.abs(now - sentAt) > this.#clockSkewMs) {
      return new ExpiredError(
        `request timestamp ${fields.timestamp} is more than ${this.#clockSkewMs} ms from the server clock`,
      );
    }
    let fresh: boolean;
    try {
      fresh = await this.#seen.add(`${fields.from} ${fields.requestId}`, sentAt + this.#clockSkewMs + 1);
    } catch (error) {
      if (error instanceof HearthNetError) return error;
      throw error;
    }
    if (!fresh) return new InvalidSignatureError(`request ${fields.requestId} was already received (replay)`);
    return undefined;
  }
}

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
