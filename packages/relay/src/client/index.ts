export { AuthClosePolicy, type CloseDecision } from './auth-close-policy.js';
export {
  DEFAULT_BACKOFF_INITIAL_MS,
  DEFAULT_BACKOFF_MAX_MS,
  ReconnectBackoff,
  type ReconnectBackoffOptions,
} from './backoff.js';
export type { RelayClientEvents, RelayClientState, RelayDisconnectInfo } from './events.js';
export { DEFAULT_PING_INTERVAL_MS, DEFAULT_PING_TIMEOUT_MS } from './keepalive.js';
export {
  RELAY_CLIENT_FLOW_DEFAULTS,
  type RelayHelloIdentity,
  type WebSocketRelayTransportOptions,
} from './options.js';
export { WebSocketRelayTransport } from './web-socket-relay-transport.js';
