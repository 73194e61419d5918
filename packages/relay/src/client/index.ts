/**
 * `@agentwire/relay/client` — the gateway side of the relay, on `ws` (Node only):
 * {@link WebSocketRelayTransport}, the TypeScript form of the Python gateway's transport (a token per
 * dial, one hello per identity, `requestId` correlation, acks after the handler, reconnect with
 * backoff, 4401 handling, bounded reading and sending). Use it to drive a connector in tests, or as a
 * gateway.
 *
 * @example
 * ```ts
 * import { WebSocketRelayTransport } from '@agentwire/relay/client';
 *
 * const gateway = new WebSocketRelayTransport({
 *   url: 'http://127.0.0.1:8080',
 *   gatewayId: 'gw-1',
 *   secret,
 *   identities: [{ platform: 'discord', botId: 'app-1' }],
 * });
 * gateway.onInbound(async (event) => console.log(event.text));
 * await gateway.connect();
 * await gateway.handshake();
 * ```
 *
 * @packageDocumentation
 */

export {
  RELAY_CLIENT_FLOW_DEFAULTS,
  type RelayClientEvents,
  type WebSocketRelayTransportOptions,
} from './options.js';
export { WebSocketRelayTransport } from './web-socket-relay-transport.js';
