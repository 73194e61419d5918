/** One running outbound call of a {@link RunningOutboundCalls}. */
import { RelayError } from '../errors.js';
export interface RunningOutboundCall {
  /** Aborted once the call times out or its connection closes (made on first use). */
  readonly signal: AbortSignal;
  /** The call completed: it no longer times out. */
  finish(): void;
}

interface Entry extends RunningOutboundCall {
  readonly op: string;
  readonly deadline: number;
  abort(reason: Error): void;
}

/**
 * The outbound calls running on one gateway connection and their deadlines, kept by one timer: every call
 * gets the same `timeoutMs`, so deadlines come in start order, and the timer only ever waits for the oldest
 * running call. A call that times out, or is still running when {@link closeAll} is called, has its signal
 * aborted and its `onAbort` called once with a `RelayError` `relay_server_outbound_timeout` or a
 * `RelayError` `relay_server_connection_closed`.
 *
 * @example
 * const calls = new RunningOutboundCalls(30_000);
 * const call = calls.start('send', (reason) => resolve(failureResult(reason.message)));
 * await adapter.send(action, { ...context, signal: call.signal });
 * call.finish();
 */
export class RunningOutboundCalls {
  readonly #timeoutMs: number;
  /** In start order, which is deadline order. */
  readonly #running = new Set<Entry>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closedWith: Error | undefined;
  readonly #sweep = () => {
    this.#timer = undefined;
    const now = performance.now();
    for (const entry of this.#running) {
      if (entry.deadline > now) break;
      entry.abort(
        new RelayError(
          'relay_server_outbound_timeout',
          `${entry.op} did not complete within ${this.#timeoutMs} ms`,
          {
            details: { op: entry.op, timeoutMs: this.#timeoutMs },
          },
        ),
      );
    }
    this.#arm();
  };

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /** How many calls are running. */
  get size(): number {
    return this.#running.size;
  }

  /** Starts the deadline of a call of `op`; after {@link closeAll} the call is aborted at once. */
  start(op: string, onAbort: (reason: Error) => void): RunningOutboundCall {
    const running = this.#running;
    let controller: AbortController | undefined;
    let abortedWith: Error | undefined;
    const entry: Entry = {
      op,
      deadline: performance.now() + this.#timeoutMs,
      get signal() {
        if (controller === undefined) {
          controller = new AbortController();
          if (abortedWith !== undefined) controller.abort(abortedWith);
        }
        return controller.signal;
      },
      finish: () => {
        running.delete(entry);
      },
      abort: (reason) => {
        if (!running.delete(entry)) return;
        abortedWith = reason;
        controller?.abort(reason);
        onAbort(reason);
      },
    };
    running.add(entry);
    if (this.#closedWith !== undefined) entry.abort(this.#closedWith);
    else this.#arm();
    return entry;
  }

  /** The connection closed: aborts every running call and every later one. */
  closeAll(reason: RelayError): void {
    this.#closedWith = reason;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const entry of this.#running) entry.abort(reason);
  }

  /**
   * Arms the timer for the oldest running call, when none is armed. It is not cleared when that call
   * finishes early: it then fires for nothing and re-arms for the next one. Unreferenced: the
   * connection's socket keeps the process alive while calls run.
   */
  #arm(): void {
    if (this.#timer !== undefined) return;
    const oldest = this.#running.values().next();
    if (oldest.done === true) return;
    this.#timer = setTimeout(this.#sweep, Math.max(0, oldest.value.deadline - performance.now()));
    this.#timer.unref();
  }
}
