/**
 * `@agentwire/relay/server` — the connector side of the relay, on `ws` (Node only): a WebSocket server
 * that gateways dial, with upgrade auth (4401 `expired` / `unauthorized`), hello → descriptor,
 * outbound execution on {@link PlatformAdapter}s, buffered inbound delivery with `inbound_ack`, the
 * `follow_up` capability vault, interrupts both ways, pings and per-connection backpressure.
 *
 * @example
 * ```ts
 * import { createRelayServer } from '@agentwire/relay/server';
 *
 * const server = await createRelayServer({
 *   port: 8080,
 *   authenticate: async (gatewayId) => store.gateway(gatewayId),
 *   platforms: { discord: discordAdapter },
 * });
 * ```
 *
 * @packageDocumentation
 */

export {
  type ChatRoute,
  type ChatRouteContext,
  type ChatRouter,
  RELAY_SERVER_DEFAULTS,
  type RelayServerOptions,
} from './options.js';
export type { FollowUpContext, OutboundContext, PlatformAdapter } from './platform-adapter.js';
export { createRelayServer, RelayServer, type RelayServerEvents } from './relay-server.js';
