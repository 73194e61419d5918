import { describe, expect, it } from 'vitest';
import { InMemoryEnrollmentTokenStore, InMemoryProvisionRegistry } from './enrollment-stores.js';

describe('InMemoryEnrollmentTokenStore', () => {
  it('issues distinct random tokens redeemable once, by one of two concurrent redemptions', async () => {
    const store = new InMemoryEnrollmentTokenStore();
    const token = await store.issue({ tenant: 'tenant-a', ttlMs: 1000 });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await store.issue({ tenant: 'tenant-a', ttlMs: 1000 })).not.toBe(token);
    const outcomes = await Promise.all([store.redeem(token, 'tenant-a'), store.redeem(token, 'tenant-a')]);
    expect(outcomes).toEqual([{ redeemed: true }, { redeemed: false, reason: 'used' }]);
  });

  it('expires a token from the moment its TTL has passed, then forgets it', async () => {
    let now = 5000;
    const store = new InMemoryEnrollmentTokenStore({ now: () => now });
    const token = await store.issue({ tenant: 'tenant-a', ttlMs: 1000 });
    now = 6000;
    expect(await store.redeem(token, 'tenant-a')).toEqual({ redeemed: false, reason: 'expired' });
    expect(await store.redeem(token, 'tenant-a')).toEqual({ redeemed: false, reason: 'unknown' });
  });

  it('refuses a token to another tenant without spending it', async () => {
    const store = new InMemoryEnrollmentTokenStore();
    const token = await store.issue({ tenant: 'tenant-a', ttlMs: 1000 });
    expect(await store.redeem(token, 'tenant-b')).toEqual({ redeemed: false, reason: 'tenant_mismatch' });
    expect(await store.redeem(token, 'tenant-a')).toEqual({ redeemed: true });
  });

  it.each([
    ['a zero TTL', { tenant: 't', ttlMs: 0 }, 'grant.ttlMs'],
    ['an infinite TTL', { tenant: 't', ttlMs: Number.POSITIVE_INFINITY }, 'grant.ttlMs'],
    ['an empty tenant', { tenant: '', ttlMs: 1 }, 'grant.tenant'],
    ['no grant', undefined, 'grant.tenant'],
  ])('refuses to issue with %s', async (_name, grant, path) => {
    await expect(new InMemoryEnrollmentTokenStore().issue(grant as never)).rejects.toMatchObject({
      code: 'invalid_enrollment_argument',
      path,
    });
  });

  it('refuses a malformed token or tenant on redeem, and a clock that is not a function', async () => {
    const store = new InMemoryEnrollmentTokenStore();
    await expect(store.redeem(42 as never, 'tenant-a')).rejects.toThrow(
      expect.objectContaining({ code: 'invalid_enrollment_argument' }),
    );
    await expect(store.redeem('token', 'x\ud800')).rejects.toMatchObject({ path: 'tenant' });
    expect(() => new InMemoryEnrollmentTokenStore({ now: 1 as never })).toThrow(
      expect.objectContaining({ code: 'invalid_enrollment_argument' }),
    );
  });
});

describe('InMemoryProvisionRegistry', () => {
  const registration = (gatewayId: string, tenant: string, routeKeys: string[]) => ({
    tenant,
    subject: 's',
    gatewayId,
    platform: 'discord',
    botId: '',
    gatewayEndpoint: '',
    routeKeys,
  });

  it('releases the route keys a gateway no longer declares, and moves keys within a tenant', async () => {
    const registry = new InMemoryProvisionRegistry();
    await registry.register(registration('gw-1', 'tenant-a', ['g1', 'g2']));
    expect(await registry.register(registration('gw-1', 'tenant-a', ['g2']))).toEqual(['g2']);
    expect(await registry.route('discord', 'g1')).toBeNull();
    expect(await registry.register(registration('gw-2', 'tenant-a', ['g2']))).toEqual(['g2']);
    expect(await registry.route('discord', 'g2')).toEqual({ tenant: 'tenant-a', gatewayId: 'gw-2' });
    // gw-1 re-declaring without g2 does not release what gw-2 now holds.
    await registry.register(registration('gw-1', 'tenant-a', []));
    expect(await registry.route('discord', 'g2')).toEqual({ tenant: 'tenant-a', gatewayId: 'gw-2' });
    expect(await registry.route('telegram', 'g2')).toBeNull();
  });

  it('never hands a route key to another tenant', async () => {
    const registry = new InMemoryProvisionRegistry();
    await registry.register(registration('gw-1', 'tenant-a', ['g1']));
    expect(await registry.register(registration('gw-b', 'tenant-b', ['g1', 'g3']))).toEqual(['g3']);
    expect((await registry.get('gw-b', 'discord'))?.routeKeys).toEqual(['g3']);
    expect(await registry.route('discord', 'g1')).toEqual({ tenant: 'tenant-a', gatewayId: 'gw-1' });
  });
});
