import { GatewaySecretRecord } from './gateway-secret-record.js';
import { newGatewaySecret } from './new-gateway-secret.js';

/** How a store keeps one gateway, whatever its backend. */
export interface StoredGatewaySecrets {
  readonly tenant: string;
  /** The primary secret; `''` once revoked. */
  readonly primary: string;
  /** The secret `rotate` replaced, accepted until `rotationEndsAt`; `null` when there is none. */
  readonly previous: string | null;
  /** Clock reading (ms) from which `previous` is refused; `null` when there is none. */
  readonly rotationEndsAt: number | null;
  /** `''` once revoked. */
  readonly deliveryKey: string;
  readonly revoked: boolean;
}

/** A new live gateway of `tenant`, with a fresh secret and delivery key. */
export function freshGatewaySecrets(tenant: string): StoredGatewaySecrets {
  return {
    tenant,
    primary: newGatewaySecret(),
    previous: null,
    rotationEndsAt: null,
    deliveryKey: newGatewaySecret(),
    revoked: false,
  };
}

/**
 * The record of a stored gateway as of clock reading `now` (ms): the previous secret is listed only
 * while `now < rotationEndsAt`; a revoked gateway lists no secret. For store implementations.
 */
export function gatewaySecretRecordAt(
  gatewayId: string,
  stored: StoredGatewaySecrets,
  now: number,
): GatewaySecretRecord {
  const { previous, rotationEndsAt, revoked } = stored;
  const windowOpen = previous !== null && rotationEndsAt !== null && now < rotationEndsAt;
  const secrets = revoked ? [] : [stored.primary, ...(windowOpen ? [previous] : [])];
  return new GatewaySecretRecord({
    gatewayId,
    tenant: stored.tenant,
    secrets,
    deliveryKey: stored.deliveryKey,
    revoked,
    rotationEndsAt: windowOpen && !revoked ? rotationEndsAt : null,
  });
}
