import type { RelayBusMessage } from '@agentwire/relay';
import { Cluster, Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServerHandle, startRedisServer } from '../../test/redis-server.js';
import { RedisCapabilityVault } from './redis-capability-vault.js';
import { RedisInboundBuffer } from './redis-inbound-buffer.js';
import { RedisRelayBus } from './redis-relay-bus.js';

let server: RedisServerHandle | undefined;
let admin: Redis | undefined;
const toClose: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  server = await startRedisServer();
  admin = new Redis({ host: server.host, port: server.port });
});
afterEach(async () => {
  await Promise.all(toClose.splice(0).map((backend) => backend.close()));
  await admin?.flushdb();
});
afterAll(async () => {
  await admin?.quit();
  await server?.stop();
});

const connection = () => ({ host: server!.host, port: server!.port });
function track<T extends { close(): Promise<void> }>(backend: T): T {
  toClose.push(backend);
  return backend;
}
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !condition(); i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}

describe('RedisRelayBus', () => {
  it('routes between two instances on two connections, counting subscribed instances', async () => {
    const instanceA = track(new RedisRelayBus({ redis: connection() }));
    const instanceB = track(new RedisRelayBus({ redis: connection() }));
    const received: RelayBusMessage[] = [];
    const alsoReceived: RelayBusMessage[] = [];
    await instanceB.subscribe('tenant:1', (message) => received.push(message));
    await instanceB.subscribe('tenant:1', (message) => alsoReceived.push(message));
    // One subscribed connection: PUBLISH counts instances, each fans out to its own listeners.
    expect(await instanceA.publish('tenant:1', { type: 'buffered' })).toBe(1);
    await until(() => received.length === 1 && alsoReceived.length === 1);
    await instanceA.subscribe('tenant:1', () => undefined);
    expect(await instanceB.publish('tenant:1', { type: 'buffered' })).toBe(2);
  });

  it('keeps tenants with colons and percent signs apart, on URI-encoded channels', async () => {
    const bus = track(new RedisRelayBus({ redis: connection() }));
    const tenants = ['a:b', 'a%3Ab', 'a', 'a:b:c'];
    const seen = new Map<string, string[]>(tenants.map((t) => [t, []]));
    const channels: string[] = [];
    const spyClient = admin!.duplicate();
    track({ close: async () => void (await spyClient.quit()) });
    await spyClient.psubscribe('agentwire:relay:bus:*');
    spyClient.on('pmessage', (_pattern: string, channel: string) => channels.push(channel));
    for (const tenant of tenants) {
      await bus.subscribe(tenant, (m) =>
        seen.get(tenant)!.push(m.type === 'interrupt_inbound' ? m.chat_id : ''),
      );
    }
    for (const tenant of tenants) {
      const message = { type: 'interrupt_inbound', session_key: 's', chat_id: tenant } as const;
      // The bus instance and the spy's pattern subscription.
      expect(await bus.publish(tenant, message)).toBe(2);
    }
    await until(() => [...seen.values()].every((chatIds) => chatIds.length === 1) && channels.length === 4);
    for (const tenant of tenants) expect(seen.get(tenant)).toEqual([tenant]);
    expect(channels).toEqual([
      'agentwire:relay:bus:a%3Ab',
      'agentwire:relay:bus:a%253Ab',
      'agentwire:relay:bus:a',
      'agentwire:relay:bus:a%3Ab%3Ac',
    ]);
  });

  it('separates deployments by key prefix', async () => {
    const blue = track(new RedisRelayBus({ redis: connection(), keyPrefix: 'blue:' }));
    const green = track(new RedisRelayBus({ redis: connection(), keyPrefix: 'green:' }));
    await blue.subscribe('tenant', () => undefined);
    expect(await green.publish('tenant', { type: 'buffered' })).toBe(0);
    expect(await blue.publish('tenant', { type: 'buffered' })).toBe(1);
  });

  it('reports a foreign message on its channel and goes on delivering', async () => {
    const errors: unknown[] = [];
    const bus = track(
      new RedisRelayBus({ redis: connection(), onListenerError: (error) => errors.push(error) }),
    );
    const received: RelayBusMessage[] = [];
    await bus.subscribe('tenant', (message) => received.push(message));
    await admin!.publish('agentwire:relay:bus:tenant', '{"type":"wake"}');
    await admin!.publish('agentwire:relay:bus:tenant', 'not json');
    await bus.publish('tenant', { type: 'buffered' });
    await until(() => received.length === 1);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatchObject({ name: 'RelayError', code: 'invalid_bus_argument' });
    expect(received).toEqual([{ type: 'buffered' }]);
  });

  it('leaves a client passed in open and closes its own subscriber connection', async () => {
    const client = new Redis(connection());
    try {
      const bus = new RedisRelayBus({ redis: client });
      await bus.subscribe('tenant', () => undefined);
      expect(await admin!.pubsub('NUMSUB', 'agentwire:relay:bus:tenant')).toEqual([
        'agentwire:relay:bus:tenant',
        1,
      ]);
      await bus.close();
      expect(client.status).toBe('ready');
      expect(await client.publish('agentwire:relay:bus:tenant', 'x')).toBe(0);
    } finally {
      await client.quit();
    }
  });

  it('refuses options without a connection or with a key prefix that is not a string', () => {
    expect(() => new RedisRelayBus({} as never)).toThrow(
      expect.objectContaining({ code: 'invalid_redis_relay_option' }),
    );
    expect(() => new RedisRelayBus({ redis: connection(), keyPrefix: 7 as never })).toThrow(
      expect.objectContaining({ code: 'invalid_redis_relay_option' }),
    );
  });
});

