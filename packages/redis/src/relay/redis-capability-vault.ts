import {
  type CapabilityBinding,
  type CapabilityLookup,
  type CapabilityVault,
  RelayError,
  relayStoreKit,
} from '@agentwire/relay';
import type { RedisClient } from './redis-connection.js';
import {
  closeOwnedClient,
  openBackendConnection,
  type RedisRelayBackendOptions,
  vaultKey,
} from './redis-connection.js';

// One hash per (session_key, kind): field = tenant, value = "<expiry ms on the Redis clock>|<credential>".
// Every script reads the clock with TIME, so all instances agree on expiry whatever their own clocks;
// a value without a readable expiry is treated as expired. The key's own expiry follows the longest
// binding in it, so Redis forgets the hash once every binding in it has expired.
const NOW = `local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local function expiry(value)
  local bar = string.find(value, '|', 1, true)
  return bar and tonumber(string.sub(value, 1, bar - 1)) or -1, bar
end
`;

// ARGV: tenant, credential, ttl in ms. Drops expired bindings, stores the tenant's, extends the key's expiry.
const BIND = `${NOW}local ttl = tonumber(ARGV[3])
local fields = redis.call('HGETALL', KEYS[1])
for i = 1, #fields, 2 do
  if expiry(fields[i + 1]) <= now then redis.call('HDEL', KEYS[1], fields[i]) end
end
redis.call('HSET', KEYS[1], ARGV[1], string.format('%.0f', now + ttl) .. '|' .. ARGV[2])
if redis.call('PTTL', KEYS[1]) < ttl then redis.call('PEXPIRE', KEYS[1], ttl) end
return 1`;

// ARGV: tenant. {1, credential}: its live binding; {2}: only other tenants hold live ones; {0}: none.
const RESOLVE = `${NOW}local others = false
local fields = redis.call('HGETALL', KEYS[1])
for i = 1, #fields, 2 do
  local at, bar = expiry(fields[i + 1])
  if at > now then
    if fields[i] == ARGV[1] then return {1, string.sub(fields[i + 1], bar + 1)} end
    others = true
  end
end
if others then return {2} end
return {0}`;

// ARGV: tenant. Deletes the tenant's binding; 1 when it was live.
const REVOKE = `${NOW}local value = redis.call('HGET', KEYS[1], ARGV[1])
if not value then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
if expiry(value) > now then return 1 end
return 0`;

/**
 * A {@link CapabilityVault} on Redis, shared by every instance of a connector: one hash per
 * `(session_key, kind)` (`<keyPrefix>vault-bindings:<session key>:<kind>`, both URI-encoded) with a
 * field per tenant holding its credential and expiry, measured on the Redis server's clock (`TIME`),
 * so two tenants' bindings of one session never replace each other and every instance agrees on
 * when one expires. The key expires with its longest-lived binding, so Redis forgets what nobody
 * can use. `bind`, `resolve` and `revoke` are each one Lua script.
 *
 * @example
 * ```ts
 * const vault = new RedisCapabilityVault({ redis });
 * await vault.bind({ tenant, session_key, kind: 'discord.interaction_token', credential, ttl_ms: 900_000 });
 * await vault.resolve(tenant, session_key, 'discord.interaction_token'); // { found: true, credential }
 * ```
 */
export class RedisCapabilityVault implements CapabilityVault {
  readonly #client: RedisClient;
  readonly #ownsClient: boolean;
  readonly #keyPrefix: string;
  #closed = false;

  /**
   * @throws {RedisRelayError} `invalid_redis_relay_option`: a missing `redis`, a `keyPrefix` that is not a
   * string or an `onConnectionError` that is not a function.
   */
  constructor(options: RedisRelayBackendOptions) {
    const connection = openBackendConnection(options, 'RedisCapabilityVault');
    this.#client = connection.client;
    this.#ownsClient = connection.owned;
    this.#keyPrefix = connection.keyPrefix;
  }

  /**
   * @throws {RelayError} `invalid_vault_argument`: a malformed binding.
   * @throws {RelayError} `vault_closed`: after `close()`.
   */
  async bind(binding: CapabilityBinding): Promise<void> {
    this.#assertOpen();
    const { tenant, session_key, kind, credential, ttl_ms } = relayStoreKit.checkCapabilityBinding(binding);
    const key = vaultKey(this.#keyPrefix, session_key, kind);
    const ttl = Math.min(Math.ceil(ttl_ms), Number.MAX_SAFE_INTEGER);
    await this.#client.eval(BIND, 1, key, tenant, credential, String(ttl));
  }

  /**
   * @throws {RelayError} `invalid_vault_argument`: a malformed tenant, session key or kind.
   * @throws {RelayError} `vault_closed`: after `close()`.
   */
  async resolve(tenant: string, sessionKey: string, kind: string): Promise<CapabilityLookup> {
    this.#assertOpen();
    const address = relayStoreKit.checkCapabilityAddress(tenant, sessionKey, kind);
    const key = vaultKey(this.#keyPrefix, address.sessionKey, address.kind);
    const [status, credential] = (await this.#client.eval(RESOLVE, 1, key, address.tenant)) as [
      number,
      string?,
    ];
    if (status === 1 && typeof credential === 'string') return { found: true, credential };
    return { found: false, reason: status === 2 ? 'tenant_mismatch' : 'absent' };
  }

  /**
   * @throws {RelayError} `invalid_vault_argument`: a malformed tenant, session key or kind.
   * @throws {RelayError} `vault_closed`: after `close()`.
   */
  async revoke(tenant: string, sessionKey: string, kind: string): Promise<boolean> {
    this.#assertOpen();
    const address = relayStoreKit.checkCapabilityAddress(tenant, sessionKey, kind);
    const key = vaultKey(this.#keyPrefix, address.sessionKey, address.kind);
    return (await this.#client.eval(REVOKE, 1, key, address.tenant)) === 1;
  }

  /** Disconnects when the vault made its own connection; a client passed in stays open. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#ownsClient) await closeOwnedClient(this.#client);
  }

  #assertOpen(): void {
    if (this.#closed) throw new RelayError('vault_closed', 'the capability vault is closed');
  }
}
