import { createHash } from 'node:crypto';
import type { ProvisionRegistration } from '@agentwire/relay/edge';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServerHandle, startRedisServer } from '../../test/redis-server.js';
import { RedisEnrollmentTokenStore, RedisPolicyStore, RedisProvisionRegistry } from './redis-edge-stores.js';

let server: RedisServerHandle | undefined;
let admin: Redis | undefined;
const toClose: { close(): Promise<void> }[] = [];
let clock = 1_750_000_000_000;

beforeAll(async () => {
  server = await startRedisServer();
  admin = new Redis({ host: server.host, port: server.port });
});
afterEach(async () => {
  await Promise.all(toClose.splice(0).map((store) => store.close()));
  await admin?.flushdb();
  clock = 1_750_000_000_000;
});
afterAll(async () => {
  await admin?.quit();
  await server?.stop();
});

const connection = () => ({ host: server!.host, port: server!.port });
function track<T extends { close(): Promise<void> }>(store: T): T {
  toClose.push(store);
  return store;
}
const tokens = (options: { expiredRetentionMs?: number } = {}) =>
  track(new RedisEnrollmentTokenStore({ redis: connection(), now: () => clock, ...options }));

function registration(tenant: string, gatewayId: string, routeKeys: string[]): ProvisionRegistration {
  return { tenant, subject: 's', gatewayId, platform: 'discord', botId: '', gatewayEndpoint: '', routeKeys };
}

/** Everything in the database as text: keys, and the fields and values of every hash and string. */
async function dump(): Promise<string> {
  const parts: string[] = [];
  for (const key of await admin!.keys('*')) {
    const type = await admin!.type(key);
    parts.push(
      key,
      type === 'hash' ? JSON.stringify(await admin!.hgetall(key)) : String(await admin!.get(key)),
    );
  }
  return parts.join('\n');
}

describe('RedisEnrollmentTokenStore', () => {
  it('keeps only the digest of a token: a dump of Redis holds no redeemable token', async () => {
    const token = await tokens().issue({ tenant: 'tenant-a', ttlMs: 60_000 });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const digest = createHash('sha256').update(token).digest('base64url');
    expect(await admin!.keys('*')).toEqual([`agentwire:relay:enrollment-token:${digest}`]);
    expect(await dump()).not.toContain(token);
    expect(await admin!.hgetall(`agentwire:relay:enrollment-token:${digest}`)).toEqual({
      tenant: 'tenant-a',
      expiresAt: String(clock + 60_000),
      used: '0',
    });
    // What a dump holds is not a token: presenting the digest redeems nothing.
    expect(await tokens().redeem(digest, 'tenant-a')).toEqual({ redeemed: false, reason: 'unknown' });
    expect(await tokens().redeem(token, 'tenant-a')).toEqual({ redeemed: true });
  });

  it('sets the Redis expiry of a token to its TTL plus the retention, rounded up, and redeeming keeps it', async () => {
    const token = await tokens({ expiredRetentionMs: 30_000 }).issue({ tenant: 'tenant-a', ttlMs: 60_000.5 });
    const [key] = await admin!.keys('*');
    const pttl = await admin!.pttl(key!);
    expect(pttl).toBeGreaterThan(60_000);
    expect(pttl).toBeLessThanOrEqual(90_001);
    await tokens().redeem(token, 'tenant-a');
    expect(await admin!.pttl(key!)).toBeGreaterThan(60_000);
  });

  it('answers expired once, then unknown, like the in-memory store; a token Redis dropped reads unknown', async () => {
    const store = tokens();
    const token = await store.issue({ tenant: 'tenant-a', ttlMs: 1000 });
    clock += 1000;
    expect(await tokens().redeem(token, 'tenant-b')).toEqual({ redeemed: false, reason: 'expired' });
    expect(await store.redeem(token, 'tenant-a')).toEqual({ redeemed: false, reason: 'unknown' });
    expect(await admin!.dbsize()).toBe(0);
    const dropped = await store.issue({ tenant: 'tenant-a', ttlMs: 1000 });
    await admin!.flushdb();
    expect(await store.redeem(dropped, 'tenant-a')).toEqual({ redeemed: false, reason: 'unknown' });
  });

  it('lets exactly one of many redemptions racing on separate connections win', async () => {
    const token = await tokens().issue({ tenant: 'tenant-a', ttlMs: 60_000 });
    const instances = Array.from({ length: 6 }, () => tokens());
    await Promise.all(instances.map((instance) => instance.redeem('warm-up', 'tenant-a')));
    const outcomes = await Promise.all(instances.map((instance) => instance.redeem(token, 'tenant-a')));
    expect(outcomes.filter((outcome) => outcome.redeemed)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.redeemed && outcome.reason === 'used')).toHaveLength(5);
  });

  it('refuses malformed arguments and options with typed errors, before touching Redis', async () => {
    const store = tokens();
    await expect(store.issue(undefined as never)).rejects.toMatchObject({ path: 'grant.tenant' });
    await expect(store.issue({ tenant: 'x\ud800', ttlMs: 1 })).rejects.toMatchObject({
      code: 'invalid_enrollment_argument',
    });
    await expect(store.issue({ tenant: 't', ttlMs: Number.NaN })).rejects.toMatchObject({
      code: 'invalid_enrollment_argument',
      path: 'grant.ttlMs',
    });
    await expect(store.redeem(42 as never, 't')).rejects.toMatchObject({ path: 'token' });
    await expect(store.redeem('token', null as never)).rejects.toMatchObject({ path: 'tenant' });
    expect(await admin!.dbsize()).toBe(0);
    expect(() => new RedisEnrollmentTokenStore({ redis: admin!, now: 5 as never })).toThrow(
      expect.objectContaining({ code: 'invalid_enrollment_argument' }),
    );
    for (const expiredRetentionMs of [-1, Number.POSITIVE_INFINITY, '1' as never]) {
      expect(() => new RedisEnrollmentTokenStore({ redis: admin!, expiredRetentionMs })).toThrow(
        expect.objectContaining({ code: 'invalid_redis_relay_option' }),
      );
    }
    expect(() => new RedisEnrollmentTokenStore(undefined as never)).toThrow(
      expect.objectContaining({ code: 'invalid_redis_relay_option' }),
    );
  });
});

