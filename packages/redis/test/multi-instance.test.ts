// Two connector instances sharing one real Redis, with our gateway client on real WebSockets: the
// routing and no-loss guarantees of buffered delivery across instances (issue "Relay runtime").

import { RedisCapabilityVault, RedisInboundBuffer, RedisRelayBus } from '@agentwire/redis/relay';
import { createMessageEvent, type MessageEvent } from '@agentwire/relay';
import { WebSocketRelayTransport } from '@agentwire/relay/client';
import { createRelayServer, type PlatformAdapter, type RelayServer } from '@agentwire/relay/server';
import { describe, expect, it } from 'vitest';
import { useRedisFixture } from './redis-fixture.js';

const SECRET = 'multi-instance-secret';
const TENANT = 'tenant:one';

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
  send: (action, context) => ({ success: true, message_id: `${context.tenant}:${action.chat_id}` }),
};

const fixture = useRedisFixture('mi');

/** One connector instance on its own port, its Redis backends under a prefix shared by the test. */
async function startInstance(instanceId: string, keyPrefix: string): Promise<RelayServer> {
  const connection = { redis: { host: fixture.server.host, port: fixture.server.port }, keyPrefix };
  const bus = new RedisRelayBus(connection);
  const buffer = new RedisInboundBuffer(connection);
  const vault = new RedisCapabilityVault(connection);
  // The server does not own backends it is given: they are closed after it.
  fixture.defer(async () => {
    await Promise.all([bus.close(), buffer.close(), vault.close()]);
  });
  const server = await createRelayServer({
    port: 0,
    instanceId,
    authenticate: async (gatewayId) => (gatewayId === 'gw-1' ? { tenant: TENANT, secrets: [SECRET] } : null),
    platforms: { discord: adapter },
    bus,
    buffer,
    vault,
    pingIntervalMs: 0,
  });
  fixture.defer(() => server.close());
  return server;
}

function gatewayTo(server: RelayServer): WebSocketRelayTransport {
  const transport = new WebSocketRelayTransport({
    url: `http://127.0.0.1:${server.port}`,
    gatewayId: 'gw-1',
    secret: SECRET,
    identities: [{ platform: 'discord', botId: 'bot-1' }],
    reconnect: false,
  });
  fixture.defer(() => transport.disconnect());
  return transport;
}

function event(n: number): ReturnType<typeof createMessageEvent> {
  return createMessageEvent({
    text: `message ${n}`,
    message_id: String(n),
    source: { platform: 'discord', chat_id: 'c1', chat_type: 'group', user_id: 'u1', scope_id: 'G1' },
  });
}

const numberOf = (inbound: MessageEvent) => Number(String(inbound.text).slice('message '.length));

async function eventually(predicate: () => boolean, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('two connector instances on one Redis', () => {
  it('routes inbound produced on A to the gateway socket on B, exactly once', async () => {
    const prefix = fixture.prefix();
    const a = await startInstance('instance-a', prefix);
    const b = await startInstance('instance-b', prefix);
    const received: number[] = [];
    const gateway = gatewayTo(b);
    gateway.onInbound((inbound) => void received.push(numberOf(inbound)));
    await gateway.connect();
    await gateway.handshake();
    await eventually(() => b.connections.length === 1);
    for (let n = 1; n <= 20; n += 1) await a.deliverInbound(TENANT, event(n));
    await eventually(() => received.length === 20);
    // Give a duplicate every chance to show up before checking there is none.
    await b.deliverInbound(TENANT, event(21));
    await eventually(() => received.includes(21));
    expect(received).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    expect(a.connections).toEqual([]);
    // Outbound answers come from the instance that holds the socket, with the tenant from the store.
    await expect(gateway.sendOutbound({ op: 'send', chat_id: 'c1', content: 'hi' })).resolves.toMatchObject({
      success: true,
      message_id: `${TENANT}:c1`,
    });
  });

  it('loses nothing when the instance holding unacknowledged frames dies', async () => {
    const prefix = fixture.prefix();
    const a = await startInstance('instance-a', prefix);
    const b = await startInstance('instance-b', prefix);

    // Phase 1: the gateway on B takes frame 1 and stalls in its handler, so nothing is acked.
    const seenOnB: number[] = [];
    const stalled = gatewayTo(b);
    stalled.onInbound(async (inbound) => {
      seenOnB.push(numberOf(inbound));
      await new Promise(() => undefined);
    });
    await stalled.connect();
    await stalled.handshake();
    await eventually(() => b.connections.length === 1);
    for (let n = 1; n <= 30; n += 1) await a.deliverInbound(TENANT, event(n));
    await eventually(() => seenOnB.length === 1);

    // B dies with every frame unacknowledged.
    await b.close();

    // Phase 2: the gateway re-dials through the load balancer and lands on A.
    const received: number[] = [];
    const recovered = gatewayTo(a);
    recovered.onInbound((inbound) => void received.push(numberOf(inbound)));
    await recovered.connect();
    await recovered.handshake();
    await eventually(() => received.length === 30);
    for (let n = 31; n <= 35; n += 1)
      await b.deliverInbound(TENANT, event(n)).catch(() => a.deliverInbound(TENANT, event(n)));
    await eventually(() => received.length === 35);
    expect(received).toEqual(Array.from({ length: 35 }, (_, i) => i + 1));

    // Everything acked: a third connection gets nothing replayed.
    await recovered.disconnect();
    const again: number[] = [];
    const third = gatewayTo(a);
    third.onInbound((inbound) => void again.push(numberOf(inbound)));
    await third.connect();
    await third.handshake();
    await a.deliverInbound(TENANT, event(36));
    await eventually(() => again.length === 1);
    expect(again).toEqual([36]);
  });
});
