import { RelayError } from '../errors.js';
import { describe } from './arguments.js';
import type { RelayTokenVerification } from './verify.js';

/**
 * The private-use WebSocket close code a connector sends when the upgrade's auth is missing,
 * invalid, expired or revoked. The baseline gateway reads a 4401 after a completed handshake as a
 * revocation and stops reconnecting; newer gateways first re-dial once with a fresh token, and never
 * treat reason {@link RELAY_CLOSE_REASON_EXPIRED} as a revocation.
 */
export const RELAY_CLOSE_UNAUTHORIZED = 4401;

/** Close reason for a token that was validly signed but has expired. */
export const RELAY_CLOSE_REASON_EXPIRED = 'expired';

/** Close reason for every other auth failure: no token, a bad or forged token, a revoked secret. */
export const RELAY_CLOSE_REASON_UNAUTHORIZED = 'unauthorized';

/** A close reason a connector sends with {@link RELAY_CLOSE_UNAUTHORIZED}. */
export type RelayAuthCloseReason = typeof RELAY_CLOSE_REASON_EXPIRED | typeof RELAY_CLOSE_REASON_UNAUTHORIZED;

/** The code and reason to close a refused upgrade with. */
export interface RelayAuthClose {
  readonly code: typeof RELAY_CLOSE_UNAUTHORIZED;
  readonly reason: RelayAuthCloseReason;
}

/**
 * How to close the socket after verifying its token: `undefined` when the token is valid, otherwise
 * code 4401 with reason `expired` for an expired token and `unauthorized` for any other refusal.
 *
 * @example
 * const close = relayAuthClose(verifyRelayToken(token, secrets));
 * if (close !== undefined) ws.close(close.code, close.reason);
 */
export function relayAuthClose(result: RelayTokenVerification): RelayAuthClose | undefined {
  if (typeof result !== 'object' || result === null || typeof result.valid !== 'boolean') {
    throw new RelayError(
      'relay_token_invalid_argument',
      `result must be a verification result, got ${describe(result)}`,
      { path: 'result' },
    );
  }
  if (result.valid) return undefined;
  return {
    code: RELAY_CLOSE_UNAUTHORIZED,
    reason: result.reason === 'expired' ? RELAY_CLOSE_REASON_EXPIRED : RELAY_CLOSE_REASON_UNAUTHORIZED,
  };
}
