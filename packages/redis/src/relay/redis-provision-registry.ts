import {
  checkEdgeName,
  checkProvisionRegistration,
  type ProvisionedRoute,
  type ProvisionRegistration,
  type ProvisionRegistry,
} from '@agentwire/relay/edge';
import type { Redis } from 'ioredis';
import { checkStored, parseRecord, refuseRecord } from './edge-records.js';
import { edgeStoreClosedError } from './errors.js';
import {
  closeOwnedClient,
  openBackendConnection,
  type RedisRelayBackendOptions,
} from './redis-connection.js';
import { provisionRegistrationsKey, provisionRoutesKey } from './relay-keys.js';

/** Options of {@link RedisProvisionRegistry}. */
export type RedisProvisionRegistryOptions = RedisRelayBackendOptions;

// KEYS[1]: the platform's registrations hash, KEYS[2]: its route owners hash.
// ARGV: gateway id, tenant, the owner value `[tenant, gatewayId]` as JSON, the registration without
// route keys as JSON, then the declared route keys (distinct). Releases the keys the gateway's
// previous registration held and still holds, claims every declared key that no other tenant holds,
// and stores the registration with the keys it now holds — one atomic step, so two instances racing
// for a key never both get it. Answers the keys held.
const REGISTER = `local gatewayId, tenant, owner = ARGV[1], ARGV[2], ARGV[3]
local previous = redis.call('HGET', KEYS[1], gatewayId)
if previous then
  for _, key in ipairs(cjson.decode(previous).routeKeys) do
    local holder = redis.call('HGET', KEYS[2], key)
    if holder and cjson.decode(holder)[2] == gatewayId then redis.call('HDEL', KEYS[2], key) end
  end
end
local held, encoded = {}, {}
for i = 5, #ARGV do
  local key = ARGV[i]
  local holder = redis.call('HGET', KEYS[2], key)
  if not holder or cjson.decode(holder)[1] == tenant then
    redis.call('HSET', KEYS[2], key, owner)
    held[#held + 1] = key
    encoded[#encoded + 1] = cjson.encode(key)
  end
end
redis.call('HSET', KEYS[1], gatewayId,
  '{"routeKeys":[' .. table.concat(encoded, ',') .. '],"registration":' .. ARGV[4] .. '}')
return held`;

/**
 * A {@link ProvisionRegistry} on Redis, shared by every instance of a connector: a gateway provisioned
 * through one instance routes on all of them. Per platform, one hash of registrations (field: gateway
 * id; value: the registration as JSON) and one hash of route-key owners (field: route key; value:
 * `[tenant, gatewayId]` as JSON), `<keyPrefix>provision:{<platform>}:registrations` and
 * `…:routes` (URI-encoded; the `{platform}` hash tag keeps both in one Redis Cluster slot). `register`
 * is one Lua script: it releases what the gateway's previous registration held, claims each declared
 * key unless another tenant holds it (a key of the same tenant moves to the registering gateway), and
 * stores the registration with the keys it now holds, atomically across instances. Node only (ioredis).
 *
 * @example
 * ```ts
 * const registry = new RedisProvisionRegistry({ redis });
 * const tenantOf = tenantResolverFromRegistry(registry); // for the provider edge handlers
 * await registry.route('discord', '123456789'); // { tenant, gatewayId } once provisioned on any instance
 * ```
 */
export class RedisProvisionRegistry implements ProvisionRegistry {
  readonly #client: Redis;
  readonly #ownsClient: boolean;
  readonly #keyPrefix: string;
  #closed = false;

  /**
   * @throws {RedisRelayError} `invalid_redis_relay_option`: a missing `redis`, a `keyPrefix` that is not a
   * string or an `onConnectionError` that is not a function.
   */
  constructor(options: RedisProvisionRegistryOptions) {
    const connection = openBackendConnection(options, 'RedisProvisionRegistry');
    this.#client = connection.client;
    this.#ownsClient = connection.owned;
    this.#keyPrefix = connection.keyPrefix;
  }

  /**
   * @throws {RelayError} `invalid_enrollment_argument`: a registration without the interface's fields, or with an
   *   empty tenant, gateway id, platform or route key, or text that is not well-formed Unicode.
   * @throws {RedisRelayError} `edge_store_closed`: after `close()`.
   */
  async register(registration: ProvisionRegistration): Promise<readonly string[]> {
    this.#assertOpen();
    const { routeKeys, ...fields } = checkProvisionRegistration(registration);
    const { tenant, gatewayId, platform } = fields;
    return (await this.#client.eval(
      REGISTER,
      2,
      provisionRegistrationsKey(this.#keyPrefix, platform),
      provisionRoutesKey(this.#keyPrefix, platform),
      gatewayId,
      tenant,
      JSON.stringify([tenant, gatewayId]),
      JSON.stringify(fields),
      ...new Set(routeKeys),
    )) as string[];
  }

  /**
   * @throws {RelayError} `invalid_enrollment_argument`: an empty or malformed gateway id or platform.
   * @throws {RedisRelayError} `corrupt_edge_record`: the stored registration is not one this registry wrote.
   * @throws {RedisRelayError} `edge_store_closed`: after `close()`.
   */
  async get(gatewayId: string, platform: string): Promise<ProvisionRegistration | null> {
    this.#assertOpen();
    const id = checkEdgeName(gatewayId, 'gatewayId');
    const key = provisionRegistrationsKey(this.#keyPrefix, checkEdgeName(platform, 'platform'));
    const stored = await this.#client.hget(key, id);
    return stored === null ? null : readStoredRegistration(stored);
  }

  /**
   * @throws {RelayError} `invalid_enrollment_argument`: an empty or malformed platform or route key.
   * @throws {RedisRelayError} `corrupt_edge_record`: the stored owner is not one this registry wrote.
   * @throws {RedisRelayError} `edge_store_closed`: after `close()`.
   */
  async route(platform: string, routeKey: string): Promise<ProvisionedRoute | null> {
    this.#assertOpen();
    const key = provisionRoutesKey(this.#keyPrefix, checkEdgeName(platform, 'platform'));
    const stored = await this.#client.hget(key, checkEdgeName(routeKey, 'routeKey'));
    if (stored === null) return null;
    const owner = parseRecord(stored, 'route');
    const [tenant, gatewayId] = Array.isArray(owner) && owner.length === 2 ? owner : [];
    return checkStored(() => ({
      tenant: checkEdgeName(tenant, 'route[0]'),
      gatewayId: checkEdgeName(gatewayId, 'route[1]'),
    }));
  }

  /** Disconnects when the registry made its own connection; a client passed in stays open. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#ownsClient) await closeOwnedClient(this.#client);
  }

  #assertOpen(): void {
    if (this.#closed) throw edgeStoreClosedError('RedisProvisionRegistry');
  }
}

function readStoredRegistration(stored: string): ProvisionRegistration {
  const record = parseRecord(stored, 'registration');
  const { routeKeys, registration } = (isObject(record) ? record : {}) as {
    readonly routeKeys?: unknown;
    readonly registration?: unknown;
  };
  if (!isObject(registration)) return refuseRecord('registration', 'has no registration object');
  return checkStored(() => checkProvisionRegistration({ ...registration, routeKeys }));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
