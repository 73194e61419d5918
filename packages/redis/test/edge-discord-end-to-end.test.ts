// The passthrough plane end to end (issue #9): a signed Discord interaction reaches the edge of
// connector instance A, is answered there with a deferred response, and reaches the gateway whose
// socket is on instance B through one real Redis; the gateway answers through `follow_up` and the
// adapter on B wields the token it never saw. Another tenant's gateway gets nothing for the same key.

import { generateKeyPairSync, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, connect as tcpConnect } from 'node:net';
import { RedisCapabilityVault, RedisInboundBuffer, RedisRelayBus } from '@agentwire/redis/relay';
import { buildSessionKey, type PassthroughDelivery } from '@agentwire/relay';
import { WebSocketRelayTransport } from '@agentwire/relay/client';
// The edge has no package entry yet; this import moves to it once it has one.
import { createDiscordEdgeHandler, createEdgeRouter, toNodeListener } from '@agentwire/relay/edge';
import {
  createRelayServer,
  type FollowUpContext,
  type PlatformAdapter,
  type RelayServer,
} from '@agentwire/relay/server';
import { describe, expect, it } from 'vitest';
import { useRedisFixture } from './redis-fixture.js';

const TENANT_A = 'tenant:alpha';
const TENANT_B = 'tenant:beta';
const GATEWAYS: Readonly<Record<string, { tenant: string; secret: string }>> = {
  'gw-a': { tenant: TENANT_A, secret: 'secret-a' },
  'gw-b': { tenant: TENANT_B, secret: 'secret-b' },
};
const TOKEN = 'aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDpzZWNyZXQtdG9rZW4tdmFsdWUtZm9yLXRlc3Rz';
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const PUBLIC_KEY = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url').toString('hex');
const INTERACTION =
  `{"app_permissions":"2248473465835073","application_id":"APP1","channel_id":"C100","data":{"id":"CMD1",` +
  `"name":"ask","options":[{"name":"q","type":3,"value":"naïve ✓"}],"type":1},"guild_id":"G100","id":"I100",` +
  `"member":{"user":{"id":"U100","username":"ann"}},"token":"${TOKEN}","type":2,"version":1}`;

interface FollowUpCall {
  readonly sessionKey: string;
  readonly content: string;
  readonly context: FollowUpContext;
}

const fixture = useRedisFixture('edge');

function discordAdapter(followUps: FollowUpCall[]): PlatformAdapter {
  return {
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
    follow_up: (action, context) => {
      followUps.push({ sessionKey: action.session_key, content: action.content, context });
      return { success: true, message_id: 'M1' };
    },
  };
}

/** One connector instance on Redis under `keyPrefix`, attached to `server` when given. */
async function startInstance(
  instanceId: string,
  keyPrefix: string,
  followUps: FollowUpCall[],
  server?: Server,
): Promise<RelayServer> {
  const connection = { redis: { host: fixture.server.host, port: fixture.server.port }, keyPrefix };
  const stores = {
    bus: new RedisRelayBus(connection),
    buffer: new RedisInboundBuffer(connection),
    vault: new RedisCapabilityVault(connection),
  };
  // The server leaves stores it was given open: close them after it.
  fixture.defer(async () => {
    for (const store of Object.values(stores)) await store.close();
  });
  const relay = await createRelayServer({
    ...(server === undefined ? { port: 0 } : { server }),
    instanceId,
    authenticate: async (gatewayId) => {
      const gateway = GATEWAYS[gatewayId];
      return gateway === undefined ? null : { tenant: gateway.tenant, secrets: [gateway.secret] };
    },
    platforms: { discord: discordAdapter(followUps) },
    ...stores,
    pingIntervalMs: 0,
  });
  fixture.defer(() => relay.close());
  return relay;
}

