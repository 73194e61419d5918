// The edge suite's inputs bound to @agentwire/relay/edge: the verifiers, the WeCom reply encryption,
// the side channels behind the edge router on in-memory stores with a fixed clock, and the Discord
// sanitiser. Used by the bundled CLI runs and the suite's own tests; not part of the public API.
import { authenticatorFor, mintRelayToken } from '@agentwire/relay';
import {
  createDiscordEdgeHandler,
  createEdgeRouter,
  createMediaHandler,
  createTwilioEdgeHandler,
  createWeComEdgeHandler,
  type DiscordEdgeHandlerOptions,
  type EdgeHandler,
  type EdgeRequest,
  encryptWeComReply,
  enrollmentRoutes,
  sanitiseDiscordInteraction,
  tenantResolverFromRegistry,
  verifyDiscordInteraction,
  verifyTwilioWebhook,
  verifyWeComCallback,
} from '@agentwire/relay/edge';
import {
  InMemoryEnrollmentTokenStore,
  InMemoryGatewaySecretStore,
  InMemoryMediaStore,
  InMemoryPolicyStore,
  InMemoryProvisionRegistry,
} from '@agentwire/relay/testing';
import type {
  EdgeConnectorUnderTest,
  EdgeHandoff,
  EdgeHttpRequest,
  EdgeHttpResponse,
  EdgeWebhookEdgeUnderTest,
  EdgeWebhookRequest,
  EdgeWebhookWorld,
  EdgeWorld,
  RelayEdgeImplementation,
} from './edge-implementation.js';

/** The `code` of an error, when it has a string one. */
function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function edgeRequest(request: EdgeWebhookRequest): EdgeRequest {
  const headers = new Headers();
  for (const [name, value] of request.headers) headers.append(name, value);
  return { method: request.method, url: request.url, headers, body: request.body };
}

/** A connector's side channels on in-memory stores, set up in `world`, its clock fixed at `world.now`. */
async function agentwireConnector(world: EdgeWorld): Promise<EdgeConnectorUnderTest> {
  const now = () => world.now * 1000;
  const secrets = new InMemoryGatewaySecretStore({ now });
  for (const { gatewayId, tenant } of world.gateways) await secrets.create(gatewayId, tenant);
  const enrollmentTokens = new InMemoryEnrollmentTokenStore({ now });
  const issued = new Map<string, string>();
  for (const { name, tenant, ttlSeconds } of world.enrollmentTokens) {
    issued.set(name, await enrollmentTokens.issue({ tenant, ttlMs: ttlSeconds * 1000 }));
  }
  const media = createMediaHandler({
    authenticate: authenticatorFor(secrets),
    store: new InMemoryMediaStore(),
    now,
  });
  const router = createEdgeRouter({
    ...enrollmentRoutes({
      verifyIdentity: async (token) => world.identities[token] ?? null,
      enrollmentTokens,
      secrets,
      registry: new InMemoryProvisionRegistry(),
      policies: new InMemoryPolicyStore(),
      now,
    }),
    '/relay/media': media,
    '/relay/media/*': media,
  });
  return {
    handle: async (request) => fromResponse(await router(toRequest(request))),
    enrollmentToken: (name) => issued.get(name) ?? `no-enrollment-token-named-${name}`,
    channelToken: async (gatewayId, { issuedAt, ttlSeconds }) => {
      const secret = (await secrets.get(gatewayId))?.secrets[0] ?? 'unknown-gateway';
      return mintRelayToken(gatewayId, secret, { ttlSeconds, now: issuedAt });
    },
    close: () => secrets.close(),
  };
}

/** The options every passthrough handler takes that a webhook world sets. */
type CommonHandlerOptions = Pick<DiscordEdgeHandlerOptions, 'tenantOf' | 'server' | 'profileOf' | 'now'>;

/**
 * An edge handler of @agentwire/relay/edge set up in `world`: its relay records the bindings and
 * forwards it is handed, storing each at once; tenants come from the world's routes (as a provision
 * registry answering them) and profiles from its table; the
 * clock is fixed at `world.now`; every other option is left at its default.
 */
