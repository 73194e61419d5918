/**
 * `@agentwire/relay/edge` — the connector's HTTP edge (Node only): provider webhook verifiers over the
 * raw bytes (Discord Ed25519, Twilio HMAC-SHA1, WeCom BizMsgCrypt), sanitisers that move
 * shared-identity credentials (the Discord interaction token) into the capability vault, edge handlers
 * that ACK the provider at once and forward the sanitised request as a buffered `passthrough_forward`
 * to the instance holding the tenant's gateway, and the gateway's side channels: `POST /relay/enroll`,
 * `/relay/provision`, `/relay/policy` and `POST/GET /relay/media`, with a router and a streaming
 * `node:http` adapter to mount them all on one server.
 *
 * The side channels keep their state in stores you choose: {@link EnrollmentTokenStore},
 * {@link ProvisionRegistry}, {@link PolicyStore} and {@link MediaStore} (`FilesystemMediaStore` here; the
 * Redis ones in `@agentwire/redis/relay`; in-memory ones for tests and single processes in
 * `@agentwire/relay/testing`). {@link edgeStoreKit} holds the argument checks for implementing one on
 * another backend.
 *
 * @example
 * ```ts
 * import { createDiscordEdgeHandler, createEdgeRouter, createMediaHandler, enrollmentRoutes,
 *   FilesystemMediaStore, tenantResolverFromRegistry, toNodeListener } from '@agentwire/relay/edge';
 *
 * const media = createMediaHandler({ authenticate: authenticatorFor(secrets), store: new FilesystemMediaStore({ root }) });
 * const http = createServer(toNodeListener(createEdgeRouter({
 *   ...enrollmentRoutes({ verifyIdentity, enrollmentTokens, secrets, registry, policies }),
 *   'POST /discord/interactions': createDiscordEdgeHandler({ publicKey, tenantOf: tenantResolverFromRegistry(registry), server: relay }),
 *   '/relay/media': media,
 *   '/relay/media/*': media,
 * })));
 * const relay = await createRelayServer({ server: http, authenticate: authenticatorFor(secrets), platforms });
 * ```
 *
 * @packageDocumentation
 */
export {
  type CallerIdentity,
  type CallerIdentityVerifier,
  type EnrollmentRoutesOptions,
  enrollmentRoutes,
} from './enrollment.js';
export type {
  EnrollmentTokenGrant,
  EnrollmentTokenRedemption,
  EnrollmentTokenRefusal,
  EnrollmentTokenStore,
  GatewayRelevancePolicy,
  PolicyStore,
  ProvisionedRoute,
  ProvisionRegistration,
  ProvisionRegistry,
} from './enrollment-stores.js';
export {
  createEdgeRouter,
  EDGE_HTTP_ERROR_CODES,
  type EdgeHandler,
  type EdgeRouterOptions,
  edgeErrorResponse,
  type JsonResponseInit,
  jsonResponse,
  type NodeListenerOptions,
  toNodeListener,
} from './http.js';
export {
  createMediaHandler,
  FilesystemMediaStore,
  type FilesystemMediaStoreOptions,
  type MediaHandlerOptions,
} from './media.js';
export type { MediaBody, MediaEntry, MediaPutOptions, MediaStore, StoredMedia } from './media-store.js';
export {
  createDiscordEdgeHandler,
  createTwilioEdgeHandler,
  createWeComEdgeHandler,
  type DiscordEdgeHandlerOptions,
  defaultTwilioRouteKeys,
  defaultWeComRouteKeys,
  discordRouteKeys,
  type TenantResolver,
  type TwilioEdgeHandlerOptions,
  tenantResolverFromRegistry,
  type WeComEdgeHandlerOptions,
} from './passthrough.js';
export {
  DISCORD_INTERACTION_TOKEN_KIND,
  type DiscordSanitiseOptions,
  sanitiseDiscordInteraction,
  sanitiseWeComMessage,
} from './sanitisers.js';
export { type EdgeStoreKit, edgeStoreKit } from './store-kit.js';
export {
  type DiscordVerifierOptions,
  type EdgeRequest,
  type TwilioVerifierOptions,
  type VerifiedDiscordInteraction,
  type VerifiedTwilioWebhook,
  verifyDiscordInteraction,
  verifyTwilioWebhook,
} from './verifiers.js';
export {
  type EncryptedWeComReply,
  encryptWeComReply,
  type VerifiedWeComCallback,
  verifyWeComCallback,
  type WeComReplyOptions,
  type WeComVerifierOptions,
} from './verifiers-wecom.js';
