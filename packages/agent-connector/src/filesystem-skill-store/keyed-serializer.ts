/**
 * Runs tasks one at a time per key, in call order; tasks under different keys run concurrently. A task
 * that fails does not block the ones queued after it. Keys are dropped once their queue drains.
 */
export class KeyedSerializer {
  readonly #tails = new Map<string, Promise<unknown>>();

  /** Runs `task` after every task queued earlier under `key` has settled; resolves as `task` does. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
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

  /** How many keys have a task running or queued. */
  get activeKeys(): number {
    return this.#tails.size;
  }
}
