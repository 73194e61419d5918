import { describe, expect, it } from 'vitest';
import { mintRelayToken } from '../auth.js';
import { InMemoryGatewaySecretStore } from '../secrets.js';
import { createEnrollHandler, enrollmentRoutes } from './enrollment.js';
import { connectorEdge, post, provisionBody, read } from './enrollment.test-support.js';
import {
  InMemoryEnrollmentTokenStore,
  InMemoryPolicyStore,
  InMemoryProvisionRegistry,
} from './enrollment-stores.js';

async function enroll(
  edge: ReturnType<typeof connectorEdge>,
  enrollmentToken: string,
  identity: string | undefined = 'portal-token-a',
  gatewayId = 'gw-host-1',
) {
  return read(await edge.handle(post('/relay/enroll', { enrollmentToken, gatewayId }, identity)));
}

describe('POST /relay/enroll', () => {
  it.each([
    ['no Authorization header', undefined],
    ['an identity token the verifier refuses', 'portal-token-unknown'],
  ])('answers 401 for %s, before reading the body or spending the token', async (_name, identity) => {
    const edge = connectorEdge();
    const token = await edge.enrollmentTokens.issue({ tenant: 'tenant-a', ttlMs: 60_000 });
    const response = await edge.handle(
      post('/relay/enroll', { enrollmentToken: token, gatewayId: 'gw' }, identity),
    );
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(await read(response)).toEqual({
      status: 401,
      body: { error: 'unauthorized', message: 'a valid bearer token is required' },
    });
    expect((await enroll(edge, token)).status).toBe(200);
  });

  it('answers 401 for an Authorization header that is not a bearer', async () => {
    const edge = connectorEdge();
    const request = new Request('http://connector.test/relay/enroll', {
      method: 'POST',
      headers: { authorization: 'Basic portal-token-a' },
      body: '{}',
    });
    expect((await edge.handle(request)).status).toBe(401);
  });

  it('answers 403 for a used token, without echoing it', async () => {
    const edge = connectorEdge();
    const token = await edge.enrollmentTokens.issue({ tenant: 'tenant-a', ttlMs: 60_000 });
    expect((await enroll(edge, token)).status).toBe(200);
    const again = await edge.handle(
      post('/relay/enroll', { enrollmentToken: token, gatewayId: 'gw-2' }, 'portal-token-a'),
    );
    const text = await again.text();
    expect(again.status).toBe(403);
    expect(JSON.parse(text)).toEqual({
      error: 'enrollment_token_rejected',
      message: 'the enrollment token was already used',
    });
    expect(text).not.toContain(token);
    expect(await edge.secrets.get('gw-2')).toBeNull();
  });

  it('answers 403 for an expired or unknown token', async () => {
    const edge = connectorEdge();
    const token = await edge.enrollmentTokens.issue({ tenant: 'tenant-a', ttlMs: 60_000 });
    edge.clock.ms += 60_000;
    expect(await enroll(edge, token)).toEqual({
      status: 403,
      body: { error: 'enrollment_token_rejected', message: 'the enrollment token has expired' },
    });
    expect(await enroll(edge, 'not-a-token-anyone-issued')).toMatchObject({
      status: 403,
      body: { message: 'the enrollment token is not valid' },
    });
    expect(await edge.secrets.get('gw-host-1')).toBeNull();
  });

  it("answers 403 for another tenant's token and leaves it redeemable by its own tenant", async () => {
    const edge = connectorEdge();
    const token = await edge.enrollmentTokens.issue({ tenant: 'tenant-b', ttlMs: 60_000 });
    expect(await enroll(edge, token, 'portal-token-a')).toMatchObject({
      status: 403,
      body: {
        error: 'enrollment_token_rejected',
        message: "the enrollment token was not issued to the caller's tenant",
      },
    });
    expect(await enroll(edge, token, 'portal-token-b')).toMatchObject({
      status: 200,
      body: { tenant: 'tenant-b' },
    });
  });

  it('answers 409 for a gateway id another tenant holds, and re-issues a gateway of the same tenant', async () => {
    const edge = connectorEdge();
    const first = await enroll(
      edge,
      await edge.enrollmentTokens.issue({ tenant: 'tenant-a', ttlMs: 60_000 }),
    );
    const stolen = await enroll(
      edge,
      await edge.enrollmentTokens.issue({ tenant: 'tenant-b', ttlMs: 60_000 }),
      'portal-token-b',
    );
    expect(stolen).toEqual({
      status: 409,
      body: { error: 'gateway_conflict', message: 'the gateway id belongs to another tenant' },
    });
    const again = await enroll(
      edge,
      await edge.enrollmentTokens.issue({ tenant: 'tenant-a', ttlMs: 60_000 }),
    );
    expect(again.body['secret']).not.toBe(first.body['secret']);
    expect((await edge.secrets.get('gw-host-1'))?.secrets).toEqual([again.body['secret']]);
  });

  it.each([
    ['a body that is not JSON', '{"enrollmentToken": ', 'invalid_json'],
    ['a body that is not UTF-8', new Uint8Array([0x7b, 0xff, 0x7d]), 'invalid_json'],
    ['a JSON array', '[]', 'invalid_body'],
    ['no gatewayId', JSON.stringify({ enrollmentToken: 'x' }), 'invalid_body'],
    ['an empty gatewayId', JSON.stringify({ enrollmentToken: 'x', gatewayId: '' }), 'invalid_body'],
    ['a numeric enrollmentToken', JSON.stringify({ enrollmentToken: 5, gatewayId: 'gw' }), 'invalid_body'],
  ])('answers 400 for %s', async (_name, body, code) => {
    const edge = connectorEdge();
    const request = new Request('http://connector.test/relay/enroll', {
      method: 'POST',
      headers: { authorization: 'Bearer portal-token-a' },
      body,
    });
    expect(await read(await edge.handle(request))).toMatchObject({ status: 400, body: { error: code } });
  });

  it('names the refused field without echoing a value', async () => {
    const edge = connectorEdge();
    const response = await read(
      await edge.handle(
        post('/relay/enroll', { enrollmentToken: ['secret-value'], gatewayId: 'gw' }, 'portal-token-a'),
      ),
    );
    expect(response.body['message']).toMatch(/^body\.enrollmentToken: /);
    expect(JSON.stringify(response.body)).not.toContain('secret-value');
  });

  it('answers 413 for a body over the limit and 405 for another method', async () => {
    const edge = connectorEdge();
    const huge = JSON.stringify({ enrollmentToken: 'x'.repeat(70_000), gatewayId: 'gw' });
    expect((await edge.handle(post('/relay/enroll', huge, 'portal-token-a'))).status).toBe(413);
    const get = await edge.handle(new Request('http://connector.test/relay/enroll'));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(await read(get)).toMatchObject({ body: { error: 'method_not_allowed' } });
  });

  it('answers 500 and reports to onError when the verifier throws or answers nonsense', async () => {
    const errors: unknown[] = [];
    const base = {
      enrollmentTokens: new InMemoryEnrollmentTokenStore(),
      secrets: new InMemoryGatewaySecretStore(),
      onError: (error: unknown) => errors.push(error),
    };
    const throwing = createEnrollHandler({
      ...base,
      verifyIdentity: async () => {
        throw new Error('portal down');
      },
    });
    const nonsense = createEnrollHandler({
      ...base,
      verifyIdentity: async () => ({ subject: 'x' }) as never,
    });
    for (const handler of [throwing, nonsense]) {
      expect(await read(await handler(post('/relay/enroll', {}, 'portal-token-a')))).toEqual({
        status: 500,
        body: { error: 'internal_error', message: 'internal error' },
      });
    }
    expect(errors).toEqual([
      expect.objectContaining({ message: 'portal down' }),
      expect.objectContaining({ code: 'enrollment_callback_failed' }),
    ]);
  });
});

