// The in-memory store runs the full shared behaviour suite of @agentwire/relay
// (src/secrets/secret-store-behaviour.test-support.ts); this package's tests reach @agentwire/relay
// only through its exports, so the cases that matter for a Redis backend are repeated here.
import { authenticatorFor } from '@agentwire/relay';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServerHandle, startRedisServer } from '../../test/redis-server.js';
import { RedisGatewaySecretStore } from './redis-gateway-secret-store.js';

let server: RedisServerHandle | undefined;
let admin: Redis | undefined;
const toClose: RedisGatewaySecretStore[] = [];
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

/** A store on its own connection, reading the test clock. */
function newStore(): RedisGatewaySecretStore {
  const store = new RedisGatewaySecretStore({
    redis: { host: server!.host, port: server!.port },
    now: () => clock,
  });
  toClose.push(store);
  return store;
}

const BASE64URL_256_BITS = /^[A-Za-z0-9_-]{43}$/;

describe('RedisGatewaySecretStore', () => {
  it('creates a gateway that another instance reads, in one hash under a URI-encoded key', async () => {
    const created = await newStore().create('gw:1%', 'tenant-a');
    expect(created.secrets[0]).toMatch(BASE64URL_256_BITS);
    expect(created.deliveryKey).toMatch(BASE64URL_256_BITS);
    const read = await newStore().get('gw:1%');
    expect(read).toMatchObject({
      gatewayId: 'gw:1%',
      tenant: 'tenant-a',
      revoked: false,
      rotationEndsAt: null,
    });
    expect(read?.secrets).toEqual(created.secrets);
    expect(read?.deliveryKey).toBe(created.deliveryKey);
    expect(await admin!.keys('*')).toEqual(['agentwire:relay:gateway:gw%3A1%25']);
    expect(await newStore().get('gw:1')).toBeNull();
  });

  it('lets exactly one of two instances racing to create an id win', async () => {
    const raced = await Promise.allSettled([
      newStore().create('gw-1', 'tenant-a'),
      newStore().create('gw-1', 'tenant-b'),
    ]);
    const won = raced.filter((outcome) => outcome.status === 'fulfilled');
    expect(won).toHaveLength(1);
    expect(raced.find((outcome) => outcome.status === 'rejected')?.reason).toMatchObject({
      name: 'RelayError',
      code: 'gateway_exists',
    });
    expect((await newStore().get('gw-1'))?.secrets).toEqual(won[0]?.value.secrets);
  });

  it('issues fresh credentials to the same tenant, lifting a revocation, and refuses another tenant', async () => {
    const store = newStore();
    const first = await store.issue('gw-1', 'tenant-a');
    await store.rotate('gw-1', { graceMs: 60_000 });
    await store.revoke('gw-1');
    const revived = await store.issue('gw-1', 'tenant-a');
    expect(revived).toMatchObject({ revoked: false, rotationEndsAt: null });
    expect(revived.secrets).toHaveLength(1);
    expect(revived.secrets[0]).not.toBe(first.secrets[0]);
    await expect(store.issue('gw-1', 'tenant-b')).rejects.toMatchObject({ code: 'gateway_tenant_mismatch' });
    expect((await store.get('gw-1'))?.secrets).toEqual(revived.secrets);
  });

  it('keeps the old secret until the grace window ends on the store clock, and only the latest one', async () => {
    const store = newStore();
    const [old] = (await store.create('gw-1', 'tenant-a')).secrets;
    const rotated = await store.rotate('gw-1', { graceMs: 60_000 });
    const [fresh] = rotated.secrets;
    expect(rotated.secrets).toEqual([fresh, old]);
    expect(rotated.rotationEndsAt).toBe(clock + 60_000);
    clock += 59_999;
    expect((await newStore().get('gw-1'))?.secrets).toEqual([fresh, old]);
    clock += 1;
    expect((await store.get('gw-1'))?.secrets).toEqual([fresh]);
    const third = await store.rotate('gw-1', { graceMs: 1000 });
    expect(third.secrets).toEqual([expect.any(String), fresh]);
    const immediate = await store.rotate('gw-1', { graceMs: 0 });
    expect(immediate.secrets).toHaveLength(1);
    expect(await admin!.hkeys('agentwire:relay:gateway:gw-1')).not.toContain('previous');
  });

  it('refuses to rotate an unknown or revoked gateway, or with an unusable window', async () => {
    const store = newStore();
    await expect(store.rotate('gw-1', { graceMs: 0 })).rejects.toMatchObject({ code: 'gateway_not_found' });
    await store.create('gw-1', 'tenant-a');
    await expect(store.rotate('gw-1', { graceMs: -1 })).rejects.toMatchObject({
      code: 'invalid_gateway_secret_argument',
    });
    await store.revoke('gw-1');
    await expect(store.rotate('gw-1', { graceMs: 0 })).rejects.toMatchObject({ code: 'gateway_revoked' });
    expect(await admin!.exists('agentwire:relay:gateway:gw-1')).toBe(1);
  });

  it('revokes once, wiping the secrets from Redis; the authenticator then answers null', async () => {
    const store = newStore();
    const authenticate = authenticatorFor(store);
    const { secrets } = await store.create('gw-1', 'tenant-a');
    expect(await authenticate('gw-1')).toEqual({ tenant: 'tenant-a', secrets });
    expect(await store.revoke('gw-1')).toBe(true);
    expect(await newStore().revoke('gw-1')).toBe(false);
    expect(await store.revoke('gw-unknown')).toBe(false);
    expect(await admin!.hgetall('agentwire:relay:gateway:gw-1')).toEqual({
      tenant: 'tenant-a',
      revoked: '1',
    });
    const revoked = await store.get('gw-1');
    expect(revoked).toMatchObject({ revoked: true, tenant: 'tenant-a' });
    expect(revoked?.secrets).toEqual([]);
    expect(await authenticate('gw-1')).toBeNull();
    await expect(store.create('gw-1', 'tenant-a')).rejects.toMatchObject({ code: 'gateway_exists' });
  });

  it('never shows a secret in JSON or string forms of its records', async () => {
    const record = await newStore().create('gw-1', 'tenant-a');
    for (const text of [JSON.stringify(record), String(record)]) {
      expect(text).not.toContain(record.secrets[0]);
      expect(text).not.toContain(record.deliveryKey);
    }
  });

  it('refuses malformed arguments before touching Redis, and use after close', async () => {
    const store = newStore();
    await expect(store.create('', 'tenant-a')).rejects.toMatchObject({ path: 'gatewayId' });
    await expect(store.issue('gw-1', 'x\udc00')).rejects.toMatchObject({ path: 'tenant' });
    expect(await admin!.dbsize()).toBe(0);
    expect(() => new RedisGatewaySecretStore({ redis: admin!, now: 'soon' as never })).toThrow(
      expect.objectContaining({ code: 'invalid_gateway_secret_argument' }),
    );
    await store.close();
    await expect(store.get('gw-1')).rejects.toMatchObject({ code: 'gateway_secret_store_closed' });
  });

  it('leaves a client passed in open', async () => {
    const shared = admin!.duplicate();
    const store = new RedisGatewaySecretStore({ redis: shared });
    await store.create('gw-1', 'tenant-a');
    await store.close();
    expect(await shared.ping()).toBe('PONG');
    await shared.quit();
  });
});
