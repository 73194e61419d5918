/** Runs async tasks one at a time, in the order they were queued; a failed task does not stop the queue. */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  /** Queues `task` and settles as it does. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
