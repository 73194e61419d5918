// The Redis backends on a Redis Cluster (three masters, three replicas, started here): every
// conformance suite, as on one server, then what only a cluster has — channels on several masters,
// and a master that fails.
import type { BufferedFrame, RelayBusMessage } from '@agentwire/relay';
import { type Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisClusterHandle, startRedisCluster } from '../../test/redis-cluster.js';
import { registerRedisSuites } from '../../test/redis-suites.js';
import type { RedisRelayError } from './errors.js';
import { bufferStreamKey, busChannel, DEFAULT_RELAY_KEY_PREFIX } from './redis-connection.js';
import { RedisInboundBuffer } from './redis-inbound-buffer.js';
import { RedisRelayBus } from './redis-relay-bus.js';
import { keySlot } from './redis-sharded-subscriber.js';

let cluster: RedisClusterHandle | undefined;
let shared: Cluster | undefined;

beforeAll(async () => {
  cluster = await startRedisCluster();
  shared = cluster.connect();
}, 30_000);
afterAll(async () => {
  await shared?.quit();
  await cluster?.stop();
});

const clusterNodes = () => ({ clusterNodes: cluster!.startupNodes });

registerRedisSuites('Redis Cluster', { connection: clusterNodes, shared: () => shared! });

/** Tenants whose channels lie on every master (the bus key has no hash tag: each tenant its own slot). */
const TENANTS = Array.from({ length: 16 }, (_, index) => `tenant-${index}`);

describe('RedisRelayBus on a Redis Cluster', () => {
  it('spreads tenants over the masters, counts every instance and keeps each tenant in order', async () => {
    const slots = new Set(TENANTS.map((tenant) => keySlot(busChannel(DEFAULT_RELAY_KEY_PREFIX, tenant))));
    const masters = new Set(
      await Promise.all(
        TENANTS.map(async (t) => (await cluster!.masterOf(busChannel(DEFAULT_RELAY_KEY_PREFIX, t))).port),
      ),
    );
    expect(slots.size).toBe(16);
    expect(masters.size).toBe(3);
    const buses = [0, 1, 2].map(() => new RedisRelayBus({ redis: clusterNodes() }));
    const received = new Map<string, number[]>();
    try {
      for (const [index, bus] of buses.entries()) {
        for (const tenant of TENANTS) {
          await bus.subscribe(tenant, (message: RelayBusMessage) => {
            if (message.type !== 'interrupt_inbound' || index !== 0) return;
            const list = received.get(tenant) ?? [];
            list.push(Number(message.chat_id));
            received.set(tenant, list);
          });
        }
      }
      const publisher = new RedisRelayBus({ redis: shared! });
      const counts: number[] = [];
      for (let n = 0; n < 50; n += 1) {
        for (const tenant of TENANTS) {
          counts.push(
            await publisher.publish(tenant, {
              type: 'interrupt_inbound',
              session_key: 's',
              chat_id: String(n),
            }),
          );
        }
      }
      await publisher.close();
      expect(new Set(counts)).toEqual(new Set([3]));
      await expect.poll(() => TENANTS.every((t) => received.get(t)?.length === 50)).toBe(true);
      for (const tenant of TENANTS)
        expect(received.get(tenant)).toEqual(Array.from({ length: 50 }, (_, n) => n));
    } finally {
      await Promise.all(buses.map((bus) => bus.close()));
    }
  });
});

describe('a slot of the Redis Cluster moves', () => {
  it('moves a bus subscription with it, without reporting an outage', async () => {
    const tenant = 'moving-tenant';
    const channel = busChannel(DEFAULT_RELAY_KEY_PREFIX, tenant);
    const slot = String(keySlot(channel));
    const source = await cluster!.masterOf(channel);
    const reports: string[] = [];
    const bus = new RedisRelayBus({
      redis: clusterNodes(),
      onConnectionError: (error) => reports.push(error.message),
    });
    const publisher = new RedisRelayBus({ redis: shared! });
    const heard: string[] = [];
    const admins: Redis[] = [];
    try {
      await bus.subscribe(tenant, (message) => {
        if (message.type === 'interrupt_inbound') heard.push(message.chat_id);
      });
      const masters: { port: number; id: string; admin: Redis }[] = [];
      for (const node of cluster!.nodes) {
        const admin = new Redis({ host: node.host, port: node.port });
        admins.push(admin);
        if ((await admin.role())[0] === 'master') {
          masters.push({ port: node.port, id: (await admin.call('CLUSTER', 'MYID')) as string, admin });
        }
      }
      const from = masters.find((master) => master.port === source.port)!;
      const to = masters.find((master) => master.port !== source.port)!;
      // The slot holds no keys (only the channel): importing, migrating, then owned by `to` everywhere.
      await to.admin.call('CLUSTER', 'SETSLOT', slot, 'IMPORTING', from.id);
      await from.admin.call('CLUSTER', 'SETSLOT', slot, 'MIGRATING', to.id);
      for (const master of [to, from, ...masters.filter((m) => m !== to && m !== from)]) {
        await master.admin.call('CLUSTER', 'SETSLOT', slot, 'NODE', to.id);
      }
      const message = (n: number) =>
        ({ type: 'interrupt_inbound', session_key: 's', chat_id: `moved-${n}` }) as const;
      let sent = 0;
      await expect
        .poll(async () => publisher.publish(tenant, message(sent++)), { timeout: 10_000, interval: 100 })
        .toBe(1);
      await expect.poll(() => heard.includes(`moved-${sent - 1}`)).toBe(true);
      expect(reports).toEqual([]);
      // The slot goes back where it was, for the cases after this one.
      for (const master of masters) await master.admin.call('CLUSTER', 'SETSLOT', slot, 'NODE', from.id);
      await cluster!.waitUntilHealthy();
    } finally {
      await Promise.all([bus.close(), publisher.close()]);
      for (const admin of admins) admin.disconnect();
    }
  }, 30_000);
});

