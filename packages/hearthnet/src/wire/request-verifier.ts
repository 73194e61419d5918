import {
  BadRequestError,
  ExpiredError,
  HearthNetError,
  InvalidSignatureError,
} from '../capabilities/index.js';
import type { Ed25519Backend } from '../crypto/index.js';
import { HearthNetLocalError } from '../errors.js';
import { type RequestEnvelopeFields, verifyRequestEnvelope } from './envelope.js';
import { MemorySeenRequestIds, type SeenRequestIds } from './seen-request-ids.js';
import { parseWireTimestamp } from './timestamp.js';

/**
 * How far a request's `X-HearthNet-Timestamp` may be from the server's clock, either way: 30 s. The
 * contract names no window; 30 s is the lifetime it gives a node manifest (§6.1), the one freshness
 * bound it states.
 */
export const DEFAULT_CLOCK_SKEW_MS = 30_000;

/** Options of a {@link RequestVerifier}. */
export interface RequestVerifierOptions {
  /** Accepted distance between the request timestamp and `now`, each way, in ms. Default {@link DEFAULT_CLOCK_SKEW_MS}. */
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
