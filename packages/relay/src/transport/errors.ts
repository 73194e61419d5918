import { GATEWAY_FAILURE_ERRORS } from '../frames/index.js';

/** Which transport condition failed. */
export type RelayTransportErrorCode =
  | 'not_connected'
  | 'transport_closed'
  | 'connection_lost'
  | 'outbound_timeout'
  | 'handshake_timeout'
  | 'descriptor_rejected'
  | 'auth_revoked';

/**
 * Base class of every {@link RelayTransport} failure: catch this to handle them all. An action the
 * connector answered — even with `success: false` — is a result, never one of these errors.
 */
export abstract class RelayTransportError extends Error {
  abstract override readonly name: string;
  abstract readonly code: RelayTransportErrorCode;
  /** The same call may succeed if it is made again, on this or a new connection. */
  abstract readonly retryable: boolean;
  /**
   * The request reached the wire and only its answer is missing: the connector may have acted on it,
   * so a retry can act twice (a `send` can post twice).
   */
  abstract readonly ambiguous: boolean;
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

/**
 * A request — outbound action, chat-info lookup, interrupt, handshake — that got no answer from the
 * connector. {@link RelayRequestError.toResult} gives the result dict the Python transport returns
 * instead of raising, for code that keeps the gateway's result-only contract.
 */
export abstract class RelayRequestError extends RelayTransportError {
  /** The `requestId` of the outbound frame, when one was written. */
  readonly requestId: string | undefined;
  /** The gateway's `error` text for this condition. */
  protected abstract readonly gatewayError: string;

  constructor(message: string, requestId: string | undefined, options?: ErrorOptions) {
    super(message, options);
    this.requestId = requestId;
  }

  /**
   * The gateway's synthesised failure result for this condition.
   *
   * @example
   * try {
   *   return await transport.sendOutbound(action);
   * } catch (error) {
   *   if (error instanceof RelayRequestError) return error.toResult();
   *   throw error;
   * }
   * // timeout → { success: false, error: 'relay outbound timed out', ambiguous: true }
   */
  toResult(): TransportFailureResult {
    return this.ambiguous
      ? { success: false, error: this.gatewayError, ambiguous: true }
      : { success: false, error: this.gatewayError };
  }
}

/**
 * Nothing was sent: the transport was never connected, or was disconnected or lost before the call.
 * Retryable and never ambiguous — reconnect and send again.
 */
export class RelayNotConnectedError extends RelayRequestError {
  override readonly name = 'RelayNotConnectedError';
  readonly code = 'not_connected';
  readonly retryable = true;
  readonly ambiguous = false;
  protected readonly gatewayError = GATEWAY_FAILURE_ERRORS.notConnected;

  constructor(what: string, options?: ErrorOptions) {
    super(`${what}: ${GATEWAY_FAILURE_ERRORS.notConnected}`, undefined, options);
  }
}

/**
 * `disconnect()` was called while the request was pending. The Python transport fails pending calls
 * the same way (`RuntimeError("relay transport closed")`). Retryable on a new connection; ambiguous
 * when an outbound frame had been written.
 */
export class RelayTransportClosedError extends RelayRequestError {
  override readonly name = 'RelayTransportClosedError';
  readonly code = 'transport_closed';
  readonly retryable = true;
  readonly ambiguous: boolean;
  protected readonly gatewayError = GATEWAY_FAILURE_ERRORS.disconnected;

  constructor(what: string, requestId: string | undefined, options?: ErrorOptions) {
    super(`${what}: ${GATEWAY_FAILURE_ERRORS.disconnected}`, requestId, options);
    this.ambiguous = requestId !== undefined;
  }
}

/**
 * The connection dropped (the connector closed the socket, the reader died) while the request was
 * pending. Retryable after reconnecting; ambiguous when an outbound frame had been written.
 */
export class RelayConnectionLostError extends RelayRequestError {
  override readonly name = 'RelayConnectionLostError';
  readonly code = 'connection_lost';
  readonly retryable = true;
  readonly ambiguous: boolean;
  protected readonly gatewayError = GATEWAY_FAILURE_ERRORS.connectionLost;

  constructor(what: string, requestId: string | undefined, options?: ErrorOptions) {
    super(`${what}: ${GATEWAY_FAILURE_ERRORS.connectionLost}`, requestId, options);
    this.ambiguous = requestId !== undefined;
  }
}

/**
 * No `outbound_result` arrived for `requestId` within `timeoutMs` (the gateway waits 30 s). A late
 * result is ignored. Retryable, always ambiguous: the connector may have acted.
 */
export class RelayOutboundTimeoutError extends RelayRequestError {
  override readonly name = 'RelayOutboundTimeoutError';
  readonly code = 'outbound_timeout';
  readonly retryable = true;
  readonly ambiguous = true;
  protected readonly gatewayError = GATEWAY_FAILURE_ERRORS.timedOut;
  /** How long the transport waited, in milliseconds. */
  readonly timeoutMs: number;

  constructor(requestId: string, timeoutMs: number) {
    super(
      `${GATEWAY_FAILURE_ERRORS.timedOut}: no outbound_result for ${requestId} within ${timeoutMs} ms`,
      requestId,
    );
    this.timeoutMs = timeoutMs;
  }
}

/**
 * No `descriptor` arrived within `timeoutMs` of the hellos (the gateway waits 30 s and then fails
 * `connect()`). Retryable: the connector may just be slow or not yet provisioned.
 */
export class RelayHandshakeTimeoutError extends RelayTransportError {
  override readonly name = 'RelayHandshakeTimeoutError';
  readonly code = 'handshake_timeout';
  readonly retryable = true;
  readonly ambiguous = false;
  /** How long the transport waited, in milliseconds. */
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    super(`relay handshake timed out: no descriptor within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The connector's first `descriptor` frame cannot be read (a required field is missing, the object
 * is malformed); `cause` is the decode error. The Python gateway's reader dies on such a frame and
 * its handshake then times out; a TypeScript transport fails the handshake at once. Not retryable:
 * the connector would send the same descriptor again.
 */
export class RelayDescriptorRejectedError extends RelayTransportError {
  override readonly name = 'RelayDescriptorRejectedError';
  readonly code = 'descriptor_rejected';
  readonly retryable = false;
  readonly ambiguous = false;

  constructor(reason: string, options?: ErrorOptions) {
    super(`relay handshake failed: the connector's descriptor was rejected: ${reason}`, options);
  }
}
