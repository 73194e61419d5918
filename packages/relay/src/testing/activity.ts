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
