import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticatorFor } from '@agentwire/relay';
import {
  createEdgeRouter,
  createMediaHandler,
  type EdgeHandler,
  enrollmentRoutes,
  jsonResponse,
  toNodeListener,
} from '@agentwire/relay/edge';
import {
  InMemoryEnrollmentTokenStore,
  InMemoryGatewaySecretStore,
  InMemoryMediaStore,
  InMemoryPolicyStore,
  InMemoryProvisionRegistry,
} from '@agentwire/relay/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { runSuite } from '../../run-suite.js';
import { nodeDeclaredLengthProbe } from './node-declared-length-probe.js';
import { relayEdgeLiveSuite } from './relay-edge-live-suite.js';

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Our side channels on a loopback server; `wrap` may break one route. */
async function connector(
  wrap: (routes: Record<string, EdgeHandler>) => Record<string, EdgeHandler> = (r) => r,
) {
  const secrets = new InMemoryGatewaySecretStore();
  const {
    secrets: [secret = ''],
  } = await secrets.create('gw-live', 'tenant-a');
  const enrollmentTokens = new InMemoryEnrollmentTokenStore();
  const enrollmentToken = await enrollmentTokens.issue({ tenant: 'tenant-a', ttlMs: 60_000 });
  const store = new InMemoryMediaStore();
  const media = createMediaHandler({ authenticate: authenticatorFor(secrets), store });
  const routes = wrap({
    ...enrollmentRoutes({
      verifyIdentity: async (token) =>
        token === 'portal-a' ? { subject: 'alice', tenant: 'tenant-a' } : null,
      enrollmentTokens,
      secrets,
      registry: new InMemoryProvisionRegistry(),
      policies: new InMemoryPolicyStore(),
    }),
    '/relay/media': media,
    '/relay/media/*': media,
  });
  const server = createServer(toNodeListener(createEdgeRouter(routes)));
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    options: {
      baseUrl,
      gatewayId: 'gw-live',
      secret,
      identityToken: 'portal-a',
      enrollmentToken,
      declaredLengthProbe: nodeDeclaredLengthProbe(),
    },
    store,
  };
}

async function failedIds(options: Parameters<typeof relayEdgeLiveSuite>[0]): Promise<string[]> {
  const report = await runSuite(relayEdgeLiveSuite(options));
  return report.results.filter((r) => r.status === 'failed').map((r) => r.id);
}

describe('relayEdgeLiveSuite', () => {
  it('passes every case against our side channels on a loopback server', async () => {
    const { options } = await connector();
    const report = await runSuite(relayEdgeLiveSuite(options));
    expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
    expect(report.counts.passed).toBe(12);
  });

  it('skips the provision, enroll and 413 checks without their options', async () => {
    const { options } = await connector();
    const { identityToken: _i, enrollmentToken: _e, declaredLengthProbe: _p, ...bare } = options;
    const report = await runSuite(relayEdgeLiveSuite(bare));
    expect(report.ok).toBe(true);
    expect(report.results.filter((r) => r.status === 'skipped').map((r) => r.id)).toEqual([
      'relay.edge-live.media.refuses-declared-oversize',
      'relay.edge-live.provision.issues-credentials',
      'relay.edge-live.provision.refuses-anonymous',
      'relay.edge-live.enroll.issues-credentials',
      'relay.edge-live.enroll.refuses-reused-token',
    ]);
  });

  it('fails exactly the unauthenticated-upload case of a media endpoint that accepts anonymous uploads', async () => {
    const { options } = await connector((routes) => {
      const media = routes['/relay/media'] as EdgeHandler;
      const anonymousUploads: EdgeHandler = async (request) =>
        request.method === 'POST' && !request.headers.has('authorization')
          ? jsonResponse(200, { id: 'anonymous', size: (await request.arrayBuffer()).byteLength })
          : media(request);
      return { ...routes, '/relay/media': anonymousUploads };
    });
    expect(await failedIds(options)).toEqual(['relay.edge-live.media.refuses-unauthenticated-upload']);
  });

  it('fails the provision cases of a connector that answers provision without an identity, or a new secret each time', async () => {
    const { options } = await connector((routes) => {
      const provision = routes['POST /relay/provision'] as EdgeHandler;
      let calls = 0;
      const careless: EdgeHandler = async (request) => {
        calls += 1;
        if (!request.headers.has('authorization') || calls === 2) {
          return jsonResponse(200, {
            secret: `s-${calls}`,
            deliveryKey: 'k',
            tenant: 't',
            gatewayId: 'g',
            routeKeys: [],
          });
        }
        return provision(request);
      };
      return { ...routes, 'POST /relay/provision': careless };
    });
    expect(await failedIds(options)).toEqual([
      'relay.edge-live.provision.issues-credentials',
      'relay.edge-live.provision.refuses-anonymous',
    ]);
  });

  it('fails exactly the forged-token case of a policy endpoint that only checks the token is there', async () => {
    const { options } = await connector((routes) => ({
      ...routes,
      'POST /relay/policy': async (request) =>
        request.headers.has('authorization')
          ? jsonResponse(200, {})
          : jsonResponse(401, { error: 'unauthorized', message: 'no token' }),
    }));
    expect(await failedIds(options)).toEqual(['relay.edge-live.policy.refuses-forged-token']);
  });

  it('fails a connector whose enrollment tokens can be reused, and a media plane without a size limit', async () => {
    const { options } = await connector((routes) => {
      const enroll = routes['POST /relay/enroll'] as EdgeHandler;
      let first: Response | undefined;
      const reusable: EdgeHandler = async (request) => {
        if (first !== undefined) return first.clone();
        first = await enroll(request);
        return first.clone();
      };
      return { ...routes, 'POST /relay/enroll': reusable };
    });
    const probeIgnoringLimit = async () => 200;
    expect(await failedIds({ ...options, declaredLengthProbe: probeIgnoringLimit })).toEqual([
      'relay.edge-live.media.refuses-declared-oversize',
      'relay.edge-live.enroll.refuses-reused-token',
    ]);
  });

  it('refuses unusable options', () => {
    const options = { baseUrl: 'ftp://example.com', gatewayId: 'gw', secret: 's' };
    expect(() => relayEdgeLiveSuite(options)).toThrow(
      expect.objectContaining({ code: 'invalid_relay_edge_live_options' }),
    );
    expect(() => relayEdgeLiveSuite({ ...options, baseUrl: 'http://example.com', secret: '' })).toThrow(
      expect.objectContaining({ code: 'invalid_relay_edge_live_options' }),
    );
  });
});
