/** `relayEdgeLiveSuite` was given options it cannot use (a base URL that is not http(s), an empty secret). */
export class RelayEdgeLiveOptionsError extends Error {
  override readonly name = 'RelayEdgeLiveOptionsError';
  readonly code = 'invalid_relay_edge_live_options';
}

/** A `declaredLengthProbe` got no status: the connection failed or no answer came in time. */
export class DeclaredLengthProbeError extends Error {
  override readonly name = 'DeclaredLengthProbeError';
  readonly code = 'declared_length_probe_failed';
}
