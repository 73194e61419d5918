import { isKeyString } from '../buffer/key-string.js';
import type { GatewayAuthenticator, GatewaySecretStore } from './gateway-secret-store.js';

/**
 * The `authenticate` callback of `createRelayServer` backed by a {@link GatewaySecretStore}: the
 * gateway's tenant and current verify list, or `null` for an id that is unknown, revoked or not a
 * well-formed name (so the upgrade is closed with 4401 `unauthorized`). Store failures propagate (the
 * server closes with 1011).
 *
 * @example
 * ```ts
 * const secrets = new InMemoryGatewaySecretStore();
 * const server = await createRelayServer({ authenticate: authenticatorFor(secrets), platforms });
 * ```
 */
export function authenticatorFor(store: GatewaySecretStore): GatewayAuthenticator {
  return async (gatewayId) => {
    if (!isKeyString(gatewayId)) return null;
    const record = await store.get(gatewayId);
    if (record === null || record.revoked || record.secrets.length === 0) return null;
    return { tenant: record.tenant, secrets: record.secrets };
  };
}
