import { GATEWAY_FAILURE_ERRORS } from '../frames/index.js';

/**
 * Which transport condition failed:
 * - `not_connected`: nothing was sent — the transport was never connected, or was disconnected or
 *   lost before the call;
 * - `transport_closed`: `disconnect()` was called while the request was pending (the Python
 *   transport fails pending calls the same way, `RuntimeError("relay transport closed")`);
 * - `connection_lost`: the connection dropped (the connector closed the socket, the reader died)
 *   while the request was pending;
 * - `outbound_timeout`: no `outbound_result` arrived for `requestId` within `details.timeoutMs` (the
 *   gateway waits 30 s); a late result is ignored;
 * - `handshake_timeout`: no `descriptor` arrived within `details.timeoutMs` of the hellos (the
 *   gateway waits 30 s and then fails `connect()`);
 * - `descriptor_rejected`: the connector's first `descriptor` frame cannot be read (`cause` is the
 *   decode error). The Python gateway's reader dies on such a frame and its handshake then times
 *   out; a TypeScript transport fails the handshake at once;
 * - `auth_revoked`: the connector revoked this gateway — after a completed handshake it closed the
 *   socket with 4401 (a reason other than `"expired"`), and the one immediate re-dial with a fresh
 *   token was closed with 4401 again. The transport stops reconnecting for good; every pending and
 *   later call fails with this code (the Python gateway raises its fatal `relay_disabled` here).
 */
export type RelayTransportErrorCode =
  | 'not_connected'
  | 'transport_closed'
  | 'connection_lost'
  | 'outbound_timeout'
  | 'handshake_timeout'
  | 'descriptor_rejected'
  | 'auth_revoked';

/** The facts some transport codes carry besides their message; each field names the codes that set it. */
export interface RelayTransportErrorDetails {
  /** `outbound_timeout`, `handshake_timeout`: how long the transport waited, in milliseconds. */
  readonly timeoutMs?: number;
  /** `auth_revoked`: the close reason of the 4401 that latched the revocation. */
  readonly closeReason?: string;
}

/** What a {@link RelayTransportError} carries besides its code and message. */
export interface RelayTransportErrorOptions extends ErrorOptions {
  /** The `requestId` of the outbound frame, when one was written before the failure. */
  readonly requestId?: string | undefined;
  /** Facts particular to the code (see {@link RelayTransportErrorDetails}). */
  readonly details?: RelayTransportErrorDetails;
}

/**
 * The failed result the Python gateway synthesises in place of a connector answer (never on the
 * wire): `error` is one of `GATEWAY_FAILURE_ERRORS`; `ambiguous: true` when the connector may have
 * acted (newer gateways add it; the baseline gateway does not).
 */
export interface TransportFailureResult {
  readonly success: false;
  readonly error: string;
  readonly ambiguous?: true;
}

/** The codes a caller cannot fix by calling again: the connector would refuse the same way. */
const NOT_RETRYABLE: ReadonlySet<RelayTransportErrorCode> = new Set(['descriptor_rejected', 'auth_revoked']);

/** The gateway's `error` text for a failure with `code`. */
function gatewayError(code: RelayTransportErrorCode, ambiguous: boolean): string {
  switch (code) {
    case 'transport_closed':
      return GATEWAY_FAILURE_ERRORS.disconnected;
    case 'connection_lost':
      return GATEWAY_FAILURE_ERRORS.connectionLost;
    case 'outbound_timeout':
      return GATEWAY_FAILURE_ERRORS.timedOut;
    case 'auth_revoked':
      return ambiguous ? GATEWAY_FAILURE_ERRORS.connectionLost : GATEWAY_FAILURE_ERRORS.notConnected;
    default:
      // not_connected, and a handshake that failed: there is no connection the call could use.
      return GATEWAY_FAILURE_ERRORS.notConnected;
  }
}

/**
 * A {@link RelayTransport} failure: a request — outbound action, chat-info lookup, interrupt,
 * handshake — that got no answer from the connector. A separate class from `RelayError` because a
 * caller does not fix its input here: it retries (`retryable`) or reports the failure, and must know
 * whether the connector may already have acted (`ambiguous`). An action the connector answered — even
 * with `success: false` — is a result, never one of these errors. Switch on `code`.
 *
 * `retryable`: the same call may succeed if it is made again, on this or a new connection (every code
 * but `descriptor_rejected` — the connector would send the same descriptor again — and `auth_revoked` —
 * re-enroll the gateway and create a new transport). `ambiguous`: the request reached the wire and only
 * its answer is missing, so a retry can act twice (a `send` can post twice) — always for
 * `outbound_timeout`, and whenever a `requestId` was written before the failure.
 *
 * @example
 * ```ts
 * try {
 *   return await transport.sendOutbound(action);
 * } catch (error) {
 *   if (error instanceof RelayTransportError) return error.toResult();
 *   throw error;
 * }
 * // timeout → { success: false, error: 'relay outbound timed out', ambiguous: true }
 * ```
 */
