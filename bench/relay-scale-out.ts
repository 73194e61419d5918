// Scale-out on Redis (#22, goal 6): two connector instances in separate processes share one Redis; the
// gateways are connected to instance B, and inbound is produced on instance A: `deliverInbound` appends
// to the tenant's stream and publishes the wake-up on the bus, B reads the stream and sends the frames,
// the gateways acknowledge them and B deletes them. Measured until every frame arrived and was acked:
// frames/s and each frame's latency (produced on A → handled by its gateway).
//
// Node CPU per frame: the two instances (the gateways' process not counted); for the floor, its producer
// and consumer. Floor: raw ioredis doing the same Redis traffic with nothing else — the producer process XADDs and
// PUBLISHes each frame, the consumer (this process) reads the stream on each wake-up, counts the
// entries and XDELs them. Both run on one `redis-server` and on a Redis Cluster of three masters and
// three replicas (started here, stopped at the end).
//
// This file is also the child processes: `relay-scale-out.ts instance` (a connector instance) and
// `relay-scale-out.ts producer` (the floor's producer), driven over IPC.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  RedisCapabilityVault,
  type RedisClusterConnectOptions,
  RedisInboundBuffer,
  RedisRelayBus,
} from '@agentwire/redis/relay';
import { createMessageEvent } from '@agentwire/relay';
import { WebSocketRelayTransport } from '@agentwire/relay/client';
import { createRelayServer, type PlatformAdapter, type RelayServer } from '@agentwire/relay/server';
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { startRedisCluster } from '../packages/redis/test/redis-cluster.js';
import { startRedisServer } from '../packages/redis/test/redis-server.js';

const SECRET = 'bench-secret';
const KEY_PREFIX = 'bench:scale:';
/** How many `deliverInbound` calls (or floor XADDs) the producer keeps in flight. */
const IN_FLIGHT = 64;

type Connection = RedisOptions | RedisClusterConnectOptions;

/** Options of {@link benchRelayScaleOut}. */
export interface RelayScaleOutBenchOptions {
  readonly quick?: boolean;
}

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

const tenantOf = (index: number) => `tenant-${index}`;
const gatewayOf = (index: number) => `gw-${index}`;
/** Wall-clock microseconds, comparable across the processes of one machine. */
const nowMicros = () => (performance.timeOrigin + performance.now()) * 1000;

/** The frame a producer delivers: a chat message whose text carries when it was produced. */
function eventAt(sentAtMicros: number, sequence: number) {
  return createMessageEvent({
    text: `${sentAtMicros} #${sequence} — can you check why the nightly build failed? café ☕`,
    message_id: String(1310467783221461022n + BigInt(sequence)),
    source: {
      platform: 'discord',
      chat_id: '1150094410839081999',
      chat_type: 'group',
      user_id: '284102349310836737',
      user_name: 'ann',
    },
  });
}

function stores(connection: Connection) {
  const options = { redis: connection, keyPrefix: KEY_PREFIX, onConnectionError: () => undefined };
  return {
    bus: new RedisRelayBus(options),
    buffer: new RedisInboundBuffer(options),
    vault: new RedisCapabilityVault(options),
  };
}

/** A connector instance (child process): a relay server on Redis stores; produces inbound on request. */
async function runInstance(connection: Connection, tenants: number): Promise<void> {
  const { bus, buffer, vault } = stores(connection);
  const server: RelayServer = await createRelayServer({
    port: 0,
    authenticate: (gatewayId) => {
      const index = Number(gatewayId.slice(3));
      return gatewayId.startsWith('gw-') && index < tenants
        ? { tenant: tenantOf(index), secrets: [SECRET] }
        : null;
    },
    platforms: { discord: adapter },
    bus,
    buffer,
    vault,
    pingIntervalMs: 0,
  });
  server.on('error', (error) => console.error('instance:', error));
  process.on('message', async (message: { readonly produce?: number; readonly stop?: true }) => {
    if (message.stop) {
      await server.close();
      await Promise.all([bus.close(), buffer.close(), vault.close()]);
      process.exit(0);
    }
    if (message.produce !== undefined) {
      await inFlight(message.produce, (sequence) =>
        server.deliverInbound(tenantOf(sequence % tenants), eventAt(nowMicros(), sequence)),
      );
      process.send?.({ produced: message.produce });
    }
  });
  process.send?.({ port: server.port });
}