describe('POST /relay/provision', () => {
  it('creates the gateway once and answers the same credentials for each platform', async () => {
    const edge = connectorEdge();
    const first = await read(await edge.handle(post('/relay/provision', provisionBody(), 'portal-token-a')));
    const second = await read(
      await edge.handle(
        post(
          '/relay/provision',
          provisionBody({ platform: 'telegram', routeKeys: ['chat-9', 'chat-9'] }),
          'portal-token-a',
        ),
      ),
    );
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ tenant: 'tenant-a', gatewayId: 'gw-host-1', routeKeys: ['guild-1'] });
    expect(second.body).toEqual({ ...first.body, routeKeys: ['chat-9'] });
    expect((await edge.secrets.get('gw-host-1'))?.secrets).toEqual([first.body['secret']]);
  });

  it('stores the registration with optional keys only when sent', async () => {
    const edge = connectorEdge();
    await edge.handle(post('/relay/provision', provisionBody(), 'portal-token-a'));
    expect(await edge.registry.get('gw-host-1', 'discord')).toEqual({
      tenant: 'tenant-a',
      subject: 'alice',
      gatewayId: 'gw-host-1',
      platform: 'discord',
      botId: 'app-1',
      gatewayEndpoint: '',
      routeKeys: ['guild-1'],
    });
    const full = { instanceId: 'i-1', wakeUrl: 'https://wake.example/gw', displayName: '🦊'.repeat(64) };
    expect((await edge.handle(post('/relay/provision', provisionBody(full), 'portal-token-a'))).status).toBe(
      200,
    );
    expect(await edge.registry.get('gw-host-1', 'discord')).toMatchObject(full);
  });

  it.each([
    ['a displayName of 65 characters', { displayName: 'x'.repeat(65) }, 'body.displayName'],
    ['a wakeUrl that is not http(s)', { wakeUrl: 'javascript:alert(1)' }, 'body.wakeUrl'],
    ['routeKeys that is not an array', { routeKeys: 'guild-1' }, 'body.routeKeys'],
    ['no gatewayEndpoint', { gatewayEndpoint: undefined }, 'body.gatewayEndpoint'],
  ])('answers 400 for %s', async (_name, overrides, field) => {
    const edge = connectorEdge();
    const response = await read(
      await edge.handle(post('/relay/provision', provisionBody(overrides), 'portal-token-a')),
    );
    expect(response).toMatchObject({ status: 400, body: { error: 'invalid_body' } });
    expect(response.body['message']).toMatch(new RegExp(`^${field.replace('.', '\\.')}: `));
    expect(await edge.secrets.get('gw-host-1')).toBeNull();
  });

  it('answers 401 without identity, 409 for another tenant, 403 for a revoked gateway', async () => {
    const edge = connectorEdge();
    expect((await edge.handle(post('/relay/provision', provisionBody()))).status).toBe(401);
    await edge.secrets.create('gw-host-1', 'tenant-b');
    expect(
      await read(await edge.handle(post('/relay/provision', provisionBody(), 'portal-token-a'))),
    ).toMatchObject({
      status: 409,
      body: { error: 'gateway_conflict' },
    });
    await edge.secrets.create('gw-host-2', 'tenant-a');
    await edge.secrets.revoke('gw-host-2');
    const revoked = await read(
      await edge.handle(
        post('/relay/provision', provisionBody({ gatewayId: 'gw-host-2' }), 'portal-token-a'),
      ),
    );
    expect(revoked).toMatchObject({ status: 403, body: { error: 'gateway_revoked' } });
    expect(await edge.registry.get('gw-host-2', 'discord')).toBeNull();
  });

  it('grants only route keys no other tenant holds', async () => {
    const edge = connectorEdge();
    await edge.handle(
      post(
        '/relay/provision',
        provisionBody({ gatewayId: 'gw-b', routeKeys: ['guild-1'] }),
        'portal-token-b',
      ),
    );
    const response = await read(
      await edge.handle(
        post('/relay/provision', provisionBody({ routeKeys: ['guild-1', 'guild-2'] }), 'portal-token-a'),
      ),
    );
    expect(response.body['routeKeys']).toEqual(['guild-2']);
    expect(await edge.registry.route('discord', 'guild-1')).toEqual({
      tenant: 'tenant-b',
      gatewayId: 'gw-b',
    });
  });
});

