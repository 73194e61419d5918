import {
  type CapabilityBinding,
  type CapabilityLookup,
  type CapabilityVault,
  CapabilityVaultClosedError,
  checkCapabilityAddress,
  checkCapabilityBinding,
} from '@agentwire/relay';
import type { Redis } from 'ioredis';
import {
  closeOwnedClient,
  openBackendConnection,
  type RedisRelayBackendOptions,
} from './redis-connection.js';
import { vaultKey } from './relay-keys.js';

/** Options of {@link RedisCapabilityVault}. */
export type RedisCapabilityVaultOptions = RedisRelayBackendOptions;

// Deletes the binding only when the tenant that bound it asks: one atomic step on the server.
const REVOKE_OWN_BINDING = `if redis.call('HGET', KEYS[1], 'tenant') == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

/**
 * A {@link CapabilityVault} on Redis, shared by every instance of a connector: one hash per
 * `(session_key, kind)` (`<keyPrefix>vault:<session key>:<kind>`, both URI-encoded) holding `tenant`
 * and `credential`, with the binding's TTL as the key's expiry (`PEXPIRE`, rounded up to whole
 * milliseconds), so Redis forgets a credential when it expires. `bind` replaces the hash and its
 * expiry in one `MULTI`; `revoke` runs a Lua script that deletes the hash only when its tenant
 * matches.
 *
 * @example
 * ```ts
 * const vault = new RedisCapabilityVault({ redis });
 * await vault.bind({ tenant, session_key, kind: 'discord.interaction_token', credential, ttl_ms: 900_000 });
 * await vault.resolve(tenant, session_key, 'discord.interaction_token'); // { found: true, credential }
 * ```
 */
export class RedisCapabilityVault implements CapabilityVault {
  readonly #client: Redis;
  readonly #ownsClient: boolean;
  readonly #keyPrefix: string;
  #closed = false;

  /** @throws {InvalidRedisRelayOptionError} a missing `redis` or a `keyPrefix` that is not a string. */
  constructor(options: RedisCapabilityVaultOptions) {
    const connection = openBackendConnection(options);
    this.#client = connection.client;
    this.#ownsClient = connection.owned;
    this.#keyPrefix = connection.keyPrefix;
  }

  /**
   * @throws {InvalidCapabilityVaultArgumentError} a malformed binding.
   * @throws {CapabilityVaultClosedError} after `close()`.
   */
  async bind(binding: CapabilityBinding): Promise<void> {
    this.#assertOpen();
    const { tenant, session_key, kind, credential, ttl_ms } = checkCapabilityBinding(binding);
    const key = vaultKey(this.#keyPrefix, session_key, kind);
    const ttl = Math.min(Math.ceil(ttl_ms), Number.MAX_SAFE_INTEGER);
    const replies = await this.#client
      .multi()
      .del(key)
      .hset(key, 'tenant', tenant, 'credential', credential)
      .pexpire(key, ttl)
      .exec();
    const failure = replies?.find(([error]) => error !== null)?.[0];
    if (failure) throw failure;
  }

  /**
   * @throws {InvalidCapabilityVaultArgumentError} a malformed tenant, session key or kind.
   * @throws {CapabilityVaultClosedError} after `close()`.
   */
  async resolve(tenant: string, sessionKey: string, kind: string): Promise<CapabilityLookup> {
    this.#assertOpen();
    const address = checkCapabilityAddress(tenant, sessionKey, kind);
    const key = vaultKey(this.#keyPrefix, address.sessionKey, address.kind);
    const [owner, credential] = await this.#client.hmget(key, 'tenant', 'credential');
    if (owner == null || credential == null) return { found: false, reason: 'absent' };
    if (owner !== address.tenant) return { found: false, reason: 'tenant_mismatch' };
    return { found: true, credential };
  }

  /**
   * @throws {InvalidCapabilityVaultArgumentError} a malformed tenant, session key or kind.
   * @throws {CapabilityVaultClosedError} after `close()`.
   */
  async revoke(tenant: string, sessionKey: string, kind: string): Promise<boolean> {
    this.#assertOpen();
    const address = checkCapabilityAddress(tenant, sessionKey, kind);
    const key = vaultKey(this.#keyPrefix, address.sessionKey, address.kind);
    return (await this.#client.eval(REVOKE_OWN_BINDING, 1, key, address.tenant)) === 1;
  }

  /** Disconnects when the vault made its own connection; a client passed in stays open. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#ownsClient) await closeOwnedClient(this.#client);
  }

  #assertOpen(): void {
    if (this.#closed) throw new CapabilityVaultClosedError();
  }
}