/** The floor's producer (child process): XADD + PUBLISH per frame, as the relay's append and wake-up. */
async function runProducer(connection: Connection, tenants: number): Promise<void> {
  const client =
    'clusterNodes' in connection ? new Cluster([...connection.clusterNodes]) : new Redis(connection);
  const cluster = 'clusterNodes' in connection;
  process.on('message', async (message: { readonly produce?: number; readonly stop?: true }) => {
    if (message.stop) {
      client.disconnect();
      process.exit(0);
    }
    if (message.produce !== undefined) {
      await inFlight(message.produce, async (sequence) => {
        const tenant = tenantOf(sequence % tenants);
        const frame = JSON.stringify({ type: 'inbound', event: eventAt(nowMicros(), sequence) });
        await client.xadd(`${KEY_PREFIX}floor-buffer:${tenant}`, '*', 'frame', frame);
        const channel = `${KEY_PREFIX}floor-bus:${tenant}`;
        await (cluster ? client.spublish(channel, 'buffered') : client.publish(channel, 'buffered'));
      });
      process.send?.({ produced: message.produce });
    }
  });
  process.send?.({ ready: true });
}

/** Runs `count` calls of `task`, at most {@link IN_FLIGHT} at once. */
async function inFlight(count: number, task: (sequence: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(IN_FLIGHT, count) }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

interface Child {
  readonly pid: number;
  /** The child's first message (an instance's `port`). */
  readonly first: Record<string, unknown>;
  request(message: object, answer: string): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

async function startChild(
  role: 'instance' | 'producer',
  connection: Connection,
  tenants: number,
): Promise<Child> {
  const child = fork(fileURLToPath(import.meta.url), [role, JSON.stringify(connection), String(tenants)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const request = (message: object | undefined, answer: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const onMessage = (reply: Record<string, unknown>) => {
        if (!(answer in reply)) return;
        child.off('message', onMessage);
        child.off('exit', reject);
        resolve(reply);
      };
      child.on('message', onMessage);
      child.once('exit', reject);
      if (message !== undefined) child.send(message);
    });
  const first = await request(undefined, role === 'instance' ? 'port' : 'ready');
  return {
    pid: child.pid as number,
    first,
    request,
    stop: async () => {
      child.send({ stop: true });
      await once(child, 'exit');
    },
  };
}

interface RunResult {
  /** CPU time Redis spent per frame (every server of a cluster together), in microseconds. */
  readonly redisCpuMicros: number;
  /** CPU time the two connector instances (or the floor's producer) spent per frame, in microseconds. */
  readonly connectorCpuMicros: number;
  readonly framesPerSecond: number;
  readonly p50Micros: number;
  readonly p99Micros: number;
  readonly lost: number;
}

function summarise(
  count: number,
  elapsedMs: number,
  latencies: number[],
  received: number,
  redisCpuMs: number,
  connectorCpuMs: number,
): RunResult {
  latencies.sort((a, b) => a - b);
  return {
    redisCpuMicros: (redisCpuMs * 1000) / count,
    connectorCpuMicros: (connectorCpuMs * 1000) / count,
    framesPerSecond: (count * 1000) / elapsedMs,
    p50Micros: latencies[Math.floor(latencies.length * 0.5)] ?? Number.NaN,
    p99Micros: latencies[Math.floor(latencies.length * 0.99)] ?? Number.NaN,
    lost: count - received,
  };
}

/** Waits until `done()` or `ms` passed; whether it is done. */
async function until(done: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return done();
}

/** CPU milliseconds the processes `pids` have used so far (Linux `/proc`, clock ticks of 10 ms). */
function cpuMs(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10;
}

/** The relay: producer instance A, gateways on instance B; `count` frames over `tenants` tenants. */
async function relayRun(
  connection: Connection,
  tenants: number,
  count: number,
  redisPids: readonly number[],
): Promise<RunResult> {
  const a = await startChild('instance', connection, tenants);
  const b = await startChild('instance', connection, tenants);
  const port = Number(b.first['port']);
  const latencies: number[] = [];
  let received = 0;
  const gateways = await Promise.all(
    Array.from({ length: tenants }, async (_, index) => {
      const gateway = new WebSocketRelayTransport({
        url: `http://127.0.0.1:${port}`,
        gatewayId: gatewayOf(index),
        secret: SECRET,
        identities: [{ platform: 'discord', botId: 'bench-bot' }],
        reconnect: false,
      });
      gateway.onInbound((inbound) => {
        const text = String(inbound.text);
        latencies.push(nowMicros() - Number(text.slice(0, text.indexOf(' '))));
        received += 1;
      });
      if (!(await gateway.connect())) throw new Error('a bench gateway could not connect');
      await gateway.handshake();
      return gateway;
    }),
  );
  const admin = adminClient(connection);
  const redisCpu = cpuMs(redisPids);
  const connectorCpu = cpuMs([a.pid, b.pid]);
  const started = performance.now();
  await a.request({ produce: count }, 'produced');
  await until(() => received >= count, 30_000);
  const acked = await until(async () => (await pendingIn(admin, 'buffer', tenants)) === 0, 30_000);
  const elapsed = performance.now() - started;
  const redisCpuUsed = cpuMs(redisPids) - redisCpu;
  const connectorCpuUsed = cpuMs([a.pid, b.pid]) - connectorCpu;
  if (!acked) console.warn('relay-scale-out: frames left unacknowledged after 30 s');
  await Promise.all(gateways.map((gateway) => gateway.disconnect()));
  await Promise.all([a.stop(), b.stop()]);
  await flushPrefix(admin);
  admin.disconnect();
  return summarise(count, elapsed, latencies, received, redisCpuUsed, connectorCpuUsed);
}

/** The floor: producer process XADD + PUBLISH; this process reads on each wake-up and XDELs. */
async function floorRun(
  connection: Connection,
  tenants: number,
  count: number,
  redisPids: readonly number[],
): Promise<RunResult> {
  const producer = await startChild('producer', connection, tenants);
  const cluster = 'clusterNodes' in connection;
  const reader = adminClient(connection);
  const subscriber = cluster ? adminClient(connection) : (reader as Redis).duplicate();
  const latencies: number[] = [];
  let received = 0;
  const lastId = new Map<string, string>();
  const reading = new Map<string, Promise<void>>();
  const again = new Set<string>();
  const drain = async (tenant: string): Promise<void> => {
    const key = `${KEY_PREFIX}floor-buffer:${tenant}`;
    for (;;) {
      const entries = await reader.xrange(key, `(${lastId.get(tenant) ?? '0-0'}`, '+', 'COUNT', 100);
      if (entries.length === 0) return;
      for (const [id, fields] of entries) {
        const frame = JSON.parse(fields[1]!) as { event: { text: string } };
        latencies.push(nowMicros() - Number(frame.event.text.slice(0, frame.event.text.indexOf(' '))));
        received += 1;
        lastId.set(tenant, id);
      }
      await reader.xdel(key, ...entries.map(([id]) => id));
    }
  };
  const wake = (channel: string) => {
    const tenant = channel.slice(`${KEY_PREFIX}floor-bus:`.length);
    if (reading.has(tenant)) {
      again.add(tenant);
      return;
    }
    const run = async () => {
      do {
        again.delete(tenant);
        await drain(tenant);
      } while (again.has(tenant));
      reading.delete(tenant);
    };
    reading.set(tenant, run());
  };
  const channels = Array.from({ length: tenants }, (_, index) => `${KEY_PREFIX}floor-bus:${tenantOf(index)}`);
  if (cluster) {
    (subscriber as Cluster).on('smessage', wake);
    for (const channel of channels) await (subscriber as Cluster).ssubscribe(channel);
  } else {
    (subscriber as Redis).on('message', wake);
    await (subscriber as Redis).subscribe(...channels);
  }
  const redisCpu = cpuMs(redisPids);
  const producerCpu = cpuMs([producer.pid]);
  const consumerCpu = process.cpuUsage();
  const started = performance.now();
  await producer.request({ produce: count }, 'produced');
  await until(() => received >= count && reading.size === 0, 30_000);
  const elapsed = performance.now() - started;
  const redisCpuUsed = cpuMs(redisPids) - redisCpu;
  const consumed = process.cpuUsage(consumerCpu);
  const nodeCpuUsed = cpuMs([producer.pid]) - producerCpu + (consumed.user + consumed.system) / 1000;
  await producer.stop();
  subscriber.disconnect();
  await flushPrefix(reader);
  reader.disconnect();
  return summarise(count, elapsed, latencies, received, redisCpuUsed, nodeCpuUsed);
}

function adminClient(connection: Connection): Redis | Cluster {
  return 'clusterNodes' in connection
    ? new Cluster([...connection.clusterNodes], {
        redisOptions: {},
        scaleReads: 'master',
        shardedSubscribers: true,
      })
    : new Redis(connection);
}

async function pendingIn(client: Redis | Cluster, kind: 'buffer', tenants: number): Promise<number> {
  let pending = 0;
  for (let index = 0; index < tenants; index += 1)
    pending += await client.xlen(`${KEY_PREFIX}${kind}:${tenantOf(index)}`);
  return pending;
}

/** Deletes the bench's keys (on every master of a cluster). */
async function flushPrefix(client: Redis | Cluster): Promise<void> {
  const nodes = client instanceof Cluster ? client.nodes('master') : [client];
  for (const node of nodes) {
    const keys = await node.keys(`${KEY_PREFIX}*`);
    for (const key of keys) await client.del(key);
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

export async function benchRelayScaleOut(options: RelayScaleOutBenchOptions = {}): Promise<string[]> {
  const tenants = 20;
  const count = options.quick ? 2000 : 10_000;
  const rounds = options.quick ? 1 : 3;
  const server = await startRedisServer();
  const cluster = await startRedisCluster();
  const targets: [string, Connection, number[]][] = [
    ['one redis-server', { host: server.host, port: server.port }, [server.pid]],
    [
      'Redis Cluster (3 masters + 3 replicas)',
      { clusterNodes: cluster.startupNodes },
      cluster.nodes.map((node) => node.pid),
    ],
  ];
  const goals: string[] = [];
  try {
    console.log(
      `\n### Scale-out on Redis: two connector instances (separate processes), ${tenants} gateways on B, ${count} frames produced on A, acked\n`,
    );
    console.log(
      '| Redis | pipeline | frames/s | p50 latency µs | p99 latency µs | Redis CPU µs per frame | Node CPU µs per frame | lost | ratio to floor |',
    );
    console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const [label, connection, pids] of targets) {
      const relay: RunResult[] = [];
      const floor: RunResult[] = [];
      // Interleaved: a slow period of the machine hits both alike.
      for (let round = 0; round < rounds; round += 1) {
        floor.push(await floorRun(connection, tenants, count, pids));
        relay.push(await relayRun(connection, tenants, count, pids));
      }
      const row = (name: string, runs: RunResult[], ratio: string) =>
        console.log(
          `| ${label} | ${name} | ${median(runs.map((r) => r.framesPerSecond)).toFixed(0)} | ${median(runs.map((r) => r.p50Micros)).toFixed(0)} | ${median(runs.map((r) => r.p99Micros)).toFixed(0)} | ${median(runs.map((r) => r.redisCpuMicros)).toFixed(1)} | ${median(runs.map((r) => r.connectorCpuMicros)).toFixed(1)} | ${runs.reduce((sum, r) => sum + r.lost, 0)} | ${ratio} |`,
        );
      const rate = median(relay.map((r) => r.framesPerSecond));
      const floorRate = median(floor.map((r) => r.framesPerSecond));
      row('raw ioredis XADD + PUBLISH → XRANGE + XDEL (floor)', floor, '1.00×');
      row(
        'agentwire: A deliverInbound → bus → B → gateway → ack',
        relay,
        `${(rate / floorRate).toFixed(2)}×`,
      );
      const lost = relay.reduce((sum, r) => sum + r.lost, 0);
      const redisCpu = median(relay.map((r) => r.redisCpuMicros));
      goals.push(
        `Scale-out on ${label}: ${rate.toFixed(0)} frames/s = ${(rate / floorRate).toFixed(2)}× the raw ioredis floor (goal ≥ 0.5× and ≥ 10 000 frames/s), ${lost} lost; Redis spent ${redisCpu.toFixed(1)} µs of CPU per frame (≈ ${(1e6 / redisCpu).toFixed(0)} frames/s per fully busy Redis core)`,
      );
    }
  } finally {
    await cluster.stop();
    await server.stop();
  }
  return goals;
}

const [role, connectionJson, tenantsText] = process.argv.slice(2);
if (role === 'instance' || role === 'producer') {
  const connection = JSON.parse(connectionJson!) as Connection;
  const run = role === 'instance' ? runInstance : runProducer;
  await run(connection, Number(tenantsText));
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const goals = await benchRelayScaleOut({ quick: process.argv.includes('--quick') });
  console.log(`\n${goals.map((goal) => `- ${goal}`).join('\n')}`);
}
