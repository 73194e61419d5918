import { createHash } from 'node:crypto';
import { isJsonObject } from '@agentwire/internal';
import { newGatewaySecret, RelayError } from '@agentwire/relay';
import {
  type EnrollmentTokenGrant,
  type EnrollmentTokenRedemption,
  type EnrollmentTokenRefusal,
  type EnrollmentTokenStore,
  edgeStoreKit,
  type GatewayRelevancePolicy,
  type PolicyStore,
  type ProvisionedRoute,
  type ProvisionRegistration,
  type ProvisionRegistry,
} from '@agentwire/relay/edge';
import { edgeStoreClosedError, RedisRelayError } from './errors.js';
import type { RedisClient } from './redis-connection.js';
import {
  closeOwnedClient,
  enrollmentTokenKey,
  openBackendConnection,
  policyKey,
  provisionRegistrationsKey,
  provisionRoutesKey,
  type RedisRelayBackendOptions,
} from './redis-connection.js';

// Records the Redis edge stores read back are checked with the same rules as the arguments they were
// written from (`edgeStoreKit` of @agentwire/relay/edge); a record those rules refuse is not one the store wrote.

/**
 * Runs the check of a stored record, answering a refusal as a `RedisRelayError` `corrupt_edge_record`
 * (same path, the message prefixed with `stored`) instead of an `invalid_enrollment_argument`.
 */
export function checkStored<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof RelayError && error.code === 'invalid_enrollment_argument')) throw error;
    throw new RedisRelayError('corrupt_edge_record', `stored ${error.message}`, { path: error.path });
  }
}

/** Refuses a record read back from Redis. */
export function refuseRecord(path: string, message: string): never {
  throw new RedisRelayError('corrupt_edge_record', `stored ${path} ${message}`, { path });
}

/** Parses a stored JSON text, refusing text that is not JSON as a corrupt record. */
export function parseRecord(text: string, path: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new RedisRelayError('corrupt_edge_record', `stored ${path} is not JSON`, { path, cause: error });
  }
}

/** How long a token's record outlives its TTL unless told otherwise: one hour. */
export const DEFAULT_EXPIRED_TOKEN_RETENTION_MS = 3_600_000;

/** Options of {@link RedisEnrollmentTokenStore}. */
export interface RedisEnrollmentTokenStoreOptions extends RedisRelayBackendOptions {
  /**
   * The clock TTLs are measured with, in milliseconds. Default `Date.now`. Every instance sharing the
   * database should read the same clock (within the skew you tolerate): a token issued on one
   * instance is judged by the clock of the instance that redeems it.
   */
  readonly now?: () => number;
  /**
   * How long Redis keeps a token's record after its TTL has passed, in milliseconds (≥ 0), so that a
   * late redemption is refused as `expired` rather than `unknown`. Default
   * {@link DEFAULT_EXPIRED_TOKEN_RETENTION_MS}. The record holds no token, only its digest.
   */
  readonly expiredRetentionMs?: number;
}

// KEYS[1]: the token's hash. ARGV: the caller's tenant, the clock reading. Checks in the order of the
// in-memory store (expired, used, tenant) and spends the token in the same atomic step.
const REDEEM = `local record = redis.call('HMGET', KEYS[1], 'tenant', 'expiresAt', 'used')
if not record[1] then return 'unknown' end
if tonumber(ARGV[2]) >= tonumber(record[2]) then
  redis.call('DEL', KEYS[1])
  return 'expired'
end
if record[3] == '1' then return 'used' end
if record[1] ~= ARGV[1] then return 'tenant_mismatch' end
redis.call('HSET', KEYS[1], 'used', '1')
return 'redeemed'`;

/**
 * An {@link EnrollmentTokenStore} on Redis, shared by every instance of a connector: a token issued
 * on one instance is redeemed on any other, exactly once. Each token is a hash
 * (`<keyPrefix>enrollment-token:<SHA-256 of the token, base64url>`) holding `tenant`, `expiresAt`
 * (on the store's clock) and `used`; the token itself is never stored, so a dump of the database
 * yields no redeemable token. `redeem` is a Lua script that checks and spends the token in one
 * atomic step: of any number of concurrent redemptions, on any instances, exactly one succeeds.
 * Refusals match the in-memory store: `expired` (the record is then deleted, so the next try reads
 * `unknown`), `used`, `tenant_mismatch` (the token is not spent), `unknown`. Redis drops the record
 * `expiredRetentionMs` after the TTL; a redemption after that reads `unknown`. Node only (ioredis).
 *
 * @example
 * ```ts
 * const enrollmentTokens = new RedisEnrollmentTokenStore({ redis });
 * const token = await enrollmentTokens.issue({ tenant: 'tenant-a', ttlMs: 15 * 60_000 });
 * // hand `token` to the operator: hermes gateway enroll --token <token> (any instance redeems it)
 * ```
 */
