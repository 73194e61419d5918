import { describe, expect, it } from 'vitest';
import { type CapabilityBinding, InMemoryCapabilityVault } from './vault.js';

const binding = (overrides: Partial<CapabilityBinding> = {}): CapabilityBinding => ({
  tenant: 'tenant',
  session_key: 'agent:main:discord:group:42:7',
  kind: 'discord.interaction_token',
  credential: 'secret',
  ttl_ms: 1000,
  ...overrides,
});

describe('InMemoryCapabilityVault', () => {
  it('reads a binding as absent from the moment its TTL has passed, on its clock', async () => {
    let now = 5000;
    const vault = new InMemoryCapabilityVault({ now: () => now });
    await vault.bind(binding({ ttl_ms: 1000 }));
    now = 5999;
    expect(await vault.resolve('tenant', binding().session_key, binding().kind)).toEqual({
      found: true,
      credential: 'secret',
    });
    now = 6000;
    expect(await vault.resolve('tenant', binding().session_key, binding().kind)).toEqual({
      found: false,
      reason: 'absent',
    });
  });

  it("keeps two tenants' bindings of one (session_key, kind) apart, each expiring on its own", async () => {
    let now = 0;
    const vault = new InMemoryCapabilityVault({ now: () => now });
    const { session_key, kind } = binding();
    await vault.bind(binding({ tenant: 'a', credential: 'secret-a', ttl_ms: 100 }));
    await vault.bind(binding({ tenant: 'b', credential: 'secret-b', ttl_ms: 200 }));
    expect(await vault.resolve('a', session_key, kind)).toEqual({ found: true, credential: 'secret-a' });
    expect(await vault.resolve('b', session_key, kind)).toEqual({ found: true, credential: 'secret-b' });
    expect(await vault.resolve('c', session_key, kind)).toEqual({ found: false, reason: 'tenant_mismatch' });
    now = 100;
    expect(await vault.resolve('a', session_key, kind)).toEqual({ found: false, reason: 'tenant_mismatch' });
    expect(await vault.revoke('a', session_key, kind)).toBe(false);
    expect(await vault.revoke('b', session_key, kind)).toBe(true);
    expect(await vault.resolve('a', session_key, kind)).toEqual({ found: false, reason: 'absent' });
  });

  it('keeps (session_key, kind) pairs apart even when their parts share separators', async () => {
    const vault = new InMemoryCapabilityVault();
    await vault.bind(binding({ session_key: 'a:b', kind: 'c', credential: 'first' }));
    await vault.bind(binding({ session_key: 'a', kind: 'b:c', credential: 'second' }));
    expect(await vault.resolve('tenant', 'a:b', 'c')).toEqual({ found: true, credential: 'first' });
    expect(await vault.resolve('tenant', 'a', 'b:c')).toEqual({ found: true, credential: 'second' });
  });

  it.each([
    ['ttl_ms 0', binding({ ttl_ms: 0 }), 'binding.ttl_ms'],
    ['ttl_ms Infinity', binding({ ttl_ms: Number.POSITIVE_INFINITY }), 'binding.ttl_ms'],
    ['an empty credential', binding({ credential: '' }), 'binding.credential'],
    ['a kind with a lone surrogate', binding({ kind: 'x\udc00' }), 'binding.kind'],
    ['a binding that is a string', 'binding' as never, 'binding'],
  ])('refuses %s with invalid_vault_argument', async (_, refused, path) => {
    const error = await new InMemoryCapabilityVault().bind(refused).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ name: 'RelayError', code: 'invalid_vault_argument' });
    expect(error).toMatchObject({ code: 'invalid_vault_argument', path });
  });

  it('refuses a clock that is not a function, and use after close', async () => {
    expect(() => new InMemoryCapabilityVault({ now: 5 as never })).toThrow(
      expect.objectContaining({ code: 'invalid_vault_argument' }),
    );
    const vault = new InMemoryCapabilityVault();
    await vault.close();
    await expect(vault.resolve('t', 's', 'k')).rejects.toMatchObject({ code: 'vault_closed' });
    await expect(vault.revoke('t', 's', 'k')).rejects.toMatchObject({ code: 'vault_closed' });
  });
});
