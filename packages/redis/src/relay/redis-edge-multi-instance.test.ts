// Two connector instances, each with its own HTTP edge (`/relay/enroll`, `/relay/provision`,
// `/relay/policy`) and relay server, sharing one real Redis through their own connections: what a
// gateway does through one instance's side channels holds on the other.

import { createServer, type Server } from 'node:http';
import { authenticatorFor, mintRelayToken } from '@agentwire/relay';
import { WebSocketRelayTransport } from '@agentwire/relay/client';
import {
  type CallerIdentity,
  createEdgeRouter,
  enrollmentRoutes,
  tenantResolverFromRegistry,
  toNodeListener,
} from '@agentwire/relay/edge';
import { createRelayServer, type PlatformAdapter, type RelayServer } from '@agentwire/relay/server';
import { describe, expect, it } from 'vitest';
import { useRedisFixture } from '../../test/redis-fixture.js';
import { RedisCapabilityVault } from './redis-capability-vault.js';
import { RedisEnrollmentTokenStore, RedisPolicyStore, RedisProvisionRegistry } from './redis-edge-stores.js';
import { RedisGatewaySecretStore } from './redis-gateway-secret-store.js';
import { RedisInboundBuffer } from './redis-inbound-buffer.js';
import { RedisRelayBus } from './redis-relay-bus.js';

const TENANT = 'tenant:alpha';
/** Identity bearer tokens the instances' verifier knows (a portal's introspection in production). */
const IDENTITIES: Readonly<Record<string, CallerIdentity>> = {
  'portal-token-alpha': { subject: 'alice', tenant: TENANT },
  'portal-token-beta': { subject: 'bob', tenant: 'tenant:beta' },
};

const adapter: PlatformAdapter = {
  descriptor: {
    platform: 'discord',
    label: 'Discord',
    max_message_length: 2000,
    supports_draft_streaming: false,
    supports_edit: true,
    supports_threads: true,
    markdown_dialect: 'discord',
    len_unit: 'chars',
  },
  send: () => ({ success: true, message_id: 'M1' }),
};

const fixture = useRedisFixture('edge-stores');

interface Instance {
  readonly relay: RelayServer;
  /** `http://127.0.0.1:<port>` of the instance's HTTP server (edge and WebSocket upgrade). */
  readonly origin: string;
  readonly enrollmentTokens: RedisEnrollmentTokenStore;
  readonly registry: RedisProvisionRegistry;
  readonly policies: RedisPolicyStore;
}

/** One connector instance: its own Redis connections under the shared prefix, edge and relay on one port. */
async function startInstance(instanceId: string, keyPrefix: string): Promise<Instance> {
  const connection = { redis: { host: fixture.server.host, port: fixture.server.port }, keyPrefix };
  const stores = {
    secrets: new RedisGatewaySecretStore(connection),
    enrollmentTokens: new RedisEnrollmentTokenStore(connection),
    registry: new RedisProvisionRegistry(connection),
    policies: new RedisPolicyStore(connection),
    bus: new RedisRelayBus(connection),
    buffer: new RedisInboundBuffer(connection),
    vault: new RedisCapabilityVault(connection),
  };
  fixture.defer(async () => {
    await Promise.all(Object.values(stores).map((store) => store.close()));
  });
  const { secrets, enrollmentTokens, registry, policies, bus, buffer, vault } = stores;
  const routes = enrollmentRoutes({
    verifyIdentity: async (token) => IDENTITIES[token] ?? null,
    enrollmentTokens,
    secrets,
    registry,
    policies,
  });
  const http: Server = createServer(toNodeListener(createEdgeRouter(routes)));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  fixture.defer(
    () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  );
  const relay = await createRelayServer({
    server: http,
    instanceId,
    authenticate: authenticatorFor(secrets),
    platforms: { discord: adapter },
    bus,
    buffer,
    vault,
    pingIntervalMs: 0,
  });
  fixture.defer(() => relay.close());
  const address = http.address();
  if (address === null || typeof address === 'string') throw new Error('the instance is not on a TCP port');
  return { relay, origin: `http://127.0.0.1:${address.port}`, enrollmentTokens, registry, policies };
}

async function startPair(): Promise<[Instance, Instance]> {
  const prefix = fixture.prefix();
  return [await startInstance('instance-a', prefix), await startInstance('instance-b', prefix)];
}