describe('POST /relay/policy', () => {
  async function tokenFor(
    edge: ReturnType<typeof connectorEdge>,
    ttlSeconds = 300,
    nowSeconds = edge.clock.ms / 1000,
  ) {
    const { secrets } =
      (await edge.secrets.get('gw-host-1')) ?? (await edge.secrets.create('gw-host-1', 'tenant-a'));
    return mintRelayToken('gw-host-1', secrets[0]!, { ttlSeconds, now: nowSeconds });
  }
  const policy = { platform: 'discord', requireAddress: false, freeResponseScopes: [], allowOtherBots: true };

  it('answers 401 expired for a validly signed token past its expiry', async () => {
    const edge = connectorEdge();
    const stale = await tokenFor(edge, 300, edge.clock.ms / 1000 - 301);
    const response = await edge.handle(post('/relay/policy', policy, stale));
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(await read(response)).toEqual({
      status: 401,
      body: { error: 'expired', message: 'the bearer token has expired' },
    });
    expect(await edge.policies.get('gw-host-1', 'discord')).toBeNull();
  });

  it.each([
    ['no token', undefined],
    ['a malformed token', 'not-a-token'],
    ['a forged token', mintRelayToken('gw-host-1', 'guessed-secret')],
    ['an unknown gateway', mintRelayToken('gw-unknown', 'any-secret')],
  ])('answers 401 unauthorized for %s', async (_name, bearer) => {
    const edge = connectorEdge();
    await edge.secrets.create('gw-host-1', 'tenant-a');
    expect(await read(await edge.handle(post('/relay/policy', policy, bearer)))).toMatchObject({
      status: 401,
      body: { error: 'unauthorized' },
    });
  });

  it('reads missing keys as their defaults, and replaces the earlier policy', async () => {
    const edge = connectorEdge();
    const token = await tokenFor(edge);
    await edge.handle(post('/relay/policy', policy, token));
    expect(
      (await edge.handle(post('/relay/policy', { platform: 'discord', requireAddress: true }, token))).status,
    ).toBe(200);
    expect(await edge.policies.get('gw-host-1', 'discord')).toEqual({
      platform: 'discord',
      requireAddress: true,
      freeResponseScopes: [],
      allowOtherBots: false,
      tenant: 'tenant-a',
      gatewayId: 'gw-host-1',
    });
  });

  it('answers 400 for a malformed policy and 405 for another method', async () => {
    const edge = connectorEdge();
    const token = await tokenFor(edge);
    expect(
      await read(await edge.handle(post('/relay/policy', { ...policy, requireAddress: 'yes' }, token))),
    ).toMatchObject({
      status: 400,
      body: { error: 'invalid_body' },
    });
    expect(
      (await edge.handle(new Request('http://connector.test/relay/policy', { method: 'PUT' }))).status,
    ).toBe(405);
  });
});

