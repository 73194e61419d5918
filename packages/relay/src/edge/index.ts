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
export * from './enrollment/index.js';
export * from './http/index.js';
export * from './media/index.js';
export * from './passthrough/index.js';
export * from './sanitisers/index.js';
export * from './verifiers/index.js';
