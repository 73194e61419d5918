import { RELAY_CLOSE_REASON_EXPIRED, RELAY_CLOSE_UNAUTHORIZED } from '../auth/index.js';

/**
 * What to do after a connection ends: re-dial after the backoff delay, re-dial at once with a fresh
 * token (the one retry after a post-handshake 4401), or stop for good (revoked).
 */
export type CloseDecision =
  | { readonly kind: 'redial_after_backoff' }
  | { readonly kind: 'redial_now' }
  | { readonly kind: 'revoked'; readonly reason: string };

const AFTER_BACKOFF: CloseDecision = { kind: 'redial_after_backoff' };
const NOW: CloseDecision = { kind: 'redial_now' };

/**
 * How a gateway reads the connector's close code 4401, as newer upstream gateways do:
 * - before any handshake ever completed on this transport, 4401 is retryable (the connector may be
 *   cold or the gateway not yet provisioned): re-dial after the backoff delay;
 * - reason `"expired"` is never a revocation (the token aged out): re-dial after the backoff delay;
 * - any other 4401 after a handshake gets one immediate re-dial with a fresh token; a second 4401
 *   on that fresh-token connection is a revocation.
 *
 * The fresh-token retry stays pending across dials that fail to open, and is cleared by a completed
 * handshake, by an `"expired"` 4401 and by any other close code.
 *
 * @example
 * const policy = new AuthClosePolicy();
 * policy.handshakeCompleted();
 * policy.connectionClosed(4401, 'unauthorized'); // { kind: 'redial_now' }
 * policy.connectionClosed(4401, 'unauthorized'); // { kind: 'revoked', reason: 'unauthorized' }
 */
export class AuthClosePolicy {
  #handshakeSucceeded = false;
  #freshTokenRetryPending = false;

  /** Whether a handshake has ever completed on this transport (a later 4401 can then revoke). */
  get handshakeSucceeded(): boolean {
    return this.#handshakeSucceeded;
  }

  /** A descriptor arrived: latches "handshake succeeded" and clears a pending fresh-token retry. */
  handshakeCompleted(): void {
    this.#handshakeSucceeded = true;
    this.#freshTokenRetryPending = false;
  }

  /** Decides what follows an opened connection's close with `code` and `reason`. */
  connectionClosed(code: number, reason: string): CloseDecision {
    if (code !== RELAY_CLOSE_UNAUTHORIZED || reason === RELAY_CLOSE_REASON_EXPIRED) {
      this.#freshTokenRetryPending = false;
      return AFTER_BACKOFF;
    }
    if (!this.#handshakeSucceeded) return AFTER_BACKOFF;
    if (this.#freshTokenRetryPending) return { kind: 'revoked', reason };
    this.#freshTokenRetryPending = true;
    return NOW;
  }
}