export class RedisEnrollmentTokenStore implements EnrollmentTokenStore {
  readonly #client: RedisClient;
  readonly #ownsClient: boolean;
  readonly #keyPrefix: string;
  readonly #now: () => number;
  readonly #retentionMs: number;
  #closed = false;

  /**
   * @throws {RedisRelayError} `invalid_redis_relay_option`: a missing `redis`, a `keyPrefix` that is not a
   * string, an `onConnectionError` that is not a function, or an `expiredRetentionMs` that is not a finite
   * number ≥ 0.
   * @throws {RelayError} `invalid_enrollment_argument`: `now` is not a function.
   */
  constructor(options: RedisEnrollmentTokenStoreOptions) {
    const { now = Date.now, expiredRetentionMs = DEFAULT_EXPIRED_TOKEN_RETENTION_MS } = (options ??
      {}) as Partial<RedisEnrollmentTokenStoreOptions>;
    if (typeof now !== 'function') {
      throw new RelayError('invalid_enrollment_argument', 'options.now must be a function', {
        path: 'options.now',
      });
    }
    if (
      typeof expiredRetentionMs !== 'number' ||
      !Number.isFinite(expiredRetentionMs) ||
      expiredRetentionMs < 0
    ) {
      throw new RedisRelayError(
        'invalid_redis_relay_option',
        'options.expiredRetentionMs must be a finite number of milliseconds ≥ 0',
        { path: 'options.expiredRetentionMs' },
      );
    }
    const connection = openBackendConnection(options, 'RedisEnrollmentTokenStore');
    this.#client = connection.client;
    this.#ownsClient = connection.owned;
    this.#keyPrefix = connection.keyPrefix;
    this.#now = now;
    this.#retentionMs = expiredRetentionMs;
  }