describe('RedisProvisionRegistry', () => {
  it('keeps a platform in two hashes under one cluster hash tag, URI-encoding names', async () => {
    const registry = track(new RedisProvisionRegistry({ redis: connection(), keyPrefix: 'p:' }));
    const declared = { ...registration('tenant:a', 'gw:1', ['g{1}', 'g1']), platform: 'dis:cord{x}' };
    expect(await registry.register(declared)).toEqual(['g{1}', 'g1']);
    expect((await admin!.keys('*')).sort()).toEqual([
      'p:provision:{dis%3Acord%7Bx%7D}:registrations',
      'p:provision:{dis%3Acord%7Bx%7D}:routes',
    ]);
    expect(await admin!.hgetall('p:provision:{dis%3Acord%7Bx%7D}:routes')).toEqual({
      'g{1}': '["tenant:a","gw:1"]',
      g1: '["tenant:a","gw:1"]',
    });
    expect(await registry.get('gw:1', 'dis:cord{x}')).toEqual(declared);
  });

  it('round-trips text that Lua re-encodes: quotes, slashes, control characters and astral code points', async () => {
    const registry = track(new RedisProvisionRegistry({ redis: connection() }));
    const keys = ['a"b', 'c\\d/e', 'tab\tnew\nline\u0001', '🦊-é', '\u2028'];
    const declared = {
      ...registration('t', 'gw-1', keys),
      displayName: '"🦊"\n',
      wakeUrl: 'https://w/a?b=1',
    };
    expect(await registry.register(declared)).toEqual(keys);
    expect(await track(new RedisProvisionRegistry({ redis: connection() })).get('gw-1', 'discord')).toEqual(
      declared,
    );
    // The previous keys are read back inside the script on the next register and released.
    expect(await registry.register(registration('t', 'gw-1', []))).toEqual([]);
    for (const key of keys) expect(await registry.route('discord', key)).toBeNull();
  });

  it('stores only the interface fields of a registration', async () => {
    const registry = track(new RedisProvisionRegistry({ redis: connection() }));
    await registry.register({ ...registration('t', 'gw-1', []), secret: 'not-for-redis' } as never);
    expect(await dump()).not.toContain('not-for-redis');
    expect(await registry.get('gw-1', 'discord')).toEqual(registration('t', 'gw-1', []));
  });

  it('refuses malformed registrations and lookups with typed errors, before touching Redis', async () => {
    const registry = track(new RedisProvisionRegistry({ redis: connection() }));
    const valid = registration('t', 'gw-1', ['g1']);
    const refusals: [unknown, string][] = [
      [null, 'registration'],
      [{ ...valid, tenant: '' }, 'registration.tenant'],
      [{ ...valid, routeKeys: 'g1' }, 'registration.routeKeys'],
      [{ ...valid, routeKeys: ['g1', ''] }, 'registration.routeKeys[1]'],
      [{ ...valid, botId: 7 }, 'registration.botId'],
      [{ ...valid, displayName: 'x\udc00' }, 'registration.displayName'],
      [{ ...valid, instanceId: '' }, 'registration.instanceId'],
    ];
    for (const [value, path] of refusals) {
      await expect(registry.register(value as never)).rejects.toMatchObject({
        name: 'RelayError',
        code: 'invalid_enrollment_argument',
        path,
      });
    }
    await expect(registry.get('', 'discord')).rejects.toMatchObject({ path: 'gatewayId' });
    await expect(registry.route('discord', undefined as never)).rejects.toMatchObject({ path: 'routeKey' });
    expect(await admin!.dbsize()).toBe(0);
  });

  it('refuses records another writer left under its keys', async () => {
    const registry = track(new RedisProvisionRegistry({ redis: connection() }));
    await admin!.hset('agentwire:relay:provision:{discord}:registrations', 'gw-1', '{"routeKeys":[]}');
    await admin!.hset('agentwire:relay:provision:{discord}:routes', 'g1', 'not json', 'g2', '[1, 2]');
    await expect(registry.get('gw-1', 'discord')).rejects.toMatchObject({
      name: 'RedisRelayError',
      code: 'corrupt_edge_record',
      path: 'registration',
    });
    await expect(registry.route('discord', 'g1')).rejects.toMatchObject({ code: 'corrupt_edge_record' });
    await expect(registry.route('discord', 'g2')).rejects.toMatchObject({ path: 'route[0]' });
  });
});

