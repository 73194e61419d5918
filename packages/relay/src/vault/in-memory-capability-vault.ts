import { RelayError } from '../errors.js';
import type { CapabilityBinding, CapabilityLookup, CapabilityVault } from './capability-vault.js';
import { checkCapabilityAddress, checkCapabilityBinding } from './check-arguments.js';

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
