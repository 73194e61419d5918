import { describeKeyString, isKeyString } from './buffer.js';
import { RelayError } from './errors.js';

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

/** Options of {@link InMemoryCapabilityVault}. */
export interface InMemoryCapabilityVaultOptions {
  /** The clock TTLs are measured with, in milliseconds. Default `Date.now`. */
  readonly now?: () => number;
}

interface StoredCapability {
  readonly credential: string;
  /** The clock reading from which the binding reads as absent. */
  readonly expiresAt: number;
}

// Expired bindings nobody reads again are swept once this many binds (or more, as the vault grows) went by.
const MIN_BINDS_BETWEEN_SWEEPS = 64;

/**
 * A {@link CapabilityVault} for a connector that runs as one process: bindings live in memory and
 * expire lazily — a binding whose TTL has passed reads as absent and is dropped when touched, and
 * the vault sweeps the expired ones now and then as it binds, so no timer keeps a process alive.
 * Runtime-neutral.
 *
 * @example
 * ```ts
 * const vault = new InMemoryCapabilityVault();
 * await vault.bind({
 *   tenant: 'tenant-a',
 *   session_key: 'agent:main:discord:group:42:7',
 *   kind: 'discord.interaction_token',
 *   credential: token,
 *   ttl_ms: 15 * 60_000,
 * });
 * await vault.resolve('tenant-a', 'agent:main:discord:group:42:7', 'discord.interaction_token');
 * // { found: true, credential: token }
 * ```
 */
export class InMemoryCapabilityVault implements CapabilityVault {
  /** Bindings by `(session_key, kind)` (a JSON array text, so no two pairs share a key), then by tenant. */
  readonly #bindings = new Map<string, Map<string, StoredCapability>>();
  readonly #now: () => number;
  #bindsSinceSweep = 0;
  #closed = false;

  /** @throws {RelayError} `invalid_vault_argument`: `now` is not a function. */
  constructor(options: InMemoryCapabilityVaultOptions = {}) {
    const now = options.now ?? Date.now;
    if (typeof now !== 'function') {
      throw new RelayError('invalid_vault_argument', 'options.now must be a function', {
        path: 'options.now',
      });
    }
    this.#now = now;
  }

  /**
   * @throws {RelayError} `invalid_vault_argument`: a malformed binding.
   * @throws {RelayError} `vault_closed`: after `close()`.
   */
  async bind(binding: CapabilityBinding): Promise<void> {
    this.#assertOpen();
    const { tenant, session_key, kind, credential, ttl_ms } = checkCapabilityBinding(binding);
    const now = this.#now();
    this.#sweepNow(now);
    const key = bindingKey(session_key, kind);
    const holders = this.#bindings.get(key) ?? new Map<string, StoredCapability>();
    holders.set(tenant, { credential, expiresAt: now + ttl_ms });
    this.#bindings.set(key, holders);
  }

  /**
   * @throws {RelayError} `invalid_vault_argument`: a malformed tenant, session key or kind.
   * @throws {RelayError} `vault_closed`: after `close()`.
   */
  async resolve(tenant: string, sessionKey: string, kind: string): Promise<CapabilityLookup> {
    this.#assertOpen();
    const address = checkCapabilityAddress(tenant, sessionKey, kind);
    const holders = this.#liveHolders(bindingKey(address.sessionKey, address.kind));
    const own = holders?.get(address.tenant);
    if (own !== undefined) return { found: true, credential: own.credential };
    return { found: false, reason: holders === undefined ? 'absent' : 'tenant_mismatch' };
  }

  /**
   * @throws {RelayError} `invalid_vault_argument`: a malformed tenant, session key or kind.
   * @throws {RelayError} `vault_closed`: after `close()`.
   */
  async revoke(tenant: string, sessionKey: string, kind: string): Promise<boolean> {
    this.#assertOpen();
    const address = checkCapabilityAddress(tenant, sessionKey, kind);
    const key = bindingKey(address.sessionKey, address.kind);
    const holders = this.#liveHolders(key);
    if (holders?.delete(address.tenant) !== true) return false;
    if (holders.size === 0) this.#bindings.delete(key);
    return true;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#bindings.clear();
  }

  /**
   * The live bindings of `(session_key, kind)` by tenant, or `undefined` when none is left; bindings
   * whose TTL has passed are dropped.
   */
  #liveHolders(key: string): Map<string, StoredCapability> | undefined {
    const holders = this.#bindings.get(key);
    if (holders === undefined) return undefined;
    dropExpired(holders, this.#now());
    if (holders.size > 0) return holders;
    this.#bindings.delete(key);
    return undefined;
  }

  #sweepNow(now: number): void {
    this.#bindsSinceSweep += 1;
    if (this.#bindsSinceSweep < Math.max(MIN_BINDS_BETWEEN_SWEEPS, this.#bindings.size)) return;
    this.#bindsSinceSweep = 0;
    for (const [key, holders] of this.#bindings) {
      dropExpired(holders, now);
      if (holders.size === 0) this.#bindings.delete(key);
    }
  }

  #assertOpen(): void {
    if (this.#closed) throw new RelayError('vault_closed', 'the capability vault is closed');
  }
}

function bindingKey(sessionKey: string, kind: string): string {
  return JSON.stringify([sessionKey, kind]);
}

function dropExpired(holders: Map<string, StoredCapability>, now: number): void {
  for (const [tenant, stored] of holders) {
    if (now >= stored.expiresAt) holders.delete(tenant);
  }
}
