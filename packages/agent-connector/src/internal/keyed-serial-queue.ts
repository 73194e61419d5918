/**
 * Runs tasks one after another per key, in call order, and tasks of different keys concurrently. A task
 * starts when the previous task of its key settles, fulfilled or rejected; a key is forgotten once its
 * last task settles.
 */
export class KeyedSerialQueue {
  readonly #tails = new Map<string, Promise<void>>();

  /** Queues `task` behind the pending tasks of `key`; resolves or rejects as `task` does. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /** How many keys have a task pending or running. */
  get size(): number {
    return this.#tails.size;
  }
}
