// Passthrough-plane edge handlers (contract §3.1, §6): provider webhooks verified at the edge,
// answered there within the provider's window, sanitised and buffered as `passthrough_forward`
// frames for the tenant's gateway.
export {
  createDiscordEdgeHandler,
  DISCORD_CALLBACK,
  type DiscordEdgeHandlerOptions,
  discordRouteKeys,
} from './discord-edge-handler.js';
export {
  DEFAULT_HANDOFF_TIMEOUT_MS,
  DEFAULT_WEBHOOK_MAX_BODY_BYTES,
  type PassthroughHandlerOptions,
} from './handler-options.js';
export type { PassthroughRelay } from './passthrough-relay.js';
export { type TenantResolver, tenantResolverFromRegistry } from './tenant-resolver.js';
export {
  createTwilioEdgeHandler,
  defaultTwilioRouteKeys,
  EMPTY_TWIML,
  type TwilioEdgeHandlerOptions,
} from './twilio-edge-handler.js';
export {
  createWeComEdgeHandler,
  defaultWeComRouteKeys,
  WECOM_ACK,
  type WeComEdgeHandlerOptions,
} from './wecom-edge-handler.js';
