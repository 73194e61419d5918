import type { WebSocket } from 'ws';
import { type PeerLimit, peerLimitError, RELAY_CLOSE_PEER_LIMIT, type RelayError } from './errors.js';

/** How much a peer may leave unread before its connection stops reading from it, and then drops it. */
export interface SendBounds {
  /** Queued bytes above which reading from the peer pauses until the queue has drained below it again. */
  readonly pauseAbove: number;
  /** Queued bytes above which the connection is dropped at once. */
  readonly dropAbove: number;
  /**
   * How long (ms) the queue may stay above `pauseAbove` without any of it reaching the OS (the peer
   * reads nothing) before the connection is dropped.
   */
  readonly drainTimeoutMs: number;
}

/**
 * The defaults of both sides' flow-control options: pause reading above 1 MiB queued, drop above
 * 16 MiB or after 60 s without progress (twice the 30 s the gateway's reader can stall itself).
 */
export const DEFAULT_FLOW_BOUNDS = {
  maxBufferedAmount: 1024 * 1024,
  dropBufferedAmount: 16 * 1024 * 1024,
  drainTimeoutMs: 60_000,
} as const;

/**
 * The one send path of a relay WebSocket (server or client side): every frame written to the peer
 * goes through {@link send}, and the bytes not yet handed to the OS are bounded.
 *
 * Above `pauseAbove` queued bytes it stops reading from the peer (`ws.pause()`), so a peer that sends
 * requests but never reads the answers cannot make this side write more; it reads again once a write
 * completes with the queue back under the bound. A queue above `dropAbove`, or one above `pauseAbove`
 * of which nothing reached the OS for `drainTimeoutMs`, drops the connection: a close frame with
 * {@link RELAY_CLOSE_PEER_LIMIT} and the limit as reason, then the TCP connection at once (a peer that
 * does not read would never read the close frame either). The owner's `onDrop` learns why (a
 * `RelayError` `peer_limit`).
 *
 * Owners can also stop reading for reasons of their own ({@link hold} / {@link release}), e.g. while
 * too many received frames wait for a handler.
 */
export class BoundedSocket {
  readonly #ws: WebSocket;
  readonly #bounds: SendBounds;
  readonly #onDrop: (error: RelayError) => void;
  readonly #onResume: (() => void) | undefined;
  /** Why reading is paused; reading resumes when the set is empty. */
  readonly #holds = new Set<string>();
  readonly #drainWaiters: (() => void)[] = [];
  #pendingWrites = 0;
  #drainTimer: ReturnType<typeof setTimeout> | undefined;
  #dropped: PeerLimit | undefined;
  readonly #written = () => {
    this.#pendingWrites -= 1;
    if (this.#drainTimer !== undefined) {
      // A write reached the OS: the peer is reading. The deadline counts time without progress.
      if (this.backlog <= this.#bounds.pauseAbove) this.#drainedBelow();
      else this.#drainTimer.refresh();
    }
    if (this.#pendingWrites === 0) this.#settleDrainWaiters();
  };

  /**
   * @param events.onDrop the peer passed a limit: the socket is being dropped.
   * @param events.onResume reading resumed after a hold.
   */
  constructor(
    ws: WebSocket,
    bounds: SendBounds,
    events: { readonly onDrop: (error: RelayError) => void; readonly onResume?: () => void },
  ) {
    this.#ws = ws;
    this.#bounds = bounds;
    this.#onDrop = events.onDrop;
    this.#onResume = events.onResume;
    ws.once('close', () => {
      this.#clearDrainTimer();
      this.#settleDrainWaiters();
    });
  }

  /** Bytes accepted by {@link send} and not yet handed to the OS. */
  get backlog(): number {
    return this.#ws.bufferedAmount;
  }

  /** Whether the socket is open for writing (and was not dropped). */
  get open(): boolean {
    return this.#dropped === undefined && this.#ws.readyState === this.#ws.OPEN;
  }

  /** The limit the peer passed, once the connection was dropped for it (also the close reason). */
  get dropped(): PeerLimit | undefined {
    return this.#dropped;
  }

  /**
   * Sends one text message (a line, or lines already encoded as UTF-8); `false` when the socket is no
   * longer open. May drop the connection when the queue passes its bounds.
   */
  send(message: string | Uint8Array): boolean {
    if (!this.open) return false;
    this.#pendingWrites += 1;
    this.#ws.send(message, { binary: false }, this.#written);
    const backlog = this.backlog;
    if (backlog > this.#bounds.dropAbove) {
      this.#drop(
        'send_backlog',
        `${backlog} bytes queued to a peer that does not read (limit ${this.#bounds.dropAbove})`,
      );
    } else if (backlog > this.#bounds.pauseAbove && this.#drainTimer === undefined) this.#startDrainWait();
    return true;
  }

  /** Settles once everything sent so far has been handed to the OS, or the socket closed. */
  drained(): Promise<void> {
    if (this.#pendingWrites === 0 || this.#ws.readyState === this.#ws.CLOSED) return Promise.resolve();
    return new Promise((resolve) => this.#drainWaiters.push(resolve));
  }

  /** Whether the peer is read: no hold is in force. Messages already received may still arrive. */
  get reading(): boolean {
    return this.#holds.size === 0;
  }

  /** Stops reading from the peer for `reason` until {@link release}d. */
  hold(reason: string): void {
    if (this.#holds.size === 0) this.#ws.pause();
    this.#holds.add(reason);
  }

  /** Ends the hold of `reason`; reading resumes when no hold is left. */
  release(reason: string): void {
    if (!this.#holds.delete(reason) || this.#holds.size > 0) return;
    if (this.#ws.readyState !== this.#ws.OPEN) return;
    this.#ws.resume();
    this.#onResume?.();
  }

  /** Drops the connection for a limit of the owner's (too many identities …); `message` says which. */
  drop(limit: PeerLimit, message: string): void {
    this.#drop(limit, message);
  }

  #startDrainWait(): void {
    this.hold('backlog');
    const { pauseAbove, drainTimeoutMs } = this.#bounds;
    this.#drainTimer = setTimeout(() => {
      const message = `${this.backlog} bytes queued (above ${pauseAbove}) and none read for ${drainTimeoutMs} ms: the peer does not read`;
      this.#drop('drain_timeout', message);
    }, drainTimeoutMs);
    this.#drainTimer.unref();
  }

  #drainedBelow(): void {
    this.#clearDrainTimer();
    this.release('backlog');
  }

  #clearDrainTimer(): void {
    clearTimeout(this.#drainTimer);
    this.#drainTimer = undefined;
  }

  #settleDrainWaiters(): void {
    for (const resolve of this.#drainWaiters.splice(0)) resolve();
  }

  #drop(limit: PeerLimit, message: string): void {
    if (this.#dropped !== undefined) return;
    this.#dropped = limit;
    this.#clearDrainTimer();
    if (this.#ws.readyState === this.#ws.OPEN) this.#ws.close(RELAY_CLOSE_PEER_LIMIT, limit);
    this.#ws.terminate();
    this.#onDrop(peerLimitError(limit, message));
  }
}
