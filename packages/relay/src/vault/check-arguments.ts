import { describeKeyString, isKeyString } from '../buffer/key-string.js';
import { RelayError } from '../errors.js';
import type { CapabilityBinding } from './capability-vault.js';

/** The `(tenant, session_key, kind)` of a lookup or revocation, checked. */
export interface CapabilityAddress {
  readonly tenant: string;
  readonly sessionKey: string;
  readonly kind: string;
}

/**
 * Checks a binding and returns a copy with only its five fields: `tenant`, `session_key`, `kind` and
 * `credential` non-empty, well-formed strings, `ttl_ms` a positive finite number. For vault
 * implementations, which call it before touching their backend.
 *
 * @throws {RelayError} `invalid_vault_argument`, path `binding` or `binding.<field>`.
 */
export function checkCapabilityBinding(binding: unknown): CapabilityBinding {
  if (typeof binding !== 'object' || binding === null || Array.isArray(binding)) {
    throw new RelayError('invalid_vault_argument', 'binding must be an object', { path: 'binding' });
  }
  const fields = binding as { readonly [key: string]: unknown };
  const ttl = fields['ttl_ms'];
  if (!(typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0)) {
    throw new RelayError(
      'invalid_vault_argument',
      `binding.ttl_ms must be a positive finite number of milliseconds, got ${typeof ttl === 'number' ? String(ttl) : typeof ttl}`,
      { path: 'binding.ttl_ms' },
    );
  }
  return {
    tenant: keyString(fields['tenant'], 'binding.tenant'),
    session_key: keyString(fields['session_key'], 'binding.session_key'),
    kind: keyString(fields['kind'], 'binding.kind'),
    credential: keyString(fields['credential'], 'binding.credential'),
    ttl_ms: ttl,
  };
}

/**
 * Checks the arguments of `resolve` and `revoke`: non-empty, well-formed strings.
 *
 * @throws {RelayError} `invalid_vault_argument`, path `tenant`, `sessionKey` or `kind`.
 */
export function checkCapabilityAddress(
  tenant: unknown,
  sessionKey: unknown,
  kind: unknown,
): CapabilityAddress {
  return {
    tenant: keyString(tenant, 'tenant'),
    sessionKey: keyString(sessionKey, 'sessionKey'),
    kind: keyString(kind, 'kind'),
  };
}

function keyString(value: unknown, path: string): string {
  if (isKeyString(value)) return value;
  throw new RelayError(
    'invalid_vault_argument',
    `${path} must be a non-empty, well-formed string, got ${describeKeyString(value)}`,
    { path },
  );
}
