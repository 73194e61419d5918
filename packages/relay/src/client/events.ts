import type { CapabilityDescriptor } from '../descriptor/index.js';
import type { RelayTransportError } from '../transport/errors.js';

/**
 * Where a `WebSocketRelayTransport` stands:
 * - `idle`: created, `connect()` not called yet;
 * - `connecting`: the first dial (or one `connect()` started) is in progress;
 * - `open`: the socket is open and the hellos are written (the descriptor may still be on its way);
 * - `reconnecting`: the connection ended or a dial failed, and a re-dial is scheduled or in progress;
 * - `closed`: `disconnect()` was called, or the connection ended with `reconnect: false`;
 *   `connect()` starts again;
 * - `revoked`: the connector revoked this gateway (a `RelayTransportError` `auth_revoked`); terminal.
 */
export type RelayClientState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed' | 'revoked';

/** How an open connection ended. */
export interface RelayDisconnectInfo {
  /** The WebSocket close code (`1006` when the socket dropped without a close frame). */
  readonly code: number;
  /** The close reason, `""` when none was given. */
  readonly reason: string;
  /** Milliseconds until the re-dial (`0`: at once), or `null` when none will follow. */
  readonly reconnectInMs: number | null;
}

/** The listeners `WebSocketRelayTransport.on` accepts, by event name. */
export interface RelayClientEvents {
  /** The state changed. */
  state: (state: RelayClientState, previous: RelayClientState) => void;
  /** A socket opened and every `hello` was written; the descriptor is still to come. */
  connected: () => void;
  /** The first `descriptor` of a connection arrived: the handshake completed. */
  handshake: (descriptor: CapabilityDescriptor) => void;
  /** An open connection ended. */
  disconnected: (info: RelayDisconnectInfo) => void;
  /** A re-dial is scheduled in `delayMs` (`0`: at once), after a close or a failed dial. */
  redial: (info: { readonly delayMs: number }) => void;
  /** The connector revoked this gateway; the transport is now `revoked` for good. */
  revoked: (error: RelayTransportError) => void;
  /**
   * Something went wrong without failing a call: a dial that did not open, an undecodable connector line (a
   * `RelayError` with a frame code), an inbound event the gateway's reader refuses, an error thrown by an
   * inbound, interrupt or passthrough handler, or a connector that passed a limit (a `RelayError`
   * `peer_limit`: the connection was dropped and is re-dialled).
   */
  error: (error: unknown) => void;
}

/** A small typed event emitter; a listener that throws is ignored, so it cannot break the transport. */
export class RelayClientEmitter {
  readonly #listeners = new Map<keyof RelayClientEvents, Set<RelayClientEvents[keyof RelayClientEvents]>>();

  /** Adds `listener`; returns the function that removes it. */
  on<E extends keyof RelayClientEvents>(event: E, listener: RelayClientEvents[E]): () => void {
    let set = this.#listeners.get(event);
    if (set === undefined) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  /** Calls every listener of `event` with `args`, in the order they were added. */
  emit<E extends keyof RelayClientEvents>(event: E, ...args: Parameters<RelayClientEvents[E]>): void {
    const set = this.#listeners.get(event);
    if (set === undefined) return;
    for (const listener of [...set]) {
      try {
        (listener as unknown as (...values: Parameters<RelayClientEvents[E]>) => void)(...args);
      } catch {
        // A listener's failure is its own; the transport goes on.
      }
    }
  }
}
