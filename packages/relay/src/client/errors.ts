import { RelayError } from '../errors.js';
import { GATEWAY_FAILURE_ERRORS } from '../frames/index.js';
import { RelayRequestError } from '../transport/index.js';

/**
 * The connector revoked this gateway: after a completed handshake it closed the socket with 4401 (a
 * reason other than `"expired"`), and the one immediate re-dial with a fresh token was closed with
 * 4401 again. The transport stops reconnecting for good; every pending and later call rejects with
 * this error. Not retryable: re-enroll the gateway and create a new transport. (The Python gateway
 * raises its fatal, non-retryable `relay_disabled` here.)
 */
export class RelayAuthRevokedError extends RelayRequestError {
  override readonly name = 'RelayAuthRevokedError';
  readonly code = 'auth_revoked';
  readonly retryable = false;
  readonly ambiguous: boolean;
  protected readonly gatewayError: string;
  /** The close reason of the 4401 that latched the revocation. */
  readonly closeReason: string;

  /**
   * @param what the call that failed (`send_outbound`, `handshake` …)
   * @param requestId the `requestId` of the outbound frame written before the revocation, if any
   */
  constructor(what: string, closeReason: string, requestId?: string) {
    super(
      `${what}: relay disabled: the connector revoked this gateway (close 4401 "${closeReason}")`,
      requestId,
    );
    this.closeReason = closeReason;
    this.ambiguous = requestId !== undefined;
    this.gatewayError =
      requestId === undefined ? GATEWAY_FAILURE_ERRORS.notConnected : GATEWAY_FAILURE_ERRORS.connectionLost;
  }
}

/**
 * An option of `WebSocketRelayTransport` is unusable (a timeout that is not a positive number, an
 * identity whose `hello` cannot be written, a secret that cannot sign a token). `path` names the
 * option; `cause` keeps the underlying error, if any.
 */
export class RelayClientOptionsError extends RelayError {
  override readonly name = 'RelayClientOptionsError';
  readonly code = 'invalid_client_options';
}