describe('enrollment handlers on their own', () => {
  const stores = () => ({
    verifyIdentity: async () => null,
    enrollmentTokens: new InMemoryEnrollmentTokenStore(),
    secrets: new InMemoryGatewaySecretStore(),
    registry: new InMemoryProvisionRegistry(),
    policies: new InMemoryPolicyStore(),
  });

  it('answer 405 with Allow: POST to another method, without a router', async () => {
    for (const handler of Object.values(enrollmentRoutes(stores()))) {
      const response = await handler(new Request('http://connector.test/relay/x', { method: 'GET' }));
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(await read(response)).toMatchObject({ body: { error: 'method_not_allowed' } });
    }
  });

  it.each([
    ['a missing secret store', { secrets: undefined }, 'options.secrets'],
    ['a verifier that is not a function', { verifyIdentity: 'portal' }, 'options.verifyIdentity'],
    ['a zero body limit', { maxBodyBytes: 0 }, 'options.maxBodyBytes'],
    ['a fractional skew', { tokenSkewSeconds: 1.5 }, 'options.tokenSkewSeconds'],
    ['a clock that is not a function', { now: 0 }, 'options.now'],
  ])('refuse %s', (_name, overrides, path) => {
    const create = () => enrollmentRoutes({ ...stores(), ...overrides } as never);
    expect(create).toThrow(expect.objectContaining({ code: 'invalid_enrollment_argument', path }));
  });
});
