import { RelayError } from '../errors.js';

/** Stable codes of the errors a {@link CapabilityVault} implementation throws. */
export type CapabilityVaultErrorCode = 'invalid_vault_argument' | 'vault_closed';

/** Base class of the errors capability vault implementations throw; `path` names what was refused. */
export abstract class CapabilityVaultError extends RelayError {
  abstract override readonly code: CapabilityVaultErrorCode;
}

/**
 * An argument the vault refuses: a tenant, session key, kind or credential that is not a non-empty,
 * well-formed string, or a `ttl_ms` that is not a positive finite number.
 */
export class InvalidCapabilityVaultArgumentError extends CapabilityVaultError {
  override readonly name = 'InvalidCapabilityVaultArgumentError';
  readonly code = 'invalid_vault_argument';
}

/** The vault was used after `close()`. */
export class CapabilityVaultClosedError extends CapabilityVaultError {
  override readonly name = 'CapabilityVaultClosedError';
  readonly code = 'vault_closed';

  constructor() {
    super('the capability vault is closed');
  }
}