/** A TCP hop in front of `port` that keeps every byte the connector sends to the gateway. */
async function recordingProxy(port: number): Promise<{ port: number; received: () => Buffer }> {
  const chunks: Buffer[] = [];
  const proxy: TcpServer = createTcpServer((client) => {
    const upstream = tcpConnect({ host: '127.0.0.1', port });
    upstream.on('data', (chunk: Buffer) => chunks.push(chunk));
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  fixture.defer(
    () =>
      new Promise<void>((resolve) => {
        proxy.close(() => resolve());
      }),
  );
  const address = proxy.address();
  if (address === null || typeof address === 'string') throw new Error('proxy is not on a TCP port');
  return { port: address.port, received: () => Buffer.concat(chunks) };
}

function gateway(gatewayId: string, port: number): WebSocketRelayTransport {
  const transport = new WebSocketRelayTransport({
    url: `http://127.0.0.1:${port}`,
    gatewayId,
    secret: GATEWAYS[gatewayId]!.secret,
    identities: [{ platform: 'discord', botId: 'APP1' }],
    reconnect: false,
    pingIntervalMs: 0,
  });
  fixture.defer(() => transport.disconnect());
  return transport;
}

/** An HTTP server on 127.0.0.1 serving the Discord edge; the relay of instance A attaches to it. */
async function edgeServer(): Promise<{ server: Server; mount: (relay: RelayServer) => void; url: string }> {
  let relay: RelayServer | undefined;
  const discord = createDiscordEdgeHandler({
    publicKey: PUBLIC_KEY,
    tenantOf: (platform, routeKey) => (platform === 'discord' && routeKey === 'G100' ? TENANT_A : null),
    server: {
      forwardPassthrough: (tenant, forward) => relay!.forwardPassthrough(tenant, forward),
      bindCapability: (binding) => relay!.bindCapability(binding),
    },
  });
  const server = createServer(toNodeListener(createEdgeRouter({ 'POST /discord/interactions': discord })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fixture.defer(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('edge is not on a TCP port');
  return {
    server,
    mount: (instance) => {
      relay = instance;
    },
    url: `http://127.0.0.1:${address.port}/discord/interactions`,
  };
}

function signedInteraction(url: string, body: string): Promise<Response> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = sign(null, Buffer.concat([Buffer.from(timestamp), Buffer.from(body)]), privateKey);
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Discord-Interactions/1.0 (+https://discord.com)',
      'x-signature-ed25519': signature.toString('hex'),
      'x-signature-timestamp': timestamp,
    },
    body,
  });
}

async function eventually(predicate: () => boolean, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * The frames of the connector's side of a WebSocket stream (after the 101 response; server frames
 * are unmasked), parsed as the relay's newline-delimited JSON.
 */
function connectorFrames(stream: Buffer): { readonly type?: unknown; readonly [key: string]: unknown }[] {
  let at = stream.indexOf('\r\n\r\n') + 4;
  let text = '';
  while (at + 2 <= stream.length) {
    const opcode = stream[at]! & 0x0f;
    let length = stream[at + 1]! & 0x7f;
    at += 2;
    if (length === 126) {
      length = stream.readUInt16BE(at);
      at += 2;
    } else if (length === 127) {
      length = Number(stream.readBigUInt64BE(at));
      at += 8;
    }
    if (opcode === 0x1 || opcode === 0x0 || opcode === 0x2)
      text += stream.subarray(at, at + length).toString('utf8');
    at += length;
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

/** Texts that appear in any base64 text (standard or URL-safe) holding `secret`, at each byte alignment. */
function base64Needles(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  return [0, 1, 2].flatMap((shift) => {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const stable = encoded.slice(Math.ceil((shift * 8) / 6), encoded.length - 4);
    return [stable, stable.replaceAll('+', '-').replaceAll('/', '_')];
  });
}

describe('the Discord passthrough plane across two instances on one Redis', () => {
  it('acks at the edge of A, forwards the token-free interaction to the gateway on B, and follow_up wields the token for that tenant only', async () => {
    const prefix = fixture.prefix();
    const followUps: FollowUpCall[] = [];
    const edge = await edgeServer();
    const a = await startInstance('instance-a', prefix, followUps, edge.server);
    edge.mount(a);
    const b = await startInstance('instance-b', prefix, followUps);

    const proxyA = await recordingProxy(b.port);
    const gatewayA = gateway('gw-a', proxyA.port);
    const deliveries: PassthroughDelivery[] = [];
    gatewayA.onPassthrough((delivery) => void deliveries.push(delivery));
    await gatewayA.connect();
    await gatewayA.handshake();
    const proxyB = await recordingProxy(b.port);
    const gatewayB = gateway('gw-b', proxyB.port);
    await gatewayB.connect();
    await gatewayB.handshake();
    await eventually(() => b.connections.length === 2);
    expect(a.connections).toEqual([]);

    // The edge answers within the handler call, with the deferred response for a command.
    const response = await signedInteraction(edge.url, INTERACTION);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ type: 5 });

    // The gateway on B receives the forward, decoded byte for byte.
    await eventually(() => deliveries.length === 1);
    const sanitised = INTERACTION.replace(`"token":"${TOKEN}",`, '');
    const expectedForward = {
      platform: 'discord',
      botId: 'APP1',
      method: 'POST',
      path: '/discord/interactions',
      headers: [
        ['content-type', 'application/json'],
        ['user-agent', 'Discord-Interactions/1.0 (+https://discord.com)'],
      ],
      bodyB64: Buffer.from(sanitised, 'utf8').toString('base64'),
    };
    const [delivery] = deliveries as [PassthroughDelivery];
    expect({ ...delivery, body: Buffer.from(delivery.body).toString('utf8') }).toEqual({
      ...expectedForward,
      bodyB64: undefined,
      body: sanitised,
      profile: null,
    });
    expect(JSON.parse(Buffer.from(delivery.body).toString('utf8'))).not.toHaveProperty('token');

    // The frame on the wire is the expected forward, exactly.
    const frames = connectorFrames(proxyA.received()).filter((frame) => frame.type === 'passthrough_forward');
    expect(frames).toHaveLength(1);
    expect(frames[0]!['forward']).toEqual(expectedForward);
    expect(typeof frames[0]!['bufferId']).toBe('string');

    // follow_up by session key (the newer gateway's key) reaches B's adapter with the token.
    const sessionKey = buildSessionKey(
      { platform: 'discord', chat_type: 'group', chat_id: 'C100', user_id: 'U100', scope_id: 'G100' },
      { dialect: 'upstream-2026-09-21' },
    );
    expect(sessionKey).toBe('agent:main:discord:group:C100:U100');
    const followUp = {
      op: 'follow_up' as const,
      session_key: sessionKey,
      kind: 'discord.interaction_token',
      content: 'the answer',
    };
    await expect(gatewayA.sendFollowUp(followUp, { platform: 'discord' })).resolves.toMatchObject({
      success: true,
      message_id: 'M1',
    });
    expect(followUps).toHaveLength(1);
    expect(followUps[0]).toMatchObject({ sessionKey, content: 'the answer' });
    expect(followUps[0]!.context.credential).toBe(TOKEN);
    expect(followUps[0]!.context.tenant).toBe(TENANT_A);

    // The baseline gateway's key works too.
    const baselineKey = 'agent:main:relay:channel:C100:U100';
    await expect(
      gatewayA.sendFollowUp({ ...followUp, session_key: baselineKey }, { platform: 'discord' }),
    ).resolves.toMatchObject({ success: true });
    expect(followUps[1]!.context.credential).toBe(TOKEN);

    // Another tenant's gateway naming the same session gets nothing, and the adapter is not called.
    const refused = await gatewayB.sendFollowUp(followUp, { platform: 'discord' });
    expect(refused).toEqual({
      success: false,
      error: 'follow_up: no usable discord.interaction_token capability for this session',
    });
    expect(JSON.stringify(refused)).not.toContain(TOKEN);
    expect(followUps).toHaveLength(2);

    // Not one byte of the token crossed either gateway socket, plain or base64.
    const wire = Buffer.concat([proxyA.received(), proxyB.received()]).toString('latin1');
    expect(wire).toContain('"passthrough_forward"');
    expect(wire).toContain(expectedForward.bodyB64);
    for (const needle of [TOKEN, ...base64Needles(TOKEN)]) expect(wire).not.toContain(needle);
  });

  it('keeps the forward while the tenant has no gateway and delivers it when one connects', async () => {
    const prefix = fixture.prefix();
    const edge = await edgeServer();
    const a = await startInstance('instance-a', prefix, [], edge.server);
    edge.mount(a);
    const b = await startInstance('instance-b', prefix, []);

    const response = await signedInteraction(edge.url, INTERACTION.replace('"type":2,', '"type":3,'));
    expect(await response.json()).toEqual({ type: 6 });

    const deliveries: PassthroughDelivery[] = [];
    const late = gateway('gw-a', b.port);
    late.onPassthrough((delivery) => void deliveries.push(delivery));
    await late.connect();
    await late.handshake();
    await eventually(() => deliveries.length === 1);
    expect(Buffer.from(deliveries[0]!.body).toString('utf8')).not.toContain(TOKEN);
  });
});
