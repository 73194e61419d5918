// The behaviour every GatewaySecretStore keeps, as one vitest suite: the in-memory store's test runs
// it here; another backend's test can call it with its own factory.
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { authenticatorFor, type GatewaySecretStore } from './secrets.js';

/** Makes a fresh, empty store that reads `now` (milliseconds) as its clock. */
export type GatewaySecretStoreFactory = (
  now: () => number,
) => GatewaySecretStore | Promise<GatewaySecretStore>;

const BASE64URL_256_BITS = /^[A-Za-z0-9_-]{43}$/;

/** Registers the shared behaviour tests of a {@link GatewaySecretStore} under `describe(name)`. */
export function describeGatewaySecretStoreBehaviour(name: string, factory: GatewaySecretStoreFactory): void {
  describe(`${name}: GatewaySecretStore behaviour`, () => {
    let clock = 1_750_000_000_000;
    const open: GatewaySecretStore[] = [];
    const newStore = async (): Promise<GatewaySecretStore> => {
      clock = 1_750_000_000_000;
      const store = await factory(() => clock);
      open.push(store);
      return store;
    };
    afterEach(async () => {
      await Promise.all(open.splice(0).map((store) => store.close()));
    });

    it('creates a gateway with a random 256-bit base64url secret and delivery key, and reads it back', async () => {
      const store = await newStore();
      const created = await store.create('gw-1', 'tenant-a');
      const other = await store.create('gw-2', 'tenant-a');
      expect(created).toMatchObject({
        gatewayId: 'gw-1',
        tenant: 'tenant-a',
        revoked: false,
        rotationEndsAt: null,
      });
      expect(created.secrets).toHaveLength(1);
      expect(created.secrets[0]).toMatch(BASE64URL_256_BITS);
      expect(created.deliveryKey).toMatch(BASE64URL_256_BITS);
      expect(
        new Set([created.secrets[0], created.deliveryKey, other.secrets[0], other.deliveryKey]).size,
      ).toBe(4);
      const read = await store.get('gw-1');
      expect(read?.secrets).toEqual(created.secrets);
      expect(read?.deliveryKey).toBe(created.deliveryKey);
      expect(await store.get('gw-unknown')).toBeNull();
    });

    it('refuses to create an id it holds, live or revoked, and lets only one of two racing creates win', async () => {
      const store = await newStore();
      await store.create('gw-1', 'tenant-a');
      await expect(store.create('gw-1', 'tenant-b')).rejects.toMatchObject({ code: 'gateway_exists' });
      await store.revoke('gw-1');
      await expect(store.create('gw-1', 'tenant-a')).rejects.toMatchObject({ code: 'gateway_exists' });
      const raced = await Promise.allSettled([
        store.create('gw-2', 'tenant-a'),
        store.create('gw-2', 'tenant-b'),
      ]);
      expect(raced.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      const winner = raced.find((outcome) => outcome.status === 'fulfilled')?.value;
      expect((await store.get('gw-2'))?.secrets).toEqual(winner?.secrets);
    });

    it('issues fresh credentials to the same tenant (lifting a revocation) and refuses another tenant', async () => {
      const store = await newStore();
      const first = await store.issue('gw-1', 'tenant-a');
      expect(first.secrets).toHaveLength(1);
      const again = await store.issue('gw-1', 'tenant-a');
      expect(again.secrets).toHaveLength(1);
      expect(again.secrets[0]).not.toBe(first.secrets[0]);
      expect(again.deliveryKey).not.toBe(first.deliveryKey);
      await store.revoke('gw-1');
      const revived = await store.issue('gw-1', 'tenant-a');
      expect(revived).toMatchObject({ revoked: false });
      expect(revived.secrets).toHaveLength(1);
      await expect(store.issue('gw-1', 'tenant-b')).rejects.toMatchObject({
        code: 'gateway_tenant_mismatch',
      });
      expect((await store.get('gw-1'))?.secrets).toEqual(revived.secrets);
    });

    it('keeps the old secret second in the verify list until the grace window ends on its clock', async () => {
      const store = await newStore();
      const [old] = (await store.create('gw-1', 'tenant-a')).secrets;
      const rotated = await store.rotate('gw-1', { graceMs: 60_000 });
      const [fresh] = rotated.secrets;
      expect(rotated.secrets).toEqual([fresh, old]);
      expect(fresh).not.toBe(old);
      expect(fresh).toMatch(BASE64URL_256_BITS);
      expect(rotated.rotationEndsAt).toBe(clock + 60_000);
      clock += 59_999;
      expect((await store.get('gw-1'))?.secrets).toEqual([fresh, old]);
      clock += 1;
      const ended = await store.get('gw-1');
      expect(ended?.secrets).toEqual([fresh]);
      expect(ended?.rotationEndsAt).toBeNull();
    });

    it('drops the old secret at once with graceMs 0, and keeps only the latest one on a second rotation', async () => {
      const store = await newStore();
      await store.create('gw-1', 'tenant-a');
      const immediate = await store.rotate('gw-1', { graceMs: 0 });
      expect(immediate.secrets).toHaveLength(1);
      const [second] = (await store.rotate('gw-1', { graceMs: 1000 })).secrets;
      const third = await store.rotate('gw-1', { graceMs: 1000 });
      expect(third.secrets).toHaveLength(2);
      expect(third.secrets[1]).toBe(second);
    });

    it('refuses to rotate an unknown or revoked gateway, or with an unusable grace window', async () => {
      const store = await newStore();
      await expect(store.rotate('gw-unknown', { graceMs: 0 })).rejects.toMatchObject({
        code: 'gateway_not_found',
      });
      await store.create('gw-1', 'tenant-a');
      for (const graceMs of [-1, Number.NaN, Number.POSITIVE_INFINITY, '5']) {
        await expect(store.rotate('gw-1', { graceMs } as never)).rejects.toMatchObject({
          code: 'invalid_gateway_secret_argument',
          path: 'options.graceMs',
        });
      }
      await expect(store.rotate('gw-1', undefined as never)).rejects.toMatchObject({
        code: 'invalid_gateway_secret_argument',
      });
      await store.revoke('gw-1');
      await expect(store.rotate('gw-1', { graceMs: 0 })).rejects.toMatchObject({ code: 'gateway_revoked' });
    });

    it('revokes once: the record stays, without secrets, and the authenticator answers null', async () => {
      const store = await newStore();
      const authenticate = authenticatorFor(store);
      const created = await store.create('gw-1', 'tenant-a');
      await store.rotate('gw-1', { graceMs: 60_000 });
      expect(await authenticate('gw-1')).toEqual({
        tenant: 'tenant-a',
        secrets: [expect.any(String), created.secrets[0]],
      });
      expect(await store.revoke('gw-1')).toBe(true);
      expect(await store.revoke('gw-1')).toBe(false);
      expect(await store.revoke('gw-unknown')).toBe(false);
      const revoked = await store.get('gw-1');
      expect(revoked).toMatchObject({
        gatewayId: 'gw-1',
        tenant: 'tenant-a',
        revoked: true,
        rotationEndsAt: null,
      });
      expect(revoked?.secrets).toEqual([]);
      expect(revoked?.deliveryKey).toBe('');
      expect(await authenticate('gw-1')).toBeNull();
      expect(await authenticate('gw-unknown')).toBeNull();
      expect(await authenticate('')).toBeNull();
    });

    it('keeps ids that share separators apart', async () => {
      const store = await newStore();
      const ids = ['a:b', 'a%3Ab', 'a', 'a:b:c', 'a b', 'ü/ß'];
      for (const id of ids) await store.create(id, `tenant of ${id}`);
      for (const id of ids) expect((await store.get(id))?.tenant).toBe(`tenant of ${id}`);
    });

    it('never shows a secret in JSON, strings or inspect output of its records', async () => {
      const store = await newStore();
      await store.create('gw-1', 'tenant-a');
      const record = await store.rotate('gw-1', { graceMs: 1000 });
      const shown = [
        JSON.stringify(record),
        String(record),
        inspect(record, { depth: 5 }),
        JSON.stringify([record]),
      ];
      for (const text of shown) {
        for (const secret of [...record.secrets, record.deliveryKey]) expect(text).not.toContain(secret);
      }
      expect(JSON.parse(JSON.stringify(record))).toEqual({
        gatewayId: 'gw-1',
        tenant: 'tenant-a',
        secrets: ['[redacted]', '[redacted]'],
        deliveryKey: '[redacted]',
        revoked: false,
        rotationEndsAt: clock + 1000,
      });
    });

    it.each([
      ['an empty gateway id', '', 'tenant-a', 'gatewayId'],
      ['a gateway id that is not a string', 7, 'tenant-a', 'gatewayId'],
      ['a tenant with a lone surrogate', 'gw-1', 'x\ud800', 'tenant'],
    ])('refuses %s with invalid_gateway_secret_argument', async (_name, gatewayId, tenant, path) => {
      const store = await newStore();
      for (const call of [store.create.bind(store), store.issue.bind(store)]) {
        await expect(call(gatewayId as string, tenant)).rejects.toMatchObject({
          code: 'invalid_gateway_secret_argument',
          path,
        });
      }
    });

    it('refuses use after close', async () => {
      const store = await newStore();
      await store.close();
      await expect(store.get('gw-1')).rejects.toMatchObject({ code: 'gateway_secret_store_closed' });
      await expect(store.create('gw-1', 'tenant-a')).rejects.toMatchObject({
        code: 'gateway_secret_store_closed',
      });
    });
  });
}
