import { RelayError } from '../errors.js';

/** Stable codes of the errors a {@link GatewaySecretStore} implementation throws. */
export type GatewaySecretStoreErrorCode =
  | 'invalid_gateway_secret_argument'
  | 'gateway_exists'
  | 'gateway_not_found'
  | 'gateway_revoked'
  | 'gateway_tenant_mismatch'
  | 'gateway_secret_store_closed';

/**
 * Base class of the errors gateway secret stores throw. Messages name gateway ids and tenants, never
 * a secret or delivery key.
 */
export abstract class GatewaySecretStoreError extends RelayError {
  abstract override readonly code: GatewaySecretStoreErrorCode;
}

/** A gateway id or tenant that is not a non-empty, well-formed string, or unusable rotate options. */
export class InvalidGatewaySecretArgumentError extends GatewaySecretStoreError {
  override readonly name = 'InvalidGatewaySecretArgumentError';
  readonly code = 'invalid_gateway_secret_argument';
}

/** `create` was asked for a gateway id the store already holds (live or revoked). */
export class GatewayAlreadyExistsError extends GatewaySecretStoreError {
  override readonly name = 'GatewayAlreadyExistsError';
  readonly code = 'gateway_exists';

  constructor(readonly gatewayId: string) {
    super(`gateway ${JSON.stringify(gatewayId)} already exists`, 'gatewayId');
  }
}

/** `rotate` was asked for a gateway id the store does not hold. */
export class GatewayNotFoundError extends GatewaySecretStoreError {
  override readonly name = 'GatewayNotFoundError';
  readonly code = 'gateway_not_found';

  constructor(readonly gatewayId: string) {
    super(`gateway ${JSON.stringify(gatewayId)} is unknown`, 'gatewayId');
  }
}

/** `rotate` was asked for a revoked gateway: only `issue` gives it credentials again. */
export class GatewayRevokedError extends GatewaySecretStoreError {
  override readonly name = 'GatewayRevokedError';
  readonly code = 'gateway_revoked';

  constructor(readonly gatewayId: string) {
    super(`gateway ${JSON.stringify(gatewayId)} is revoked`, 'gatewayId');
  }
}

/** `issue` was asked for a gateway id that another tenant holds. */
export class GatewayTenantMismatchError extends GatewaySecretStoreError {
  override readonly name = 'GatewayTenantMismatchError';
  readonly code = 'gateway_tenant_mismatch';

  constructor(readonly gatewayId: string) {
    super(`gateway ${JSON.stringify(gatewayId)} belongs to another tenant`, 'gatewayId');
  }
}

/** The store was used after `close()`. */
export class GatewaySecretStoreClosedError extends GatewaySecretStoreError {
  override readonly name = 'GatewaySecretStoreClosedError';
  readonly code = 'gateway_secret_store_closed';

  constructor() {
    super('the gateway secret store is closed');
  }
}
