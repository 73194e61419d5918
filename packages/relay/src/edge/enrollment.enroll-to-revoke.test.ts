import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { mintRelayToken } from '../auth.js';
import { authenticatorFor } from '../secrets.js';
import { createRelayServer, type RelayServer } from '../server/index.js';
import { connectorEdge, post, provisionBody, read } from './enrollment.test-support.js';

const sockets: WebSocket[] = [];
const servers: RelayServer[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const discord = {
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
} as const;

type DialOutcome = { readonly accepted: true } | { readonly closed: { code: number; reason: string } };

/**
 * Dials the relay as the gateway does (bearer upgrade token, then hello): accepted once the
 * descriptor arrives, or the close the server sent.
 */
function dial(server: RelayServer, gatewayId: string, secret: string, nowMs: number): Promise<DialOutcome> {
  const token = mintRelayToken(gatewayId, secret, { now: nowMs / 1000 });
  const socket = new WebSocket(`ws://127.0.0.1:${server.port}/relay`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.on('error', reject);
    socket.on('open', () => socket.send('{"type": "hello", "platform": "discord", "botId": ""}\n'));
    socket.on('message', (data: Buffer) => {
      const frames = data
        .toString('utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line));
      if (frames.some((frame) => frame.type === 'descriptor')) {
        resolve({ accepted: true });
        socket.close();
      }
    });
    socket.on('close', (code, reason) => resolve({ closed: { code, reason: reason.toString('utf8') } }));
  });
}

describe('enroll → provision → connect → rotate → revoke', () => {
  it('carries a gateway through its whole credential life against a real relay server', async () => {
    const edge = connectorEdge();
    const server = await createRelayServer({
      port: 0,
      authenticate: authenticatorFor(edge.secrets),
      platforms: { discord },
      pingIntervalMs: 0,
      now: edge.now,
    });
    servers.push(server);
    const connections: { gatewayId: string; tenant: string }[] = [];
    server.on('connection', (info) => connections.push(info));

    // Enroll with a one-time token issued to the caller's tenant.
    const enrollmentToken = await edge.enrollmentTokens.issue({ tenant: 'tenant-a', ttlMs: 600_000 });
    const enrolled = await read(
      await edge.handle(post('/relay/enroll', { enrollmentToken, gatewayId: 'gw-host-1' }, 'portal-token-a')),
    );
    expect(enrolled.status).toBe(200);
    expect(Object.keys(enrolled.body).sort()).toEqual(['deliveryKey', 'gatewayId', 'secret', 'tenant']);
    expect(enrolled.body).toMatchObject({ tenant: 'tenant-a', gatewayId: 'gw-host-1' });
    const secret = enrolled.body['secret'] as string;

    // Provision the same gateway: the live credentials are answered, not replaced.
    const provisioned = await read(
      await edge.handle(post('/relay/provision', provisionBody(), 'portal-token-a')),
    );
    expect(provisioned).toEqual({
      status: 200,
      body: { ...enrolled.body, routeKeys: ['guild-1'] },
    });

    // The issued secret opens the relay, for the tenant from the store.
    expect(await dial(server, 'gw-host-1', secret, edge.clock.ms)).toEqual({ accepted: true });
    expect(connections).toEqual([expect.objectContaining({ gatewayId: 'gw-host-1', tenant: 'tenant-a' })]);

    // Rotate: the new secret works, and the old one until the grace window ends.
    const rotated = await edge.secrets.rotate('gw-host-1', { graceMs: 60_000 });
    const [fresh] = rotated.secrets;
    expect(fresh).not.toBe(secret);
    edge.clock.ms += 59_000;
    expect(await dial(server, 'gw-host-1', secret, edge.clock.ms)).toEqual({ accepted: true });
    expect(await dial(server, 'gw-host-1', fresh!, edge.clock.ms)).toEqual({ accepted: true });
    edge.clock.ms += 1_000;
    expect(await dial(server, 'gw-host-1', secret, edge.clock.ms)).toEqual({
      closed: { code: 4401, reason: 'unauthorized' },
    });
    expect(await dial(server, 'gw-host-1', fresh!, edge.clock.ms)).toEqual({ accepted: true });

    // Revoke: the next upgrade is refused, even with the current secret.
    expect(await edge.secrets.revoke('gw-host-1')).toBe(true);
    expect(await dial(server, 'gw-host-1', fresh!, edge.clock.ms)).toEqual({
      closed: { code: 4401, reason: 'unauthorized' },
    });
    expect(edge.errors).toEqual([]);
  });

  it('authenticates the policy call with the channel token, and refuses it once revoked', async () => {
    const edge = connectorEdge();
    const enrolled = await edge.secrets.create('gw-host-1', 'tenant-a');
    const token = mintRelayToken('gw-host-1', enrolled.secrets[0]!, { now: edge.clock.ms / 1000 });
    const policy = {
      platform: 'discord',
      requireAddress: true,
      freeResponseScopes: ['c-1'],
      allowOtherBots: false,
    };
    expect(await read(await edge.handle(post('/relay/policy', policy, token)))).toEqual({
      status: 200,
      body: {},
    });
    expect(await edge.policies.get('gw-host-1', 'discord')).toEqual({
      ...policy,
      tenant: 'tenant-a',
      gatewayId: 'gw-host-1',
    });
    await edge.secrets.revoke('gw-host-1');
    expect(await read(await edge.handle(post('/relay/policy', policy, token)))).toMatchObject({
      status: 401,
      body: { error: 'unauthorized' },
    });
  });
});
