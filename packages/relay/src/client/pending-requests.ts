import type { OutboundResultObject } from '../frames/index.js';
import { outboundTimeoutError } from '../transport/errors.js';
import type { RelayTransportError } from '../transport/index.js';

interface PendingRequest {
  readonly requestId: string;
  readonly resolve: (result: OutboundResultObject) => void;
  readonly reject: (error: RelayTransportError) => void;
  /** The call that wrote the request, for error messages (`send_outbound`, `get_chat_info` …). */
  readonly what: string;
  /** When it times out, on the `performance.now()` clock. */
  readonly deadline: number;
}

/**
 * The outbound requests of one connection that wait for their `outbound_result`, by `requestId`.
 * Each gets exactly one outcome: its result, a `RelayTransportError` `outbound_timeout` after `timeoutMs`,
 * or the error {@link failAll} gives it. Whatever comes after that outcome is ignored; a result
 * goes to the latest request of its `requestId`.
 *
 * Every request waits the same `timeoutMs`, so deadlines come in registration order: one timer waits
 * for the oldest request instead of a timer per request.
 */
export class PendingRequests {
  readonly #timeoutMs: number;
  /** The latest request of each `requestId`. */
  readonly #byId = new Map<string, PendingRequest>();
  /** Every waiting request in registration order, which is deadline order. */
  readonly #waiting = new Set<PendingRequest>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #sweep = () => {
    this.#timer = undefined;
    const now = performance.now();
    for (const pending of this.#waiting) {
      if (pending.deadline > now) break;
      this.#remove(pending);
      pending.reject(outboundTimeoutError(pending.requestId, this.#timeoutMs));
    }
    this.#arm();
  };

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /** How many requests are waiting. */
  get size(): number {
    return this.#waiting.size;
  }

  /** Registers `requestId` (before its frame is written) and resolves with its result. */
  wait(requestId: string, what: string): Promise<OutboundResultObject> {
    return new Promise<OutboundResultObject>((resolve, reject) => {
      const deadline = performance.now() + this.#timeoutMs;
      const pending: PendingRequest = { requestId, resolve, reject, what, deadline };
      this.#byId.set(requestId, pending);
      this.#waiting.add(pending);
      this.#arm();
    });
  }

  /** Settles `requestId` with `result`; returns `false` (and does nothing) for an id nobody waits for. */
  resolve(requestId: string, result: OutboundResultObject): boolean {
    const pending = this.#byId.get(requestId);
    if (pending === undefined) return false;
    this.#remove(pending);
    pending.resolve(result);
    return true;
  }

  /** Rejects every waiting request with the error `error` builds for it. */
  failAll(error: (what: string, requestId: string) => RelayTransportError): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const pending of [...this.#waiting]) {
      this.#remove(pending);
      pending.reject(error(pending.what, pending.requestId));
    }
  }

  #remove(pending: PendingRequest): void {
    this.#waiting.delete(pending);
    if (this.#byId.get(pending.requestId) === pending) this.#byId.delete(pending.requestId);
  }

  /**
   * Arms the timer for the oldest waiting request, when none is armed. It is not cleared when that
   * request settles early: it then fires for nothing and re-arms for the next one. Unreferenced: the
   * connection's socket keeps the process alive while requests wait, and its close fails them all.
   */
  #arm(): void {
    if (this.#timer !== undefined) return;
    const oldest = this.#waiting.values().next();
    if (oldest.done === true) return;
    this.#timer = setTimeout(this.#sweep, Math.max(0, oldest.value.deadline - performance.now()));
    this.#timer.unref();
  }
}
