import { HearthNetLocalError } from '../../errors.js';

/**
 * Which bound a peer that does not keep up passed:
 * - `drain_timeout`: bytes written to it stayed queued (not handed to the OS) longer than allowed —
 *   it does not read its socket;
 * - `ack_timeout`: the ack window stayed full longer than allowed — it does not acknowledge.
 */
export type SlowConsumerLimit = 'drain_timeout' | 'ack_timeout';

/**
 * The WebSocket close code of a dropped slow consumer: 1008 (policy violation), with the limit as the
 * close reason — as the relay server closes a gateway that does not read.
 */
export const SLOW_CONSUMER_CLOSE_CODE = 1008;

/**
 * How long a peer may leave written bytes queued above a sender's bound (or, on `node:http`, a
 * response whose `write` reported a full buffer) before it is dropped, by default: 60 s, as the
 * relay server waits for a gateway.
 */
export const DEFAULT_DRAIN_TIMEOUT_MS = 60_000;

/** The longest delay a timer honours (about 24.8 days): `setTimeout` fires at once above it. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** How long a peer may leave an ack window full before it is dropped, by default: 60 s. */
export const DEFAULT_ACK_TIMEOUT_MS = 60_000;

/**
 * The `slow_consumer` error: a peer that does not read (or does not acknowledge) what it is sent was
 * dropped, so that it costs bounded memory and no connection held forever (`details.limit`: which
 * bound; also the WebSocket close reason, with close code {@link SLOW_CONSUMER_CLOSE_CODE}). Reported,
 * never thrown at callers: the abort reason of a `node:http` request whose client stopped reading, and
 * what a pub-sub WebSocket server hands to `onSlowSubscriber`.
 */
export function slowConsumerError(
  limit: SlowConsumerLimit,
  message: string,
  options?: ErrorOptions,
): HearthNetLocalError {
  return new HearthNetLocalError('slow_consumer', `slow consumer dropped (${limit}): ${message}`, {
    ...options,
    details: { limit },
  });
}

/**
 * The one rule every bounded sender of this package applies to its peer: `progress` (a drain, an ack)
 * must come within `timeoutMs`, else the peer is a slow consumer. Settles as `progress` does, or
 * rejects with `slowConsumerError(limit, message)` once `timeoutMs` passed first. `progress` is
 * never left with an unhandled rejection.
 */
export function progressWithin<T>(
  progress: Promise<T>,
  timeoutMs: number,
  limit: SlowConsumerLimit,
  message: () => string,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(slowConsumerError(limit, message())), timeoutMs);
  });
  return Promise.race([progress, late]).finally(() => clearTimeout(timer));
}