async function post(
  instance: Instance,
  path: string,
  body: unknown,
  bearer: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${instance.origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('the edge side channels across two instances on one Redis', () => {
  it('enrolls on A with a token issued on B, once; the gateway then connects to B with its secret', async () => {
    const [a, b] = await startPair();
    const token = await b.enrollmentTokens.issue({ tenant: TENANT, ttlMs: 60_000 });
    const enrolled = await post(
      a,
      '/relay/enroll',
      { enrollmentToken: token, gatewayId: 'gw-1' },
      'portal-token-alpha',
    );
    expect(enrolled).toMatchObject({ status: 200, body: { tenant: TENANT, gatewayId: 'gw-1' } });
    expect(
      await post(b, '/relay/enroll', { enrollmentToken: token, gatewayId: 'gw-2' }, 'portal-token-alpha'),
    ).toEqual({
      status: 403,
      body: { error: 'enrollment_token_rejected', message: 'the enrollment token was already used' },
    });

    const gateway = new WebSocketRelayTransport({
      url: b.origin,
      gatewayId: 'gw-1',
      secret: enrolled.body['secret'] as string,
      identities: [{ platform: 'discord', botId: 'APP1' }],
      reconnect: false,
      pingIntervalMs: 0,
    });
    fixture.defer(() => gateway.disconnect());
    await gateway.connect();
    await gateway.handshake();
    expect(b.relay.connections.map((connection) => connection.gatewayId)).toEqual(['gw-1']);
  });

  it('lets exactly one of two enrollments racing with one token on A and B succeed', async () => {
    const [a, b] = await startPair();
    for (let round = 0; round < 3; round += 1) {
      const token = await a.enrollmentTokens.issue({ tenant: TENANT, ttlMs: 60_000 });
      const statuses = await Promise.all(
        [a, b].map(async (instance, i) => {
          const body = { enrollmentToken: token, gatewayId: `gw-${round}-${i}` };
          return (await post(instance, '/relay/enroll', body, 'portal-token-alpha')).status;
        }),
      );
      expect(statuses.sort()).toEqual([200, 403]);
    }
  });

  it('provisions on A; the route resolves on B, where another tenant cannot take the key', async () => {
    const [a, b] = await startPair();
    const body = {
      gatewayId: 'gw-1',
      platform: 'discord',
      botId: 'APP1',
      gatewayEndpoint: '',
      routeKeys: ['G100'],
    };
    const provisioned = await post(a, '/relay/provision', body, 'portal-token-alpha');
    expect(provisioned).toMatchObject({ status: 200, body: { tenant: TENANT, routeKeys: ['G100'] } });
    expect(await b.registry.route('discord', 'G100')).toEqual({ tenant: TENANT, gatewayId: 'gw-1' });
    expect(await tenantResolverFromRegistry(b.registry)('discord', 'G100')).toBe(TENANT);
    expect(await b.registry.get('gw-1', 'discord')).toMatchObject({ subject: 'alice', botId: 'APP1' });

    const rival = await post(b, '/relay/provision', { ...body, gatewayId: 'gw-beta' }, 'portal-token-beta');
    expect(rival).toMatchObject({ status: 200, body: { tenant: 'tenant:beta', routeKeys: [] } });
    expect(await a.registry.route('discord', 'G100')).toEqual({ tenant: TENANT, gatewayId: 'gw-1' });
    // The gateway's next platform, provisioned through B, answers the credentials A created.
    const telegram = await post(
      b,
      '/relay/provision',
      { ...body, platform: 'telegram' },
      'portal-token-alpha',
    );
    expect(telegram.body['secret']).toBe(provisioned.body['secret']);
  });

  it('stores a policy posted to A, read through B', async () => {
    const [a, b] = await startPair();
    const provision = {
      gatewayId: 'gw-1',
      platform: 'discord',
      botId: '',
      gatewayEndpoint: '',
      routeKeys: [],
    };
    const { body } = await post(b, '/relay/provision', provision, 'portal-token-alpha');
    const channelToken = mintRelayToken('gw-1', body['secret'] as string);
    const policy = {
      platform: 'discord',
      requireAddress: true,
      freeResponseScopes: ['C100'],
      allowOtherBots: false,
    };
    expect(await post(a, '/relay/policy', policy, channelToken)).toEqual({ status: 200, body: {} });
    expect(await b.policies.get('gw-1', 'discord')).toEqual({ ...policy, tenant: TENANT, gatewayId: 'gw-1' });
  });
});