function webhookEdge(
  world: EdgeWebhookWorld,
  create: (common: CommonHandlerOptions) => EdgeHandler,
): EdgeWebhookEdgeUnderTest {
  const handoffs: EdgeHandoff[] = [];
  const server: CommonHandlerOptions['server'] = {
    forwardPassthrough: async (tenant, forward) => {
      const { platform = '', botId = '', method = '', path = '', headers = [], bodyB64 = '' } = forward;
      handoffs.push({
        type: 'forward',
        tenant,
        platform,
        botId,
        method,
        path,
        headers,
        bodyB64,
        ...(forward.profile !== undefined && { profile: forward.profile }),
      });
      return { bufferId: String(handoffs.length) };
    },
    bindCapability: async (binding) => {
      handoffs.push({
        type: 'bind',
        tenant: binding.tenant,
        sessionKey: binding.session_key,
        kind: binding.kind,
        credential: binding.credential,
        ...(binding.ttl_ms !== undefined && { ttlSeconds: binding.ttl_ms / 1000 }),
      });
    },
  };
  const handler = create({
    tenantOf: tenantResolverFromRegistry({
      route: async (platform, routeKey) => {
        const tenant = world.routes.find(([p, key]) => p === platform && key === routeKey)?.[2];
        return tenant === undefined ? null : { tenant, gatewayId: `gw-${tenant}` };
      },
    }),
    profileOf: (tenant) => world.profiles[tenant] ?? null,
    server,
    now: () => world.now * 1000,
  });
  return {
    handle: async (request) => fromResponse(await handler(toWebRequest(request))),
    handoffs: () => handoffs,
  };
}

function toWebRequest(request: EdgeWebhookRequest): Request {
  const headers = new Headers();
  for (const [name, value] of request.headers) headers.append(name, value);
  const carriesBody = request.method !== 'GET' && request.method !== 'HEAD';
  return new Request(request.url, {
    method: request.method,
    headers,
    ...(carriesBody && { body: request.body as Uint8Array<ArrayBuffer> }),
  });
}

function toRequest(request: EdgeHttpRequest): Request {
  const headers = new Headers();
  for (const [name, value] of request.headers) headers.append(name, value);
  const carriesBody = request.body !== undefined && request.method !== 'GET' && request.method !== 'HEAD';
  return new Request(`http://connector.test${request.path}`, {
    method: request.method,
    headers,
    ...(carriesBody && { body: request.body as Uint8Array<ArrayBuffer> }),
  });
}

async function fromResponse(response: Response): Promise<EdgeHttpResponse> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { status: response.status, headers, body: new Uint8Array(await response.arrayBuffer()) };
}

/** Every part of @agentwire/relay/edge, so that no edge case is skipped. */
export const agentwireRelayEdge: RelayEdgeImplementation = {
  verifyDiscord: (request, { publicKey, now, maxSkewSeconds }) => {
    const { interaction, timestamp } = verifyDiscordInteraction(edgeRequest(request), {
      publicKey,
      now,
      ...(maxSkewSeconds !== undefined && { maxSkewSeconds }),
    });
    return { interaction, timestamp };
  },
  verifyTwilio: (request, { authToken }) => {
    const hook = verifyTwilioWebhook(edgeRequest(request), { authToken });
    return hook.kind === 'form'
      ? { kind: 'form', params: hook.params, signed_url: hook.signedUrl }
      : { kind: hook.kind, json: hook.json, signed_url: hook.signedUrl };
  },
  verifyWeCom: (request, { token, encodingAesKey, corpId, now, maxSkewSeconds }) => {
    const callback = verifyWeComCallback(edgeRequest(request), {
      token,
      encodingAesKey,
      corpId,
      now,
      ...(maxSkewSeconds !== undefined && { maxSkewSeconds }),
    });
    const { kind, timestamp, nonce } = callback;
    return callback.kind === 'url_verification'
      ? { kind, echo: callback.echo, timestamp, nonce }
      : { kind, message: callback.message, timestamp, nonce };
  },
  encryptWeComReply: (message, options) => {
    const reply = encryptWeComReply(message, options);
    return {
      encrypt: reply.encrypt,
      msg_signature: reply.msgSignature,
      timestamp: reply.timestamp,
      nonce: reply.nonce,
      xml: reply.xml,
    };
  },
  connector: agentwireConnector,
  sanitiseDiscordInteraction: (body, { tenant, profile }) => {
    const { forwardedBody, bindings } = sanitiseDiscordInteraction(body, {
      tenant,
      ...(profile !== undefined && { profile }),
    });
    return {
      forwardedBody,
      bindings: bindings.map((binding) => ({
        tenant: binding.tenant,
        sessionKey: binding.session_key,
        credential: binding.credential,
      })),
    };
  },
  discordWebhookEdge: (world) =>
    webhookEdge(world, (common) =>
      createDiscordEdgeHandler({ ...common, publicKey: world.discordPublicKey }),
    ),
  twilioWebhookEdge: (world) =>
    webhookEdge(world, (common) => createTwilioEdgeHandler({ ...common, authToken: world.twilioAuthToken })),
  weComWebhookEdge: (world) =>
    webhookEdge(world, (common) => createWeComEdgeHandler({ ...common, ...world.wecom })),
  errorCode,
  edgeErrorBodies: true,
};
