import { HearthNetLocalError } from '../../errors.js';
import { slowConsumerError } from './slow-consumer.js';

/** The frames a sender may have unacknowledged, and the reference's value for it. */
export const DEFAULT_ACK_WINDOW = 16;

/**
 * Credit-based back-pressure for a frame sender (contract §5.3 `ack`: `{"upto": N}` means the
 * receiver has the first N frames). At most `window` frames may be unacknowledged: {@link reserve}
 * waits until one more frame fits. The reference uses a 16-frame window and acknowledges every 8
 * frames (half the window); {@link ackDue} gives a receiver that rhythm.
 *
 * @example
 * const credit = new AckWindow(16);
 * for await (const frame of frames) { await credit.reserve(signal); send(frame); }
 * // elsewhere, for each ack frame received: credit.acknowledge(frame.data.upto);
 */
export class AckWindow {
  readonly #window: number;
  #sent = 0;
  #acknowledged = 0;
  #waiters: (() => void)[] = [];

  constructor(window: number = DEFAULT_ACK_WINDOW) {
    if (!Number.isSafeInteger(window) || window < 1) {
      throw new HearthNetLocalError(
        'invalid_wire_options',
        `the ack window must be a positive integer, got ${String(window)}`,
      );
    }
    this.#window = window;
  }

  /** Frames sent so far. */
  get sent(): number {
    return this.#sent;
  }

  /** The highest `upto` received. */
  get acknowledged(): number {
    return this.#acknowledged;
  }

  /**
   * Waits until one more frame fits in the window, then counts it as sent; resolves with its number
   * (1-based). Rejects with the signal's reason when `signal` aborts first, and with a {@link
   * HearthNetLocalError} `slow_consumer` (`ack_timeout`) when the window stays full for `timeoutMs` (no limit
   * when absent): a receiver that does not acknowledge.
   */
  async reserve(signal?: AbortSignal, timeoutMs?: number): Promise<number> {
    const deadline = timeoutMs === undefined ? undefined : performance.now() + timeoutMs;
    while (this.#sent - this.#acknowledged >= this.#window) {
      signal?.throwIfAborted();
      await new Promise<void>((resolve, reject) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const settle = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        };
        const onAbort = () => {
          settle();
          reject(signal?.reason);
        };
        const wake = () => {
          settle();
          resolve();
        };
        this.#waiters.push(wake);
        signal?.addEventListener('abort', onAbort, { once: true });
        if (deadline === undefined) return;
        timer = setTimeout(
          () => {
            settle();
            this.#waiters = this.#waiters.filter((waiter) => waiter !== wake);
            const message = `no ack for ${timeoutMs} ms with the window of ${this.#window} frames full`;
            reject(slowConsumerError('ack_timeout', message));
          },
          Math.max(0, deadline - performance.now()),
        );
      });
    }
    signal?.throwIfAborted();
    this.#sent += 1;
    return this.#sent;
  }

  /** Records `{"upto": upto}`; values not above the last one, or above what was sent, change nothing. */
  acknowledge(upto: number): void {
    if (!Number.isSafeInteger(upto) || upto <= this.#acknowledged || upto > this.#sent) return;
    this.#acknowledged = upto;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}

/**
 * Whether a receiver that has `received` frames and last acknowledged `lastAcked` should send
 * `{"upto": received}` now: once every half window (8 frames for the default 16).
 */
export function ackDue(received: number, lastAcked: number, window: number = DEFAULT_ACK_WINDOW): boolean {
  return received - lastAcked >= Math.max(1, Math.floor(window / 2));
}