  /**
   * @throws {RelayError} `invalid_enrollment_argument`: a malformed tenant or a TTL that is not a positive finite number.
   * @throws {RedisRelayError} `edge_store_closed`: after `close()`.
   */
  async issue(grant: EnrollmentTokenGrant): Promise<string> {
    this.#assertOpen();
    const { tenant, ttlMs } = (grant ?? {}) as Partial<EnrollmentTokenGrant>;
    const owner = edgeStoreKit.checkEdgeName(tenant, 'grant.tenant');
    if (typeof ttlMs !== 'number' || !Number.isFinite(ttlMs) || ttlMs <= 0) {
      throw new RelayError(
        'invalid_enrollment_argument',
        'grant.ttlMs must be a positive finite number of milliseconds',
        {
          path: 'grant.ttlMs',
        },
      );
    }
    const token = newGatewaySecret();
    const key = this.#key(token);
    const keepMs = Math.min(Math.ceil(ttlMs + this.#retentionMs), Number.MAX_SAFE_INTEGER);
    const replies = await this.#client
      .multi()
      .hset(key, 'tenant', owner, 'expiresAt', String(this.#now() + ttlMs), 'used', '0')
      .pexpire(key, keepMs)
      .exec();
    const failure = replies?.find(([error]) => error !== null)?.[0];
    if (failure) throw failure;
    return token;
  }

  /**
   * @throws {RelayError} `invalid_enrollment_argument`: a token or tenant that is not a non-empty, well-formed string.
   * @throws {RedisRelayError} `edge_store_closed`: after `close()`.
   */
  async redeem(token: string, tenant: string): Promise<EnrollmentTokenRedemption> {
    this.#assertOpen();
    const key = this.#key(edgeStoreKit.checkEdgeName(token, 'token'));
    const caller = edgeStoreKit.checkEdgeName(tenant, 'tenant');
    const outcome = (await this.#client.eval(REDEEM, 1, key, caller, String(this.#now()))) as
      | 'redeemed'
      | EnrollmentTokenRefusal;
    return outcome === 'redeemed' ? { redeemed: true } : { redeemed: false, reason: outcome };
  }

  /** Disconnects when the store made its own connection; a client passed in stays open. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#ownsClient) await closeOwnedClient(this.#client);
  }

  #key(token: string): string {
    return enrollmentTokenKey(
      this.#keyPrefix,
      createHash('sha256').update(token, 'utf8').digest('base64url'),
    );
  }

  #assertOpen(): void {
    if (this.#closed) throw edgeStoreClosedError('RedisEnrollmentTokenStore');
  }
}

/**
 * A {@link PolicyStore} on Redis, shared by every instance of a connector: a policy a gateway declares
 * through one instance is read on all of them. One string per `(gatewayId, platform)`
 * (`<keyPrefix>policy:<gateway id>:<platform>`, URI-encoded) holding the policy as JSON; `put`
 * replaces it with one `SET`. Node only (ioredis).
 *
 * @example
 * ```ts
 * const policies = new RedisPolicyStore({ redis });
 * await policies.get('gw-host-1', 'discord'); // the last policy that gateway declared, or null
 * ```
 */
export class RedisPolicyStore implements PolicyStore {
  readonly #client: RedisClient;
  readonly #ownsClient: boolean;
  readonly #keyPrefix: string;
  #closed = false;

  /**
   * @throws {RedisRelayError} `invalid_redis_relay_option`: a missing `redis`, a `keyPrefix` that is not a
   * string or an `onConnectionError` that is not a function.
   */
  constructor(options: RedisRelayBackendOptions) {
    const connection = openBackendConnection(options, 'RedisPolicyStore');
    this.#client = connection.client;
    this.#ownsClient = connection.owned;
    this.#keyPrefix = connection.keyPrefix;
  }

  /**
   * @throws {RelayError} `invalid_enrollment_argument`: a policy without the interface's fields, or with an empty
   *   tenant, gateway id, platform or scope id, or text that is not well-formed Unicode.
   * @throws {RedisRelayError} `edge_store_closed`: after `close()`.
   */
  async put(policy: GatewayRelevancePolicy): Promise<void> {
    this.#assertOpen();
    const checked = edgeStoreKit.checkRelevancePolicy(policy);
    await this.#client.set(
      policyKey(this.#keyPrefix, checked.gatewayId, checked.platform),
      JSON.stringify(checked),
    );
  }

  /**
   * @throws {RelayError} `invalid_enrollment_argument`: an empty or malformed gateway id or platform.
   * @throws {RedisRelayError} `corrupt_edge_record`: the stored policy is not one this store wrote.
   * @throws {RedisRelayError} `edge_store_closed`: after `close()`.
   */
  async get(gatewayId: string, platform: string): Promise<GatewayRelevancePolicy | null> {
    this.#assertOpen();
    const key = policyKey(
      this.#keyPrefix,
      edgeStoreKit.checkEdgeName(gatewayId, 'gatewayId'),
      edgeStoreKit.checkEdgeName(platform, 'platform'),
    );
    const stored = await this.#client.get(key);
    return stored === null
      ? null
      : checkStored(() => edgeStoreKit.checkRelevancePolicy(parseRecord(stored, 'policy')));
  }

  /** Disconnects when the store made its own connection; a client passed in stays open. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#ownsClient) await closeOwnedClient(this.#client);
  }

  #assertOpen(): void {
    if (this.#closed) throw edgeStoreClosedError('RedisPolicyStore');
  }
}

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
  readonly #client: RedisClient;
  readonly #ownsClient: boolean;
  readonly #keyPrefix: string;
  #closed = false;

  /**
   * @throws {RedisRelayError} `invalid_redis_relay_option`: a missing `redis`, a `keyPrefix` that is not a
   * string or an `onConnectionError` that is not a function.
   */
  constructor(options: RedisRelayBackendOptions) {
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
    const { routeKeys, ...fields } = edgeStoreKit.checkProvisionRegistration(registration);
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
    const id = edgeStoreKit.checkEdgeName(gatewayId, 'gatewayId');
    const key = provisionRegistrationsKey(this.#keyPrefix, edgeStoreKit.checkEdgeName(platform, 'platform'));
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
    const key = provisionRoutesKey(this.#keyPrefix, edgeStoreKit.checkEdgeName(platform, 'platform'));
    const stored = await this.#client.hget(key, edgeStoreKit.checkEdgeName(routeKey, 'routeKey'));
    if (stored === null) return null;
    const owner = parseRecord(stored, 'route');
    const [tenant, gatewayId] = Array.isArray(owner) && owner.length === 2 ? owner : [];
    return checkStored(() => ({
      tenant: edgeStoreKit.checkEdgeName(tenant, 'route[0]'),
      gatewayId: edgeStoreKit.checkEdgeName(gatewayId, 'route[1]'),
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
  const { routeKeys, registration } = (isJsonObject(record) ? record : {}) as {
    readonly routeKeys?: unknown;
    readonly registration?: unknown;
  };
  if (!isJsonObject(registration)) return refuseRecord('registration', 'has no registration object');
  return checkStored(() => edgeStoreKit.checkProvisionRegistration({ ...registration, routeKeys }));
}
