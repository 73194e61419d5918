/** The connector refused the WebSocket upgrade with a plain HTTP answer, or the dial failed. */
export class LiveConnectionError extends Error {
  override readonly name = 'LiveConnectionError';
  readonly code = 'live_connection_failed';
  /** The HTTP status the connector answered the upgrade with, when it answered one. */
  readonly status: number | undefined;

  constructor(message: string, options: { readonly status?: number; readonly cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status;
  }
}

/** `relayConnectorSuite` was given options it cannot use. */
export class RelayLiveOptionsError extends Error {
  override readonly name = 'RelayLiveOptionsError';
  readonly code = 'invalid_relay_live_options';
}
