/**
 * `@agentwire/relay/edge` — the connector's HTTP edge (Node only): provider webhook verifiers over the
 * raw bytes (Discord Ed25519, Twilio HMAC-SHA1, WeCom BizMsgCrypt), sanitisers that move
 * shared-identity credentials (the Discord interaction token) into the capability vault, edge handlers
 * that ACK the provider at once and forward the sanitised request as a buffered `passthrough_forward`
 * to the instance holding the tenant's gateway, and the gateway's side channels: `POST /relay/enroll`,
 * `/relay/provision`, `/relay/policy` and `POST/GET /relay/media`, with a router and a streaming
 * `node:http` adapter to mount them all on one server.
 *
 * @example
 * ```ts
 * import { createDiscordEdgeHandler, createEdgeRouter, createMediaHandler, enrollmentRoutes,
 *   InMemoryMediaStore, tenantResolverFromRegistry, toNodeListener } from '@agentwire/relay/edge';
 *
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
  createEnrollHandler,
  createPolicyHandler,
  createProvisionHandler,
  DEFAULT_ENROLLMENT_MAX_BODY_BYTES,
  type EnrollHandlerOptions,
  type EnrollmentHandlerBaseOptions,
  type EnrollmentRoutesOptions,
  type EnrollRequest,
  enrollmentRoutes,
  enrollRequestSchema,
  type GatewayCredentialsBody,
  MAX_DISPLAY_NAME_LENGTH,
  type PolicyHandlerOptions,
  type PolicyRequest,
  type ProvisionHandlerOptions,
  type ProvisionRequest,
  policyRequestSchema,
  provisionRequestSchema,
} from './enrollment.js';
export {
  checkEdgeName,
  checkProvisionRegistration,
  checkRelevancePolicy,
  type EnrollmentTokenGrant,
  type EnrollmentTokenRedemption,
  type EnrollmentTokenRefusal,
  type EnrollmentTokenStore,
  type GatewayRelevancePolicy,
  InMemoryEnrollmentTokenStore,
  type InMemoryEnrollmentTokenStoreOptions,
  InMemoryPolicyStore,
  InMemoryProvisionRegistry,
  type PolicyStore,
  type ProvisionedRoute,
  type ProvisionRegistration,
  type ProvisionRegistry,
  type RelevancePolicy,
} from './enrollment-stores.js';
export {
  answeringEdgeErrors,
  createEdgeRouter,
  EDGE_HTTP_ERROR_CODES,
  EDGE_INTERNAL_ERROR_CODE,
  type EdgeErrorBody,
  type EdgeHandler,
  type EdgeRouterOptions,
  edgeErrorResponse,
  type JsonResponseInit,
  jsonResponse,
  limitedRequestBody,
  type NodeListenerOptions,
  type NodeRequestListener,
  readBodyWithLimit,
  toNodeListener,
} from './http.js';
export {
  attachmentContentDisposition,
  createMediaHandler,
  DEFAULT_MEDIA_CONTENT_TYPE,
  FilesystemMediaStore,
  type FilesystemMediaStoreOptions,
  InMemoryMediaStore,
  isMediaId,
  type MediaBody,
  type MediaEntry,
  type MediaHandlerOptions,
  type MediaPutOptions,
  type MediaStore,
  mediaContentType,
  newMediaId,
  RELAY_MEDIA_PATH,
  type StoredMedia,
  sanitizeMediaFilename,
} from './media.js';
export {
  createDiscordEdgeHandler,
  createTwilioEdgeHandler,
  createWeComEdgeHandler,
  DEFAULT_HANDOFF_TIMEOUT_MS,
  DEFAULT_WEBHOOK_MAX_BODY_BYTES,
  DISCORD_CALLBACK,
  type DiscordEdgeHandlerOptions,
  defaultTwilioRouteKeys,
  defaultWeComRouteKeys,
  discordRouteKeys,
  EMPTY_TWIML,
  type PassthroughHandlerOptions,
  type PassthroughRelay,
  type TenantResolver,
  type TwilioEdgeHandlerOptions,
  tenantResolverFromRegistry,
  WECOM_ACK,
  type WeComEdgeHandlerOptions,
} from './passthrough.js';
export {
  DISCORD_INTERACTION_TOKEN_KIND,
  DISCORD_INTERACTION_TOKEN_TTL_MS,
  type DiscordInteractionSessionSource,
  type DiscordSanitiseOptions,
  discordInteractionSessionSource,
  type SanitisedDiscordInteraction,
  type SanitisedWeComMessage,
  sanitiseDiscordInteraction,
  sanitiseWeComMessage,
  WECOM_CREDENTIAL_ELEMENTS,
} from './sanitisers.js';
export {
  DEFAULT_MAX_SKEW_SECONDS,
  DISCORD_SIGNATURE_HEADER,
  DISCORD_TIMESTAMP_HEADER,
  type DiscordInteraction,
  type DiscordVerifierOptions,
  type EdgeRequest,
  TWILIO_BODY_HASH_PARAM,
  TWILIO_SIGNATURE_HEADER,
  type TwilioParam,
  type TwilioVerifierOptions,
  type VerifiedDiscordInteraction,
  type VerifiedTwilioFormWebhook,
  type VerifiedTwilioJsonWebhook,
  type VerifiedTwilioWebhook,
  verifyDiscordInteraction,
  verifyTwilioWebhook,
} from './verifiers.js';
export {
  type EncryptedWeComReply,
  encryptWeComReply,
  type VerifiedWeComCallback,
  type VerifiedWeComMessage,
  type VerifiedWeComUrlVerification,
  verifyWeComCallback,
  type WeComCryptoOptions,
  type WeComReplyOptions,
  type WeComVerifierOptions,
  weComMsgSignature,
} from './verifiers-wecom.js';
