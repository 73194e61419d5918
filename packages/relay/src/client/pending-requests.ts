import type { OutboundResultObject } from '../frames/index.js';
import { RelayOutboundTimeoutError, type RelayTransportError } from '../transport/index.js';

interface PendingRequest {
  readonly resolve: (result: OutboundResultObject) => void;
  readonly reject: (error: RelayTransportError) => void;
  /** The call that wrote the request, for error messages (`send_outbound`, `get_chat_info` …). */
  readonly what: string;
  readonly timer: ReturnType<typeof setTimeout>;
}

/**
 * The outbound requests of one connection that wait for their `outbound_result`, by `requestId`.
 * Each gets exactly one outcome: its result, a {@link RelayOutboundTimeoutError} after `timeoutMs`,
 * or the error {@link failAll} gives it. Whatever comes after that outcome is ignored.
 */
export class PendingRequests {
  readonly #timeoutMs: number;
  readonly #pending = new Map<string, PendingRequest>();

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /** How many requests are waiting. */
  get size(): number {
    return this.#pending.size;
  }

  /** Registers `requestId` (before its frame is written) and resolves with its result. */
  wait(requestId: string, what: string): Promise<OutboundResultObject> {
    return new Promise<OutboundResultObject>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(requestId);
        reject(new RelayOutboundTimeoutError(requestId, this.#timeoutMs));
      }, this.#timeoutMs);
      this.#pending.set(requestId, { resolve, reject, what, timer });
    });
  }

  /** Settles `requestId` with `result`; returns `false` (and does nothing) for an id nobody waits for. */
  resolve(requestId: string, result: OutboundResultObject): boolean {
    const pending = this.#take(requestId);
    pending?.resolve(result);
    return pending !== undefined;
  }

  /** Rejects every waiting request with the error `error` builds for it. */
  failAll(error: (what: string, requestId: string) => RelayTransportError): void {
    for (const requestId of [...this.#pending.keys()]) {
      const pending = this.#take(requestId);
      pending?.reject(error(pending.what, requestId));
    }
  }

  #take(requestId: string): PendingRequest | undefined {
    const pending = this.#pending.get(requestId);
    if (pending === undefined) return undefined;
    this.#pending.delete(requestId);
    clearTimeout(pending.timer);
    return pending;
  }
}