describe('RedisPolicyStore', () => {
  it('keeps one JSON string per (gateway, platform) under URI-encoded names, with only the interface fields', async () => {
    const store = track(new RedisPolicyStore({ redis: connection() }));
    const policy = {
      tenant: 'tenant:a',
      gatewayId: 'gw:1',
      platform: 'discord',
      requireAddress: true,
      freeResponseScopes: ['c1'],
      allowOtherBots: false,
    };
    await store.put({ ...policy, extra: 'dropped' } as never);
    expect(await admin!.keys('*')).toEqual(['agentwire:relay:policy:gw%3A1:discord']);
    expect(JSON.parse((await admin!.get('agentwire:relay:policy:gw%3A1:discord'))!)).toEqual(policy);
    expect(await store.get('gw:1', 'discord')).toEqual(policy);
  });

  it('refuses malformed policies and stored garbage with typed errors', async () => {
    const store = track(new RedisPolicyStore({ redis: connection() }));
    const policy = {
      tenant: 't',
      gatewayId: 'gw-1',
      platform: 'discord',
      requireAddress: false,
      freeResponseScopes: [],
      allowOtherBots: false,
    };
    await expect(store.put({ ...policy, requireAddress: 'yes' } as never)).rejects.toMatchObject({
      path: 'policy.requireAddress',
    });
    await expect(store.put({ ...policy, freeResponseScopes: [''] })).rejects.toMatchObject({
      path: 'policy.freeResponseScopes[0]',
    });
    await expect(store.get('gw-1', '')).rejects.toMatchObject({ code: 'invalid_enrollment_argument' });
    expect(await admin!.dbsize()).toBe(0);
    await admin!.set('agentwire:relay:policy:gw-1:discord', '{"tenant":"t"');
    await expect(store.get('gw-1', 'discord')).rejects.toMatchObject({
      name: 'RedisRelayError',
      code: 'corrupt_edge_record',
    });
    await admin!.set('agentwire:relay:policy:gw-1:discord', JSON.stringify({ ...policy, allowOtherBots: 1 }));
    await expect(store.get('gw-1', 'discord')).rejects.toMatchObject({ path: 'policy.allowOtherBots' });
  });
});

describe('the Redis edge stores', () => {
  it('refuse use after close with edge_store_closed, and leave a client passed in open', async () => {
    const shared = admin!.duplicate();
    const stores = [
      new RedisEnrollmentTokenStore({ redis: shared }),
      new RedisProvisionRegistry({ redis: shared }),
      new RedisPolicyStore({ redis: shared }),
    ] as const;
    await stores[0].issue({ tenant: 't', ttlMs: 1000 });
    for (const store of stores) {
      await store.close();
      await store.close();
    }
    await expect(stores[0].redeem('x', 't')).rejects.toMatchObject({ code: 'edge_store_closed' });
    await expect(stores[1].route('discord', 'g1')).rejects.toMatchObject({ code: 'edge_store_closed' });
    await expect(stores[2].get('gw-1', 'discord')).rejects.toThrow('the RedisPolicyStore is closed');
    expect(await shared.ping()).toBe('PONG');
    await shared.quit();
  });

  it('disconnect a connection they opened themselves', async () => {
    const registry = new RedisProvisionRegistry({ redis: connection() });
    await registry.register(registration('t', 'gw-1', ['g1']));
    const before = Number((await admin!.info('clients')).match(/connected_clients:(\d+)/)![1]);
    await registry.close();
    const after = Number((await admin!.info('clients')).match(/connected_clients:(\d+)/)![1]);
    expect(after).toBe(before - 1);
  });
});
