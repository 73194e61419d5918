import { HearthNetError, retryPolicyForErrorCode } from '../capabilities/hearthnet-errors.js';
import { type BackoffPolicy, exponentialBackoff, type Sleep, sleep } from './backoff.js';
import type { TopicItem } from './topic-hub.js';

/** An item delivered by a subscription. */
export interface DeliveredItem<P = unknown> extends TopicItem<P> {
  readonly kind: 'item';
}

/**
 * Items were lost between `after` and `cursor` (they fell out of the node's retention, or the cursor
 * was from an earlier run of the node): the subscription goes on from `cursor`, the oldest position
 * the node still holds. Re-read whatever state the lost items would have changed (e.g. sync the log).
 */
export interface CursorGap {
  readonly kind: 'gap';
  readonly topic: string;
  /** The cursor the subscription asked with. */
  readonly after: number;
  /** Where it resumes. */
  readonly cursor: number;
}

/** What a subscription yields: items in order, and a {@link CursorGap} wherever items were lost. */
export type SubscriptionEvent<P = unknown> = DeliveredItem<P> | CursorGap;

/** A running subscription: iterate it; it ends when its signal aborts. */
export interface Subscription<P = unknown> extends AsyncIterable<SubscriptionEvent<P>> {
  /** The position after the last event yielded (what to resubscribe with); `undefined` until the node told it. */
  readonly cursor: number | undefined;
}

/** How a subscription retries (injectable for tests). */
export interface RetryOptions {
  /** The delay before each reconnect. Default {@link exponentialBackoff} with its defaults. */
  readonly backoff?: BackoffPolicy;
  /** How to wait. Default `setTimeout`. */
  readonly sleep?: Sleep;
  /** Sees each failure that is retried (for logging); it must not throw. */
  readonly onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
}

/** What one connection produces: events to yield, and cursor moves that yield nothing. */
export type ConnectionOutput = SubscriptionEvent | { readonly kind: 'cursor'; readonly cursor: number };

/** Opens one connection (a long poll, a socket) that delivers after `cursor` until it ends or fails. */
export type Connect = (cursor: number | undefined, signal: AbortSignal) => AsyncIterable<ConnectionOutput>;

/**
 * Whether a subscription retries after `error`: the contract §9 errors that may be retried
 * (`timeout`, `partition` — which is what a network failure or a dropped connection becomes —
 * `capacity_exceeded`, `rate_limited`, `internal_error`). The others (`unauthorized`, `revoked`,
 * `invalid_signature`, `bad_request`, `not_found`, …) and anything that is not a `HearthNetError`
 * (a `pubsub_protocol` `HearthNetLocalError`) would fail again: they end the subscription with that error.
 */
export function isRetryableFailure(error: unknown): boolean {
  return error instanceof HearthNetError && retryPolicyForErrorCode(error.code) !== 'never';
}

/**
 * Drives `connect` until `signal` aborts: yields what each connection delivers, keeps the cursor,
 * and after a retryable failure waits (backoff with jitter) and reconnects from the cursor; the
 * backoff starts again once a connection delivers. Non-retryable failures end it with the error.
 */
export function resumingSubscription(
  connect: Connect,
  start: number | undefined,
  signal: AbortSignal,
  retry: RetryOptions,
): Subscription {
  const backoff = retry.backoff ?? exponentialBackoff();
  const wait = retry.sleep ?? sleep;
  let cursor = start;
  async function* run(): AsyncGenerator<SubscriptionEvent, void, undefined> {
    let attempt = 0;
    while (!signal.aborted) {
      try {
        for await (const output of connect(cursor, signal)) {
          attempt = 0;
          cursor = output.kind === 'item' ? output.seq : output.cursor;
          if (output.kind !== 'cursor') yield output;
        }
      } catch (error) {
        if (signal.aborted) return;
        if (!isRetryableFailure(error)) throw error;
        // `rate_limited` and `capacity_exceeded` may name how long to wait at least.
        const delayMs = Math.max(backoff(attempt), (error as HearthNetError).retryAfterMs ?? 0);
        retry.onRetry?.(error, attempt, delayMs);
        attempt += 1;
        try {
          await wait(delayMs, signal);
        } catch {
          return;
        }
      }
    }
  }
  const events = run();
  return {
    get cursor() {
      return cursor;
    },
    [Symbol.asyncIterator]: () => events,
  };
}
