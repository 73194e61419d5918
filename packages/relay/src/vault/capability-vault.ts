/**
 * A shared-identity credential bound for `follow_up` (contract §4/§6): e.g. a Discord interaction
 * token that lets the connector answer an interaction after the fact. The gateway never sees it.
 */
export interface CapabilityBinding {
  /** The tenant (gateway owner) the credential belongs to. */
  readonly tenant: string;
  /** The session key the gateway derives for the event (`buildSessionKey`), without profile. */
  readonly session_key: string;
  /** What the credential is, e.g. `"discord.interaction_token"` (the `follow_up` action's `kind`). */
  readonly kind: string;
  /** The secret itself, opaque to the vault. */
  readonly credential: string;
  /** How long it stays usable, in milliseconds (> 0). */
  readonly ttl_ms: number;
}

/** The outcome of a lookup: the credential, or why there is none (an expired one reads as absent). */
export type CapabilityLookup =
  | { readonly found: true; readonly credential: string }
  | { readonly found: false; readonly reason: 'absent' | 'tenant_mismatch' };

/**
 * Stores `follow_up` credentials under `(session_key, kind)` with a time to live, remembering the
 * tenant that bound each one.
 *
 * Rules every implementation keeps (the conformance suite checks them):
 * - `bind` replaces an earlier binding of the same `(session_key, kind)` (and its TTL).
 * - `resolve` returns the credential only to the tenant that bound it (another tenant gets
 *   `tenant_mismatch`, never the secret) and only until the TTL has passed (then `absent`).
 * - `revoke` removes the binding when it belongs to `tenant`; `true` when it did.
 */
export interface CapabilityVault {
  bind(binding: CapabilityBinding): Promise<void>;
  resolve(tenant: string, sessionKey: string, kind: string): Promise<CapabilityLookup>;
  revoke(tenant: string, sessionKey: string, kind: string): Promise<boolean>;
  /** Releases connections and timers; the vault is unusable afterwards. */
  close(): Promise<void>;
}
