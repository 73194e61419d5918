/**
 * The `error` texts of the failed results the gateway synthesises itself; they never travel on the
 * wire. `disconnected` is an exception at the baseline (`RuntimeError("relay transport closed")`) and
 * a result on newer gateways; `timedOut` and `disconnected` results carry `ambiguous: true` on newer
 * gateways (the connector may have acted).
 */
export const GATEWAY_FAILURE_ERRORS = {
  /** No socket: nothing was sent. */
  notConnected: 'relay transport not connected',
  /** No `outbound_result` within 30 s. */
  timedOut: 'relay outbound timed out',
  /** The transport was closed while the call was pending. */
  disconnected: 'relay transport closed',
  /** Newer gateways: the reader ended while the call was pending. */
  connectionLost: 'relay transport connection lost',
} as const;

/** How long the gateway waits for an `outbound_result`, in milliseconds. */
export const OUTBOUND_RESULT_TIMEOUT_MS = 30_000;
/** How long the gateway waits for a `going_idle_ack`, in milliseconds (its default). */
export const GOING_IDLE_ACK_TIMEOUT_MS = 10_000;
/** How long the gateway waits for the first `descriptor` after its hellos, in milliseconds. */
export const HANDSHAKE_TIMEOUT_MS = 30_000;
