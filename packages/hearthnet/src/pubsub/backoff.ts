import { HearthNetLocalError } from '../errors.js';

/** The delay before reconnect attempt `attempt` (0 for the first retry after a failure), in ms. */
export type BackoffPolicy = (attempt: number) => number;

/** Options of {@link exponentialBackoff}. */
export interface ExponentialBackoffOptions {
  /** The ceiling of the first delay. Default 250 ms. */
  readonly initialMs?: number;
  /** The largest ceiling. Default 30 000 ms. */
  readonly maxMs?: number;
  /** How much the ceiling grows per attempt. Default 2. */
  readonly factor?: number;
  /** A number in [0, 1). Default `Math.random`. */
  readonly random?: () => number;
}

/**
 * Exponential backoff with full jitter: attempt `n` waits a uniformly random time below
 * `min(maxMs, initialMs × factor^n)`, so that clients cut off together do not reconnect together.
 *
 * @example
 * const backoff = exponentialBackoff({ initialMs: 100, maxMs: 10_000 });
 * backoff(0); // somewhere in [0, 100)
 * backoff(5); // somewhere in [0, 3200)
 */
export function exponentialBackoff(options: ExponentialBackoffOptions = {}): BackoffPolicy {
  const { initialMs = 250, maxMs = 30_000, factor = 2, random = Math.random } = options;
  for (const [name, value] of [
    ['initialMs', initialMs],
    ['maxMs', maxMs],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new HearthNetLocalError(
        'invalid_pubsub_options',
        `${name} must be a non-negative integer, got ${String(value)}`,
      );
    }
  }
  if (!Number.isFinite(factor) || factor < 1) {
    throw new HearthNetLocalError(
      'invalid_pubsub_options',
      `factor must be a number >= 1, got ${String(factor)}`,
    );
  }
  return (attempt) => {
    const ceiling = Math.min(maxMs, initialMs * factor ** Math.max(0, attempt));
    return Math.floor(random() * ceiling);
  };
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** A {@link Sleep} on `setTimeout`. */
export const sleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
