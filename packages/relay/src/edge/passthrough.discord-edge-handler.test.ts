import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InMemoryProvisionRegistry } from './enrollment-stores.js';
import { createEdgeRouter } from './http.js';
import {
  createDiscordEdgeHandler,
  type DiscordEdgeHandlerOptions,
  tenantResolverFromRegistry,
} from './passthrough.js';
import { forwardedText, RecordingRelay, tableResolver } from './passthrough.test-support.js';

const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const PUBLIC_KEY = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url').toString('hex');
const NOW_MS = 1_779_782_400_000;
const URL_ = 'https://edge.example.com/discord/interactions?v=1';

function signedRequest(
  body: string,
  init: { tamper?: boolean; headers?: Record<string, string> } = {},
): Request {
  const timestamp = String(NOW_MS / 1000 - 2);
  const signature = sign(null, Buffer.concat([Buffer.from(timestamp), Buffer.from(body)]), privateKey);
  if (init.tamper) signature[0]! ^= 1;
  return new Request(URL_, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Discord-Interactions/1.0 (+https://discord.com)',
      'x-signature-ed25519': signature.toString('hex'),
      'x-signature-timestamp': timestamp,
      cookie: 'session=1',
      ...init.headers,
    },
    body,
  });
}

function setup(overrides: Partial<DiscordEdgeHandlerOptions> = {}) {
  const relay = new RecordingRelay();
  const { resolver, lookups } = tableResolver({ 'discord:G1': 'tenant-a', 'discord:U7': 'tenant-dm' });
  const handler = createDiscordEdgeHandler({
    publicKey: PUBLIC_KEY,
    tenantOf: resolver,
    server: relay,
    now: () => NOW_MS,
    ...overrides,
  });
  return { relay, lookups, handler };
}

const COMMAND =
  '{"type":2,"id":"I1","application_id":"APP1","token":"tok-secret","guild_id":"G1","channel_id":"C1",' +
  '"member":{"user":{"id":"U1","username":"ann"}},"data":{"name":"ask"}}';