describe('RedisInboundBuffer', () => {
  it('keeps entries in a per-tenant stream that survives a new client', async () => {
    const writer = new RedisInboundBuffer({ redis: connection() });
    const bufferId = await writer.append('tenant:a', { type: 'inbound', event: { text: 'hi' } });
    await writer.close();
    expect(await admin!.type('agentwire:relay:buffer:tenant%3Aa')).toBe('stream');
    const reader = track(new RedisInboundBuffer({ redis: connection() }));
    expect(await reader.read('tenant:a', null, 10)).toEqual([
      { bufferId, frameJson: '{"type":"inbound","event":{"text":"hi"}}' },
    ]);
    expect(await reader.size('tenant')).toBe(0);
    expect(await reader.ack('tenant:a', bufferId)).toBe(true);
    expect(await admin!.exists('agentwire:relay:buffer:tenant%3Aa')).toBe(1);
  });

  it('answers false for acks of strings that are not stream ids, and refuses such positions', async () => {
    const buffer = track(new RedisInboundBuffer({ redis: connection() }));
    await buffer.append('tenant', { type: 'passthrough_forward', forward: { body_b64: '' } });
    for (const bufferId of ['abc', '1', '1-2-3', '99999999999999999999999-0', '18446744073709551616-0']) {
      expect(await buffer.ack('tenant', bufferId)).toBe(false);
    }
    await expect(buffer.read('tenant', '12', 10)).rejects.toMatchObject({ code: 'invalid_buffer_argument' });
    expect(await buffer.read('tenant', '18446744073709551615-18446744073709551615', 10)).toEqual([]);
    expect(await buffer.size('tenant')).toBe(1);
  });

  it('refuses to replay an entry it did not write', async () => {
    const buffer = track(new RedisInboundBuffer({ redis: connection() }));
    await admin!.xadd('agentwire:relay:buffer:tenant', '*', 'other', 'x');
    await expect(buffer.read('tenant', null, 10)).rejects.toMatchObject({ code: 'corrupt_buffered_frame' });
    await admin!.xadd('agentwire:relay:buffer:other', '*', 'frame', '{"type":"inbound"}');
    await expect(buffer.read('other', null, 10)).rejects.toMatchObject({ code: 'corrupt_buffered_frame' });
  });

  it('replays an entry another writer spelled differently as the text it would have written', async () => {
    const buffer = track(new RedisInboundBuffer({ redis: connection() }));
    const bufferId = await admin!.xadd(
      'agentwire:relay:buffer:spelled',
      '*',
      'frame',
      '{ "event": {"text": "hi"}, "type": "inbound" }',
    );
    expect(await buffer.read('spelled', null, 10)).toEqual([
      { bufferId, frameJson: '{"type":"inbound","event":{"text":"hi"}}' },
    ]);
  });

  /**
   * A client whose `method` fails as `failures` say, one per call (`'lost'`: the command runs but its
   * answer is lost; `'refused'`: no server takes it; `'redirected'`: a cluster gave up redirecting it;
   * `'hang'`: no answer ever), then works.
   */
  function flaky(method: 'eval' | 'xdel', failures: ('lost' | 'refused' | 'redirected' | 'hang')[]): Redis {
    const client = new Redis(connection());
    toClose.push({ close: () => client.quit().then(() => undefined) });
    return new Proxy(client, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (property !== method) return typeof value === 'function' ? value.bind(target) : value;
        return async (...args: unknown[]) => {
          const failure = failures.shift();
          if (failure === 'refused') throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
          if (failure === 'redirected') {
            throw new Error(
              'Too many Cluster redirections. Last error: ReplyError: CLUSTERDOWN The cluster is down',
            );
          }
          if (failure === 'hang') return new Promise(() => undefined);
          const answer = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          if (failure === 'lost') throw new Error('Connection is closed.');
          return answer;
        };
      },
    });
  }

  it('stores an append whose answer was lost once, answering the id it got', async () => {
    const buffer = track(new RedisInboundBuffer({ redis: flaky('eval', ['lost', 'lost']) }));
    const bufferId = await buffer.append('tenant', { type: 'inbound', event: { text: 'once' } });
    const entries = await buffer.read('tenant', null, 10);
    expect(entries).toEqual([{ bufferId, frameJson: '{"type":"inbound","event":{"text":"once"}}' }]);
    // Another append is another frame.
    await buffer.append('tenant', { type: 'inbound', event: { text: 'once' } });
    expect(await buffer.size('tenant')).toBe(2);
  });

  it('says whether a refused append may have been stored, once its window is over', async () => {
    const refused = track(
      new RedisInboundBuffer({ redis: flaky('eval', Array(100).fill('refused')), failoverWindowMs: 200 }),
    );
    const started = Date.now();
    await expect(refused.append('tenant', { type: 'inbound', event: {} })).rejects.toMatchObject({
      name: 'RedisRelayError',
      code: 'redis_unavailable',
      retryable: true,
      details: { backend: 'RedisInboundBuffer', outcome: 'not_run' },
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(await refused.size('tenant')).toBe(0);
    const cutOff = track(
      new RedisInboundBuffer({ redis: flaky('eval', ['lost', 'hang']), failoverWindowMs: 200 }),
    );
    await expect(cutOff.append('tenant', { type: 'inbound', event: {} })).rejects.toMatchObject({
      code: 'redis_unavailable',
      details: { outcome: 'unknown' },
    });
    expect(await cutOff.size('tenant')).toBe(1);
    // A cluster that gave up redirecting may have run an earlier attempt: unknown, not "nothing changed".
    const redirected = track(
      new RedisInboundBuffer({ redis: flaky('eval', Array(100).fill('redirected')), failoverWindowMs: 100 }),
    );
    await expect(redirected.append('tenant', { type: 'inbound', event: {} })).rejects.toMatchObject({
      code: 'redis_unavailable',
      details: { outcome: 'unknown' },
    });
    // Other failures are not retried.
    await admin!.set('agentwire:relay:buffer:wrong-type', 'x');
    await expect(cutOff.append('wrong-type', { type: 'inbound', event: {} })).rejects.toThrow(/WRONGTYPE/);
  });

  it('retries an ack through a failover', async () => {
    const buffer = track(new RedisInboundBuffer({ redis: flaky('xdel', ['refused', 'redirected']) }));
    const bufferId = await buffer.append('tenant', { type: 'inbound', event: {} });
    expect(await buffer.ack('tenant', bufferId)).toBe(true);
    expect(await buffer.size('tenant')).toBe(0);
    // The append's token is gone once it was answered: only the stream is left.
    expect(await admin!.keys('*')).toEqual(['agentwire:relay:buffer:tenant']);
  });

  it('stops retrying once closed, with the closed error', async () => {
    const buffer = new RedisInboundBuffer({ redis: flaky('eval', Array(100).fill('refused')) });
    const appending = buffer.append('tenant', { type: 'inbound', event: {} });
    await new Promise((resolve) => setTimeout(resolve, 60));
    await buffer.close();
    await expect(appending).rejects.toMatchObject({ name: 'RelayError', code: 'buffer_closed' });
  });

  it('refuses a Redis Cluster client with its own ioredis keyPrefix', () => {
    const cluster = new Cluster([{ host: '127.0.0.1', port: 1 }], { lazyConnect: true, keyPrefix: 'mine:' });
    try {
      expect(() => new RedisInboundBuffer({ redis: cluster })).toThrow(
        expect.objectContaining({ code: 'invalid_redis_relay_option', path: 'options.redis' }),
      );
      expect(() => new RedisRelayBus({ redis: cluster })).toThrow(
        expect.objectContaining({ code: 'invalid_redis_relay_option', path: 'options.redis' }),
      );
    } finally {
      cluster.disconnect();
    }
  });

  it('refuses a failover window that is not a number of milliseconds, and a key prefix no key can share a slot with', () => {
    for (const failoverWindowMs of [-1, Number.NaN, '10']) {
      expect(
        () => new RedisInboundBuffer({ redis: connection(), failoverWindowMs: failoverWindowMs as number }),
      ).toThrow(
        expect.objectContaining({ code: 'invalid_redis_relay_option', path: 'options.failoverWindowMs' }),
      );
    }
    expect(() => new RedisInboundBuffer({ redis: connection(), keyPrefix: 'a}b:' })).toThrow(
      expect.objectContaining({ code: 'invalid_redis_relay_option', path: 'options.keyPrefix' }),
    );
  });

  it('closes a connection it made itself, and not a client passed in', async () => {
    const own = new RedisInboundBuffer({ redis: connection() });
    await own.size('tenant');
    await own.close();
    const client = new Redis(connection());
    const borrowed = new RedisInboundBuffer({ redis: client });
    await borrowed.size('tenant');
    await borrowed.close();
    expect(client.status).toBe('ready');
    await client.quit();
  });
});