export class RelayTransportError extends Error {
  override readonly name: string = 'RelayTransportError';
  /** Which condition failed; stable across releases. */
  readonly code: RelayTransportErrorCode;
  /** The same call may succeed if it is made again, on this or a new connection. */
  readonly retryable: boolean;
  /** The request reached the wire and only its answer is missing: the connector may have acted. */
  readonly ambiguous: boolean;
  /** The `requestId` of the outbound frame, when one was written. */
  readonly requestId: string | undefined;
  /** Facts particular to the code; `undefined` for codes that carry none. */
  readonly details: RelayTransportErrorDetails | undefined;

  constructor(code: RelayTransportErrorCode, message: string, options: RelayTransportErrorOptions = {}) {
    const { requestId, details, ...errorOptions } = options;
    super(message, errorOptions);
    this.code = code;
    this.requestId = requestId;
    this.details = details;
    this.retryable = !NOT_RETRYABLE.has(code);
    this.ambiguous = code === 'outbound_timeout' || requestId !== undefined;
  }

  /**
   * The gateway's synthesised failure result for this condition, for code that keeps the gateway's
   * result-only contract (the Python transport returns it instead of raising).
   */
  toResult(): TransportFailureResult {
    const error = gatewayError(this.code, this.ambiguous);
    return this.ambiguous ? { success: false, error, ambiguous: true } : { success: false, error };
  }
}

/** `not_connected`: `what` (the call) found no connection; nothing was sent. */
export function notConnectedError(what: string, options?: ErrorOptions): RelayTransportError {
  return new RelayTransportError('not_connected', `${what}: ${GATEWAY_FAILURE_ERRORS.notConnected}`, options);
}

/** `transport_closed`: `disconnect()` ended `what` while it was pending. */
export function transportClosedError(what: string, requestId: string | undefined): RelayTransportError {
  return new RelayTransportError('transport_closed', `${what}: ${GATEWAY_FAILURE_ERRORS.disconnected}`, {
    requestId,
  });
}

/** `connection_lost`: the connection dropped while `what` was pending. */
export function connectionLostError(what: string, requestId: string | undefined): RelayTransportError {
  return new RelayTransportError('connection_lost', `${what}: ${GATEWAY_FAILURE_ERRORS.connectionLost}`, {
    requestId,
  });
}

/** `outbound_timeout`: no `outbound_result` for `requestId` within `timeoutMs`. */
export function outboundTimeoutError(requestId: string, timeoutMs: number): RelayTransportError {
  return new RelayTransportError(
    'outbound_timeout',
    `${GATEWAY_FAILURE_ERRORS.timedOut}: no outbound_result for ${requestId} within ${timeoutMs} ms`,
    { requestId, details: { timeoutMs } },
  );
}

/** `handshake_timeout`: no `descriptor` within `timeoutMs` of the hellos. */
export function handshakeTimeoutError(timeoutMs: number): RelayTransportError {
  return new RelayTransportError(
    'handshake_timeout',
    `relay handshake timed out: no descriptor within ${timeoutMs} ms`,
    { details: { timeoutMs } },
  );
}

/**
 * `descriptor_rejected`: the connector's descriptor could not be read, for `reason` (`cause`: the decode
 * error).
 */
export function descriptorRejectedError(reason: string, options?: ErrorOptions): RelayTransportError {
  return new RelayTransportError(
    'descriptor_rejected',
    `relay handshake failed: the connector's descriptor was rejected: ${reason}`,
    options,
  );
}

/**
 * `auth_revoked`: `what` (the call that failed: `send_outbound`, `handshake` …) met a revoked
 * gateway; `requestId` is that of the outbound frame written before the revocation, if any.
 */
export function authRevokedError(what: string, closeReason: string, requestId?: string): RelayTransportError {
  return new RelayTransportError(
    'auth_revoked',
    `${what}: relay disabled: the connector revoked this gateway (close 4401 "${closeReason}")`,
    { requestId, details: { closeReason } },
  );
}
