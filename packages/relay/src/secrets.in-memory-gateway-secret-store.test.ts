import { describe, expect, it } from 'vitest';
import { authenticatorFor, InMemoryGatewaySecretStore } from './secrets.js';
import type { RelayServerOptions } from './server/index.js';

// The GatewaySecretStore rules are @agentwire/conformance's gatewaySecretStoreSuite, which that
// package's tests run against this store; what is left here is particular to the in-memory store and
// to authenticatorFor.

describe('InMemoryGatewaySecretStore', () => {
  it('refuses a clock that is not a function', () => {
    expect(() => new InMemoryGatewaySecretStore({ now: 5 as never })).toThrow(
      expect.objectContaining({ code: 'invalid_gateway_secret_argument' }),
    );
  });

  it('gives the relay server an authenticate callback of its own type', async () => {
    const store = new InMemoryGatewaySecretStore();
    const authenticate: RelayServerOptions['authenticate'] = authenticatorFor(store);
    const { secrets } = await store.create('gw-1', 'tenant-a');
    expect(await authenticate('gw-1')).toEqual({ tenant: 'tenant-a', secrets });
  });

  it('propagates a store failure out of the authenticator', async () => {
    const store = new InMemoryGatewaySecretStore();
    await store.close();
    await expect(authenticatorFor(store)('gw-1')).rejects.toMatchObject({
      code: 'gateway_secret_store_closed',
    });
  });
});