describe('createDiscordEdgeHandler', () => {
  it('answers a PING with a PONG at the edge and forwards nothing', async () => {
    const { relay, lookups, handler } = setup();
    const response = await handler(signedRequest('{"type":1,"id":"p","token":"t"}'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.text()).toBe('{"type":1}');
    expect(relay.calls).toEqual([]);
    expect(lookups).toEqual([]);
  });

  it('binds the token, buffers the sanitised forward and answers a command with type 5', async () => {
    const { relay, lookups, handler } = setup();
    const response = await handler(signedRequest(COMMAND));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ type: 5 });
    expect(lookups).toEqual(['discord:G1']);
    // Bindings first, so a fast follow_up always finds the token.
    expect(relay.calls.map((call) => ('bind' in call ? 'bind' : 'forward'))).toEqual([
      'bind',
      'bind',
      'forward',
    ]);
    expect(relay.bindings.map((b) => [b.tenant, b.session_key, b.kind, b.credential])).toEqual([
      ['tenant-a', 'agent:main:relay:channel:C1:U1', 'discord.interaction_token', 'tok-secret'],
      ['tenant-a', 'agent:main:discord:group:C1:U1', 'discord.interaction_token', 'tok-secret'],
    ]);
    const [{ tenant, forward }] = relay.forwards as [(typeof relay.forwards)[0]];
    expect(tenant).toBe('tenant-a');
    expect(forward).toEqual({
      platform: 'discord',
      botId: 'APP1',
      method: 'POST',
      path: '/discord/interactions?v=1',
      headers: [
        ['content-type', 'application/json'],
        ['user-agent', 'Discord-Interactions/1.0 (+https://discord.com)'],
      ],
      bodyB64: Buffer.from(COMMAND.replace('"token":"tok-secret",', '')).toString('base64'),
    });
    expect(forwardedText(forward)).not.toContain('tok-secret');
  });

  it('answers a component interaction with type 6 and an autocomplete with no choices', async () => {
    const { relay, handler } = setup();
    const component = await handler(
      signedRequest('{"type":3,"token":"t","guild_id":"G1","channel_id":"C1","data":{"custom_id":"x"}}'),
    );
    expect(await component.json()).toEqual({ type: 6 });
    expect(relay.forwards).toHaveLength(1);
    const autocomplete = await handler(signedRequest('{"type":4,"token":"t","guild_id":"G1"}'));
    expect(await autocomplete.json()).toEqual({ type: 8, data: { choices: [] } });
    expect(relay.forwards).toHaveLength(1);
  });

  it('routes a DM by its channel, then its user; the botId and profile options are used', async () => {
    const { relay, lookups, handler } = setup({ botId: 'bot-x', profileOf: (tenant) => `${tenant}-profile` });
    const dm = '{"type":2,"token":"t","channel_id":"D1","user":{"id":"U7"},"data":{"name":"hi"}}';
    expect((await handler(signedRequest(dm))).status).toBe(200);
    expect(lookups).toEqual(['discord:D1', 'discord:U7']);
    const [{ tenant, forward }] = relay.forwards as [(typeof relay.forwards)[0]];
    expect([tenant, forward.botId, forward.profile]).toEqual(['tenant-dm', 'bot-x', 'tenant-dm-profile']);
    expect(relay.bindings.map((b) => b.session_key)).toEqual([
      'agent:main:relay:dm:D1',
      'agent:main:discord:dm:D1',
      'agent:tenant-dm-profile:discord:dm:D1',
    ]);
  });

  it('refuses a tampered signature, a stale timestamp and an unsigned request with 401', async () => {
    const { relay, handler } = setup();
    const tampered = await handler(signedRequest(COMMAND, { tamper: true }));
    expect(tampered.status).toBe(401);
    expect(await tampered.json()).toEqual({
      error: 'unauthorized',
      message: 'the request is not a verified Discord webhook',
    });
    const stale = setup({ now: () => NOW_MS + 3_600_000 });
    expect((await stale.handler(signedRequest(COMMAND))).status).toBe(401);
    const unsigned = new Request(URL_, { method: 'POST', body: COMMAND });
    expect((await handler(unsigned)).status).toBe(401);
    expect(relay.calls).toEqual([]);
  });

  it('answers an unprovisioned guild with 404 unknown_tenant, binding and forwarding nothing', async () => {
    const { relay, handler } = setup();
    const response = await handler(signedRequest(COMMAND.replace('"G1"', '"G2"')));
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'unknown_tenant' });
    expect(relay.calls).toEqual([]);
  });

  it('resolves tenants from the provision registry', async () => {
    const registry = new InMemoryProvisionRegistry();
    await registry.register({
      tenant: 'tenant-r',
      subject: 's',
      gatewayId: 'gw',
      platform: 'discord',
      botId: 'APP1',
      gatewayEndpoint: '',
      routeKeys: ['G1'],
    });
    const { relay, handler } = setup({ tenantOf: tenantResolverFromRegistry(registry) });
    expect((await handler(signedRequest(COMMAND))).status).toBe(200);
    expect(relay.forwards[0]?.tenant).toBe('tenant-r');
  });

  it('answers other methods 405, big bodies 413 and unsanitisable payloads 400', async () => {
    const { handler } = setup({ maxBodyBytes: 64 });
    expect((await handler(new Request(URL_))).status).toBe(405);
    expect((await handler(signedRequest(COMMAND))).status).toBe(413);
    const wide = setup();
    const badId = '{"type":2,"token":"t","guild_id":"G1","channel_id":["C"]}';
    const response = await wide.handler(signedRequest(badId));
    expect(response.status).toBe(400);
    expect(wide.relay.calls).toEqual([]);
  });

  it('rejects when storing fails in time, and answers anyway when storing is slow', async () => {
    const failing = setup();
    failing.relay.gate = Promise.reject(new Error('redis down'));
    failing.relay.gate.catch(() => undefined);
    await expect(failing.handler(signedRequest(COMMAND))).rejects.toThrow('redis down');
    const routed = createEdgeRouter({ '/discord/interactions': failing.handler });
    expect((await routed(signedRequest(COMMAND))).status).toBe(500);

    const errors: unknown[] = [];
    const slow = setup({ handoffTimeoutMs: 20, onError: (error) => errors.push(error) });
    let release: (error: Error) => void = () => undefined;
    slow.relay.gate = new Promise((_, reject) => {
      release = reject;
    });
    const response = await slow.handler(signedRequest(COMMAND));
    expect(await response.json()).toEqual({ type: 5 });
    release(new Error('late failure'));
    await expect.poll(() => errors.length).toBe(1);
    expect((errors[0] as Error).message).toBe('late failure');
  });

  it('refuses unusable options when it is created', () => {
    const base = { publicKey: PUBLIC_KEY, tenantOf: () => null, server: new RecordingRelay() };
    expect(() => createDiscordEdgeHandler({ ...base, publicKey: 'abc' })).toThrow(
      expect.objectContaining({ code: 'edge_passthrough_invalid_argument' }),
    );
    expect(() => createDiscordEdgeHandler({ ...base, server: {} as RecordingRelay })).toThrow(
      expect.objectContaining({ code: 'edge_passthrough_invalid_argument' }),
    );
    expect(() => createDiscordEdgeHandler({ ...base, tenantOf: 'x' as never })).toThrow(
      expect.objectContaining({ code: 'edge_passthrough_invalid_argument' }),
    );
    expect(() => createDiscordEdgeHandler({ ...base, dialects: [] })).toThrow(
      expect.objectContaining({ code: 'edge_passthrough_invalid_argument' }),
    );
    expect(() => createDiscordEdgeHandler({ ...base, handoffTimeoutMs: 0 })).toThrow(
      expect.objectContaining({ code: 'edge_passthrough_invalid_argument' }),
    );
  });
});
