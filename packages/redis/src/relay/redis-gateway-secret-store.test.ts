// The GatewaySecretStore rules come from @agentwire/conformance's gatewaySecretStoreSuite (run by
// redis-relay-conformance.test.ts); the tests below check what only a Redis backend has: its key
// layout, what a revocation leaves in Redis, and its connections.
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RedisServerHandle, startRedisServer } from '../../test/redis-server.js';
import { RedisGatewaySecretStore } from './redis-gateway-secret-store.js';

let server: RedisServerHandle | undefined;
let admin: Redis | undefined;
const toClose: RedisGatewaySecretStore[] = [];

beforeAll(async () => {
  server = await startRedisServer();
  admin = new Redis({ host: server.host, port: server.port });
});
afterAll(async () => {
  await admin?.quit();
  await server?.stop();
});

const connection = () => ({ host: server!.host, port: server!.port });

describe('RedisGatewaySecretStore', () => {
  // Starts from an empty database.
  beforeEach(async () => {
    await admin?.flushdb();
  });
  afterEach(async () => {
    await Promise.all(toClose.splice(0).map((store) => store.close()));
  });

  /** A store on its own connection. */
  function newStore(): RedisGatewaySecretStore {
    const store = new RedisGatewaySecretStore({ redis: connection() });
    toClose.push(store);
    return store;
  }

  it('keeps a gateway in one hash under a URI-encoded key', async () => {
    await newStore().create('gw:1%', 'tenant-a');
    expect(await admin!.keys('*')).toEqual(['agentwire:relay:gateway:gw%3A1%25']);
    expect(await newStore().get('gw:1')).toBeNull();
  });

  it('removes the previous secret from the hash when a rotation drops it at once', async () => {
    const store = newStore();
    await store.create('gw-1', 'tenant-a');
    await store.rotate('gw-1', { graceMs: 60_000 });
    expect(await admin!.hkeys('agentwire:relay:gateway:gw-1')).toContain('previous');
    await store.rotate('gw-1', { graceMs: 0 });
    expect(await admin!.hkeys('agentwire:relay:gateway:gw-1')).not.toContain('previous');
  });

  it('wipes the secrets from Redis on revoke, keeping the tenant and a tombstone', async () => {
    const store = newStore();
    await store.create('gw-1', 'tenant-a');
    await store.rotate('gw-1', { graceMs: 60_000 });
    expect(await store.revoke('gw-1')).toBe(true);
    expect(await admin!.hgetall('agentwire:relay:gateway:gw-1')).toEqual({
      tenant: 'tenant-a',
      revoked: '1',
    });
    await expect(store.rotate('gw-1', { graceMs: 0 })).rejects.toMatchObject({ code: 'gateway_revoked' });
    expect(await admin!.exists('agentwire:relay:gateway:gw-1')).toBe(1);
  });

  it('refuses malformed arguments before touching Redis, and a clock that is not a function', async () => {
    const store = newStore();
    await expect(store.create('', 'tenant-a')).rejects.toMatchObject({ path: 'gatewayId' });
    await expect(store.issue('gw-1', 'x\udc00')).rejects.toMatchObject({ path: 'tenant' });
    expect(await admin!.dbsize()).toBe(0);
    expect(() => new RedisGatewaySecretStore({ redis: admin!, now: 'soon' as never })).toThrow(
      expect.objectContaining({ code: 'invalid_gateway_secret_argument' }),
    );
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