describe('RedisCapabilityVault', () => {
  it('stores one hash per (session key, kind), a field per tenant, expiring with its longest binding', async () => {
    const vault = track(new RedisCapabilityVault({ redis: connection() }));
    const bind = (tenant: string, credential: string, ttl_ms: number) =>
      vault.bind({ tenant, session_key: 'agent:main:x', kind: 'k.v', credential, ttl_ms });
    await bind('t:1', 'c|1', 60_000);
    await bind('t:2', 'c2', 120_000);
    const key = 'agentwire:relay:vault-bindings:agent%3Amain%3Ax:k.v';
    const fields = await admin!.hgetall(key);
    expect(Object.keys(fields)).toEqual(['t:1', 't:2']);
    expect(fields['t:1']).toMatch(/^\d+\|c\|1$/);
    const ttl = await admin!.pttl(key);
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(120_000);
    // The credential may hold the separator; the first bar ends the expiry.
    expect(await vault.resolve('t:1', 'agent:main:x', 'k.v')).toEqual({ found: true, credential: 'c|1' });
    expect(await vault.resolve('t:3', 'agent:main:x', 'k.v')).toEqual({
      found: false,
      reason: 'tenant_mismatch',
    });
  });

  it('reads a field without a readable expiry as absent', async () => {
    const vault = track(new RedisCapabilityVault({ redis: connection() }));
    const key = 'agentwire:relay:vault-bindings:s:k';
    await admin!.hset(key, 't', 'not-a-binding');
    expect(await vault.resolve('t', 's', 'k')).toEqual({ found: false, reason: 'absent' });
    expect(await vault.revoke('t', 's', 'k')).toBe(false);
  });

  it('keeps session keys and kinds that share colons apart', async () => {
    const vault = track(new RedisCapabilityVault({ redis: connection() }));
    await vault.bind({ tenant: 't', session_key: 'a:b', kind: 'c', credential: 'first', ttl_ms: 60_000 });
    await vault.bind({ tenant: 't', session_key: 'a', kind: 'b:c', credential: 'second', ttl_ms: 60_000 });
    expect(await vault.resolve('t', 'a:b', 'c')).toEqual({ found: true, credential: 'first' });
    expect(await vault.resolve('t', 'a', 'b:c')).toEqual({ found: true, credential: 'second' });
  });

  it('rounds a fractional TTL up to a whole millisecond and caps a huge one', async () => {
    const vault = track(new RedisCapabilityVault({ redis: connection() }));
    await vault.bind({ tenant: 't', session_key: 's', kind: 'k', credential: 'c', ttl_ms: 1e300 });
    expect(await vault.resolve('t', 's', 'k')).toEqual({ found: true, credential: 'c' });
    const [seconds, micros] = await admin!.time();
    await vault.bind({ tenant: 't', session_key: 's', kind: 'k', credential: 'c', ttl_ms: 0.25 });
    const stored = await admin!.hget('agentwire:relay:vault-bindings:s:k', 't');
    const expiresAt = Number(stored?.split('|')[0]);
    const before = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    // One whole millisecond after the bind's own reading of the clock (taken after `before`).
    expect(expiresAt - before).toBeGreaterThanOrEqual(1);
    expect(expiresAt - before).toBeLessThan(1000);
  });
});