describe('a master of the Redis Cluster fails', () => {
  // Last in the file: the killed masters stay dead (their replicas serve their slots from then on).
  it('stores every append once, loses none, retries acks, and the bus follows its channels', async () => {
    const tenants = TENANTS.slice(0, 6);
    const buffer = new RedisInboundBuffer({ redis: clusterNodes() });
    const reports: string[] = [];
    const buses = [0, 1].map(
      () =>
        new RedisRelayBus({ redis: clusterNodes(), onConnectionError: (error) => reports.push(error.code) }),
    );
    /** The `chat_id` of each interrupt each bus instance heard, per tenant. */
    const heard = buses.map(() => new Map<string, string[]>());
    try {
      for (const [index, bus] of buses.entries()) {
        for (const tenant of tenants) {
          await bus.subscribe(tenant, (message) => {
            if (message.type !== 'interrupt_inbound') return;
            heard[index]!.set(tenant, [...(heard[index]!.get(tenant) ?? []), message.chat_id]);
          });
        }
      }
      // Appends to every tenant, 6 at a time, while the master of the first tenant's stream is killed.
      const victim = await cluster!.masterOf(bufferStreamKey(DEFAULT_RELAY_KEY_PREFIX, tenants[0]!));
      const outcomes: { tenant: string; text: string; error?: RedisRelayError }[] = [];
      let stop = false;
      let next = 0;
      const appending = (async () => {
        while (!stop) {
          await Promise.all(
            tenants.map(async (tenant) => {
              const text = `m${next++}`;
              try {
                await buffer.append(tenant, { type: 'inbound', event: { text } } as BufferedFrame);
                outcomes.push({ tenant, text });
              } catch (error) {
                outcomes.push({ tenant, text, error: error as RedisRelayError });
              }
            }),
          );
        }
      })();
      // A tenant whose bus channel the victim serves, subscribed to only once the victim is dead.
      let lateTenant = '';
      for (let index = 0; !lateTenant; index += 1) {
        const candidate = `late-${index}`;
        const master = await cluster!.masterOf(busChannel(DEFAULT_RELAY_KEY_PREFIX, candidate));
        if (master.port === victim.port) lateTenant = candidate;
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      await victim.kill();
      let lateHeard = 0;
      const late = buses[1]!.subscribe(lateTenant, () => {
        lateHeard += 1;
      });
      await cluster!.waitUntilHealthy();
      // It waited for the replica to take over, and counts there.
      await late;
      expect(await buses[0]!.publish(lateTenant, { type: 'buffered' })).toBe(1);
      await expect.poll(() => lateHeard).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      stop = true;
      await appending;
      const refused = outcomes.filter((outcome) => outcome.error !== undefined);
      // Each refusal is the typed one, and says whether it may have been stored.
      for (const { error } of refused) expect(error?.code).toBe('redis_unavailable');
      const stored = new Map<string, string[]>();
      for (const tenant of tenants) {
        const entries = await buffer.read(tenant, null, 1_000_000);
        stored.set(
          tenant,
          entries.map((entry) => (JSON.parse(entry.frameJson) as { event: { text: string } }).event.text),
        );
      }
      for (const { tenant, text, error } of outcomes) {
        const times = stored.get(tenant)!.filter((candidate) => candidate === text).length;
        if (error === undefined) expect(times, `${text} appended`).toBe(1);
        else if (error.details.outcome === 'not_run') expect(times, `${text} refused`).toBe(0);
        else expect(times).toBeLessThanOrEqual(1);
      }
      expect(outcomes.length).toBeGreaterThan(100);

      // Acks of everything, while the master of another tenant's stream is killed: all answered true.
      const second = await cluster!.masterOf(bufferStreamKey(DEFAULT_RELAY_KEY_PREFIX, tenants[1]!));
      expect(second.port).not.toBe(victim.port);
      const entries = await Promise.all(tenants.map((tenant) => buffer.read(tenant, null, 1_000_000)));
      const acking = Promise.all(
        tenants.map(async (tenant, index) => {
          let removed = 0;
          for (const entry of entries[index]!) if (await buffer.ack(tenant, entry.bufferId)) removed += 1;
          return removed;
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      await second.kill();
      const removed = await acking;
      await cluster!.waitUntilHealthy();
      for (const [index, tenant] of tenants.entries()) {
        expect(await buffer.size(tenant)).toBe(0);
        // An ack retried after its answer was lost may answer false; never more than one per failover.
        expect(removed[index]).toBeGreaterThanOrEqual(entries[index]!.length - 1);
      }

      // The bus subscribed its channels again on the new masters: counts and delivery as before.
      await expect
        .poll(
          async () => Promise.all(tenants.map((tenant) => buses[0]!.publish(tenant, { type: 'buffered' }))),
          {
            timeout: 10_000,
            interval: 200,
          },
        )
        .toEqual(tenants.map(() => 2));
      for (const tenant of tenants) {
        const message = { type: 'interrupt_inbound', session_key: 's', chat_id: `after-${tenant}` } as const;
        expect(await buses[1]!.publish(tenant, message)).toBe(2);
      }
      await expect
        .poll(() => heard.every((map) => tenants.every((t) => map.get(t)?.includes(`after-${t}`))), {
          timeout: 5000,
        })
        .toBe(true);
      // The outage was reported, once per bus instance and outage at most.
      expect(reports.every((code) => code === 'redis_connection')).toBe(true);
      expect(reports.length).toBeLessThanOrEqual(4);
    } finally {
      await Promise.all([buffer.close(), ...buses.map((bus) => bus.close())]);
    }
  }, 60_000);
});
