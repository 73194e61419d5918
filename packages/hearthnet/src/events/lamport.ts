import { HearthNetLocalError } from '../errors.js';

/**
 * The Lamport value of an event this node sends, given the community's counter: `counter + 1`
 * (contract §7.3 "on send"); the counter becomes that value. A pure step, so that a store can
 * compute it and persist it in the same transaction as the event.
 *
 * @throws {HearthNetLocalError} `invalid_lamport` for a counter that is not a non-negative safe integer, or
 *   at 2⁵³−1.
 */
export function lamportForSend(counter: number): number {
  assertLamport(counter, 'counter');
  return bump(counter);
}

/**
 * The community's counter after receiving an event with Lamport value `received`:
 * `max(counter, received) + 1` (contract §7.3 "on receive"), also when the event is older.
 *
 * @throws {HearthNetLocalError} `invalid_lamport` as {@link lamportForSend}, for either argument.
 */
export function lamportAfterReceive(counter: number, received: number): number {
  assertLamport(counter, 'counter');
  assertLamport(received, 'received lamport');
  return bump(Math.max(counter, received));
}

/**
 * A community's Lamport counter in memory (contract §7.3). Stores keep the counter next to their
 * events and use {@link lamportForSend} / {@link lamportAfterReceive} inside their transactions.
 *
 * @example
 * const clock = new LamportClock();
 * clock.tick(); // 1: the lamport of the event being sent
 * clock.observe(10); // 11
 */
export class LamportClock {
  #value: number;

  /** Starts at `initial` (default 0: the first event sent gets 1). */
  constructor(initial = 0) {
    assertLamport(initial, 'initial');
    this.#value = initial;
  }

  /** The counter now. */
  get value(): number {
    return this.#value;
  }

  /** Advances for an event being sent and returns its Lamport value. */
  tick(): number {
    this.#value = lamportForSend(this.#value);
    return this.#value;
  }

  /** Advances past a received event's Lamport value and returns the new counter. */
  observe(received: number): number {
    this.#value = lamportAfterReceive(this.#value, received);
    return this.#value;
  }
}

/** Throws unless `value` is a Lamport value: a non-negative safe integer. */
export function assertLamport(value: unknown, name: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new HearthNetLocalError(
      'invalid_lamport',
      `${name} must be a non-negative safe integer, got ${String(value)}`,
      { details: { value } },
    );
  }
}

function bump(value: number): number {
  if (value >= Number.MAX_SAFE_INTEGER) {
    throw new HearthNetLocalError('invalid_lamport', 'the Lamport counter cannot pass 2^53−1', {
      details: { value },
    });
  }
  return value + 1;
}
