// Two connector instances behind a load balancer, sharing one Redis (started here, stopped at the end):
// inbound produced on instance A reaches the gateway connected to instance B exactly once; then B
// dies holding 30 frames the gateway has not acknowledged, the gateway re-dials, lands on A, and
// receives every one of them, in order. Runs end to end and asserts.
// Needs `redis-server` on PATH (or REDIS_SERVER_BIN).
// `pnpm --filter @agentwire-examples/relay-multi-instance start`.
import { strict as assert } from 'node:assert';
import { once } from 'node:events';
import { RedisCapabilityVault, RedisInboundBuffer, RedisRelayBus } from '@agentwire/redis/relay';
import { createMessageEvent, type MessageEvent } from '@agentwire/relay';
import { WebSocketRelayTransport } from '@agentwire/relay/client';
import { createRelayServer, type PlatformAdapter, type RelayServer } from '@agentwire/relay/server';
import { type LoadBalancer, startLoadBalancer } from './load-balancer.js';
import { type LocalRedis, startRedisServer } from './redis-server.js';

const TENANT = 'acme';
const GATEWAY_ID = 'gw-acme-1';
const SECRET = 'example-only-secret-do-not-reuse';

const adapter: PlatformAdapter = {
  descriptor: {
    platform: 'discord',
    label: 'Discord',
    max_message_length: 2000,
    supports_draft_streaming: false,
    supports_edit: true,
    supports_threads: true,
    markdown_dialect: 'discord',
    len_unit: 'utf16',
  },
  send: () => ({ success: true, message_id: 'm-1' }),
};

/** One connector instance: a relay server on its own port, its bus, buffer and vault on the shared Redis. */
interface Instance {
  readonly name: string;
  readonly server: RelayServer;
  readonly buffer: RedisInboundBuffer;
  /** Closes the server, then its Redis connections (the server leaves given stores open). */
  stop(): Promise<void>;
}

async function startInstance(name: string, redis: LocalRedis): Promise<Instance> {
  // Connection options (not a client): each backend opens its own connection and closes it.
  const connection = { redis: { host: redis.host, port: redis.port }, keyPrefix: 'example:relay:' };
  const bus = new RedisRelayBus(connection);
  const buffer = new RedisInboundBuffer(connection);
  const vault = new RedisCapabilityVault(connection);
  const server = await createRelayServer({
    port: 0,
    instanceId: name,
    authenticate: (gatewayId) => (gatewayId === GATEWAY_ID ? { tenant: TENANT, secrets: [SECRET] } : null),
    platforms: { discord: adapter },
    bus,
    buffer,
    vault,
  });
  server.on('error', (error) => console.error(`instance ${name}:`, error));
  let stopped: Promise<void> | undefined;
  const stop = async () => {
    await server.close();
    await Promise.all([bus.close(), buffer.close(), vault.close()]);
  };
  return { name, server, buffer, stop: () => (stopped ??= stop()) };
}

function inbound(n: number) {
  return createMessageEvent({
    text: `frame ${n}`,
    message_id: String(n),
    source: {
      platform: 'discord',
      chat_id: 'c-ops',
      chat_type: 'group',
      user_id: 'u-1',
      scope_id: 'guild-1',
    },
  });
}

const numberOf = (event: MessageEvent): number => Number(event.message_id);
const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Waits (polling) until `condition` holds; fails with `what` after 10 s. */
async function until(what: string, condition: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function run(redis: LocalRedis, cleanups: (() => Promise<void>)[]): Promise<void> {
  const a = await startInstance('A', redis);
  cleanups.push(a.stop);
  const b = await startInstance('B', redis);
  cleanups.push(b.stop);
  const balancer: LoadBalancer = await startLoadBalancer(b.server.port);
  cleanups.push(() => balancer.close());
  const pending = () => a.buffer.size(TENANT); // the shared stream: any instance sees the same
  console.log(
    `instances     A on :${a.server.port}, B on :${b.server.port}, balancer on :${balancer.port} → B`,
  );

  // The gateway: one URL (the balancer), re-dialling after a lost connection as in production.
  const gateway = new WebSocketRelayTransport({
    url: `http://127.0.0.1:${balancer.port}`,
    gatewayId: GATEWAY_ID,
    secret: SECRET,
    identities: [{ platform: 'discord', botId: 'bot-1' }],
    backoff: { initialMs: 100, maxMs: 1000 },
  });
  cleanups.push(() => gateway.disconnect());
  const handled: number[] = [];
  const heldOnB: number[] = [];
  let stallTurns = false;
  let releaseHeldTurn = () => {};
  const heldTurnReleased = new Promise<void>((resolve) => {
    releaseHeldTurn = resolve;
  });
  gateway.onInbound(async (event) => {
    if (stallTurns) {
      // A turn that never completes on this connection: the frame is not acked, nor are those after it.
      heldOnB.push(numberOf(event));
      await heldTurnReleased;
      return;
    }
    handled.push(numberOf(event));
  });
  const redials: string[] = [];
  gateway.on('redial', ({ delayMs }) => redials.push(`${delayMs} ms`));

  // 1. The gateway holds its socket on B; inbound is produced on A.
  const sessionOnB = once(b.server, 'session');
  assert.equal(await gateway.connect(), true);
  await gateway.handshake();
  await sessionOnB;
  for (const n of range(1, 10)) await a.server.deliverInbound(TENANT, inbound(n));
  await until('frames 1–10 handled and acked', async () => handled.length === 10 && (await pending()) === 0);
  assert.deepEqual(handled, range(1, 10)); // each once, in order
  assert.equal(a.server.connections.length, 0);
  assert.equal(b.server.connections.length, 1);
  console.log('routing       frames 1–10 produced on A, handled once each by the gateway on B; 0 pending');

  // 2. The gateway's turn stalls on frame 11; frames 11–40 are produced on A and sent by B, unacked.
  stallTurns = true;
  for (const n of range(11, 40)) await a.server.deliverInbound(TENANT, inbound(n));
  await until('frame 11 held on B', () => heldOnB.length === 1);
  assert.deepEqual(heldOnB, [11]);
  assert.equal(await pending(), 30);
  console.log('stalled       gateway holds frame 11 on B; 30 frames unacknowledged in Redis');

  // 3. B dies; the balancer now routes to A; the gateway re-dials and lands there.
  balancer.routeTo(a.server.port);
  const sessionOnA = once(a.server, 'session');
  await b.stop();
  stallTurns = false;
  releaseHeldTurn(); // the old connection's turn ends; its frame is not acked (that socket is gone)
  await sessionOnA;
  console.log(`failover      B stopped; the gateway re-dialled after ${redials.join(', ')} and is on A`);

  // 4. A replays what B left, oldest first; new frames follow behind.
  await until('frames 11–40 replayed', () => handled.length === 40);
  for (const n of range(41, 45)) await a.server.deliverInbound(TENANT, inbound(n));
  await until('every frame handled and acked', async () => handled.length === 45 && (await pending()) === 0);
  assert.deepEqual(handled, range(1, 45)); // nothing lost, in order, none twice
  assert.equal(a.server.connections.length, 1);
  console.log('replayed      frames 11–40 from A in order, then 41–45; 45 handled, 0 pending');

  assert.equal(await gateway.goIdle(), true);
}

const cleanups: (() => Promise<void>)[] = [];
const redis = await startRedisServer();
console.log(`redis-server  127.0.0.1:${redis.port}`);
try {
  await run(redis, cleanups);
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  await redis.stop();
}
console.log('relay-multi-instance example: all assertions passed');
