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

/**
 * The outcome of a lookup: the tenant's credential, or why there is none (an expired one reads as
 * absent; `tenant_mismatch`: only other tenants hold one).
 */
export type CapabilityLookup =
  | { readonly found: true; readonly credential: string }
  | { readonly found: false; readonly reason: 'absent' | 'tenant_mismatch' };

/**
 * Stores `follow_up` credentials under `(tenant, session_key, kind)` with a time to live.
 *
 * Rules every implementation keeps (the conformance suite checks them):
 * - `bind` replaces an earlier binding of the same `(tenant, session_key, kind)` (and its TTL); a
 *   binding of another tenant under the same `(session_key, kind)` is left alone (two tenants' bots
 *   can see the same chat, so their session keys meet).
 * - `resolve` returns only the asking tenant's own credential, and only until its TTL has passed;
 *   without one, `absent`, or `tenant_mismatch` when another tenant holds a live binding of that
 *   `(session_key, kind)` — never the other tenant's secret.
 * - `revoke` removes the asking tenant's binding; `true` when there was a live one.
 */
export interface CapabilityVault {
  bind(binding: CapabilityBinding): Promise<void>;
  resolve(tenant: string, sessionKey: string, kind: string): Promise<CapabilityLookup>;
  revoke(tenant: string, sessionKey: string, kind: string): Promise<boolean>;
  /** Releases connections and timers; the vault is unusable afterwards. */
  close(): Promise<void>;
}
