// Shared by this folder's tests (not exported): a connector's enrollment endpoints on in-memory
// stores with one clock, and requests shaped as the gateway sends them.
import { InMemoryGatewaySecretStore } from '../secrets.js';
import { type CallerIdentity, enrollmentRoutes } from './enrollment.js';
import {
  InMemoryEnrollmentTokenStore,
  InMemoryPolicyStore,
  InMemoryProvisionRegistry,
} from './enrollment-stores.js';
import { createEdgeRouter } from './http.js';

/** Identity tokens the test verifier knows. */
export const IDENTITIES: Readonly<Record<string, CallerIdentity>> = {
  'portal-token-a': { subject: 'alice', tenant: 'tenant-a' },
  'portal-token-b': { subject: 'bob', tenant: 'tenant-b' },
};

export const START_MS = 1_750_000_000_000;

/** A connector's endpoints (behind the edge router) and stores, on a clock the test moves. */
export function connectorEdge() {
  const clock = { ms: START_MS };
  const now = () => clock.ms;
  const errors: unknown[] = [];
  const secrets = new InMemoryGatewaySecretStore({ now });
  const enrollmentTokens = new InMemoryEnrollmentTokenStore({ now });
  const registry = new InMemoryProvisionRegistry();
  const policies = new InMemoryPolicyStore();
  const handle = createEdgeRouter(
    enrollmentRoutes({
      verifyIdentity: async (token) => IDENTITIES[token] ?? null,
      enrollmentTokens,
      secrets,
      registry,
      policies,
      now,
      onError: (error) => errors.push(error),
    }),
  );
  return { clock, now, errors, secrets, enrollmentTokens, registry, policies, handle };
}

/** A POST of `body` (JSON unless a string) to `path` with an optional bearer token. */
export function post(path: string, body: unknown, bearer?: string): Request {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (bearer !== undefined) headers['authorization'] = `Bearer ${bearer}`;
  return new Request(`http://connector.test${path}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The status and JSON body of a response. */
export async function read(response: Response): Promise<{ status: number; body: Record<string, unknown> }> {
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A provision body as the gateway sends it (optional keys only when given). */
export function provisionBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    gatewayId: 'gw-host-1',
    platform: 'discord',
    botId: 'app-1',
    gatewayEndpoint: '',
    routeKeys: ['guild-1'],
    ...overrides,
  };
}
