// Shared by this folder's tests (not exported): two gateways of two tenants, their bearer headers,
// and the `authenticate` callback that knows them.
import { mintRelayToken } from '../auth.js';
import type { GatewayCredentials } from '../server/platform-adapter.js';

export const SECRET_A = 'secret-of-gateway-a-0123456789abcdef';
export const SECRET_B = 'secret-of-gateway-b-0123456789abcdef';
export const GATEWAY_A = 'gw-a';
export const GATEWAY_B = 'gw-b';
export const TENANT_A = 'tenant-a';
export const TENANT_B = 'tenant-b';

const gateways = new Map<string, GatewayCredentials>([
  [GATEWAY_A, { tenant: TENANT_A, secrets: [SECRET_A] }],
  [GATEWAY_B, { tenant: TENANT_B, secrets: [SECRET_B] }],
]);

export const authenticate = (gatewayId: string): GatewayCredentials | null => gateways.get(gatewayId) ?? null;

/** `Authorization: Bearer …` for a gateway, minted at `now` (unix seconds) with `ttlSeconds`. */
export function bearer(
  gatewayId = GATEWAY_A,
  secret = SECRET_A,
  ttlSeconds = 300,
  now?: number,
): { authorization: string } {
  return { authorization: `Bearer ${mintRelayToken(gatewayId, secret, { ttlSeconds, now })}` };
}
