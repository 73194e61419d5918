export { DEFAULT_PING_INTERVAL_MS, DEFAULT_PING_TIMEOUT_MS } from './client-connection.js';
export type { RelayClientEvents, RelayClientState, RelayDisconnectInfo } from './options.js';
export {
  AuthClosePolicy,
  type CloseDecision,
  DEFAULT_BACKOFF_INITIAL_MS,
  DEFAULT_BACKOFF_MAX_MS,
  RELAY_CLIENT_FLOW_DEFAULTS,
  ReconnectBackoff,
  type ReconnectBackoffOptions,
  type RelayHelloIdentity,
  type WebSocketRelayTransportOptions,
} from './options.js';
export { WebSocketRelayTransport } from './web-socket-relay-transport.js';
