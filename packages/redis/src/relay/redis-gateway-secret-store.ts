import {
  type GatewaySecretRecord,
  type GatewaySecretStore,
  newGatewaySecret,
  RelayError,
  type RotateGatewaySecretOptions,
  relayStoreKit,
  type StoredGatewaySecrets,
} from '@agentwire/relay';
import type { RedisClient } from './redis-connection.js';
import {
  closeOwnedClient,
  keySegment,
  openBackendConnection,
  type RedisRelayBackendOptions,
} from './redis-connection.js';

/** Options of {@link RedisGatewaySecretStore}. */
export interface RedisGatewaySecretStoreOptions extends RedisRelayBackendOptions {
  /**
   * The clock rotation windows are measured with, in milliseconds. Default `Date.now`. Every
   * instance sharing the database should read the same clock (within the skew you tolerate).
   */
  readonly now?: () => number;
}

// Every script answers the gateway's hash (HGETALL, as a flat array) after its change, or a status
// word when it changed nothing, so the caller reads exactly the state its own change produced.

// ARGV: tenant, primary, deliveryKey.
const CREATE = `if redis.call('EXISTS', KEYS[1]) == 1 then return 'exists' end
redis.call('HSET', KEYS[1], 'tenant', ARGV[1], 'primary', ARGV[2], 'deliveryKey', ARGV[3], 'revoked', '0')
return redis.call('HGETALL', KEYS[1])`;

// ARGV: tenant, primary, deliveryKey. Replaces the whole hash unless another tenant holds the id.
const ISSUE = `local owner = redis.call('HGET', KEYS[1], 'tenant')
if owner and owner ~= ARGV[1] then return 'tenant_mismatch' end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'tenant', ARGV[1], 'primary', ARGV[2], 'deliveryKey', ARGV[3], 'revoked', '0')
return redis.call('HGETALL', KEYS[1])`;

// ARGV: new primary, rotationEndsAt ('' for no grace window).
const ROTATE = `local state = redis.call('HMGET', KEYS[1], 'revoked', 'primary')
if not state[1] then return 'absent' end
if state[1] ~= '0' then return 'revoked' end
if ARGV[2] == '' then
  redis.call('HDEL', KEYS[1], 'previous', 'rotationEndsAt')
else
  redis.call('HSET', KEYS[1], 'previous', state[2], 'rotationEndsAt', ARGV[2])
end
redis.call('HSET', KEYS[1], 'primary', ARGV[1])
return redis.call('HGETALL', KEYS[1])`;

// Wipes the secrets and marks the gateway revoked; 1 when it was live.
const REVOKE = `if redis.call('HGET', KEYS[1], 'revoked') ~= '0' then return 0 end
redis.call('HDEL', KEYS[1], 'primary', 'previous', 'rotationEndsAt', 'deliveryKey')
redis.call('HSET', KEYS[1], 'revoked', '1')
return 1`;

/**
 * A {@link GatewaySecretStore} on Redis, shared by every instance of a connector: one hash per
 * gateway (`<keyPrefix>gateway:<gateway id>`, URI-encoded) holding `tenant`, `primary`, `previous`,
 * `rotationEndsAt`, `deliveryKey` and `revoked`. `create`, `issue`, `rotate` and `revoke` are Lua
 * scripts, so each checks and changes a gateway in one atomic step. Rotation windows are measured
 * with the store's clock (`now`), not Redis's. Node only (ioredis).
 *
 * @example
 * ```ts
 * const secrets = new RedisGatewaySecretStore({ redis });
 * const server = await createRelayServer({ authenticate: authenticatorFor(secrets), platforms });
 * await secrets.rotate('gw-host-1', { graceMs: 10 * 60_000 });
 * ```
 */
export class RedisGatewaySecretStore implements GatewaySecretStore {
  readonly #client: RedisClient;
  readonly #ownsClient: boolean;
  readonly #keyPrefix: string;
  readonly #now: () => number;
  #closed = false;

  /**
   * @throws {RedisRelayError} `invalid_redis_relay_option`: a missing `redis`, a `keyPrefix` that is not a
   * string or an `onConnectionError` that is not a function.
   * @throws {RelayError} `invalid_gateway_secret_argument`: `now` is not a function.
   */
  constructor(options: RedisGatewaySecretStoreOptions) {
    const now = relayStoreKit.checkSecretStoreClock(
      (options as Partial<RedisGatewaySecretStoreOptions> | undefined)?.now,
    );
    const connection = openBackendConnection(options, 'RedisGatewaySecretStore');
    this.#client = connection.client;
    this.#ownsClient = connection.owned;
    this.#keyPrefix = connection.keyPrefix;
    this.#now = now;
  }

  async create(gatewayId: string, tenant: string): Promise<GatewaySecretRecord> {
    this.#assertOpen();
    const id = relayStoreKit.checkGatewayKey(gatewayId, 'gatewayId');
    const fresh = relayStoreKit.freshGatewaySecrets(relayStoreKit.checkGatewayKey(tenant, 'tenant'));
    const reply = await this.#eval(CREATE, id, fresh.tenant, fresh.primary, fresh.deliveryKey);
    if (typeof reply === 'string')
      throw new RelayError('gateway_exists', `gateway ${JSON.stringify(id)} already exists`, {
        path: 'gatewayId',
        details: { gatewayId: id },
      });
    return this.#record(id, reply);
  }

  async issue(gatewayId: string, tenant: string): Promise<GatewaySecretRecord> {
    this.#assertOpen();
    const id = relayStoreKit.checkGatewayKey(gatewayId, 'gatewayId');
    const fresh = relayStoreKit.freshGatewaySecrets(relayStoreKit.checkGatewayKey(tenant, 'tenant'));
    const reply = await this.#eval(ISSUE, id, fresh.tenant, fresh.primary, fresh.deliveryKey);
    if (typeof reply === 'string')
      throw new RelayError(
        'gateway_tenant_mismatch',
        `gateway ${JSON.stringify(id)} belongs to another tenant`,
        { path: 'gatewayId', details: { gatewayId: id } },
      );
    return this.#record(id, reply);
  }

  async rotate(gatewayId: string, options: RotateGatewaySecretOptions): Promise<GatewaySecretRecord> {
    this.#assertOpen();
    const id = relayStoreKit.checkGatewayKey(gatewayId, 'gatewayId');
    const graceMs = relayStoreKit.checkRotateOptions(options);
    const rotationEndsAt = graceMs > 0 ? String(this.#now() + graceMs) : '';
    const reply = await this.#eval(ROTATE, id, newGatewaySecret(), rotationEndsAt);
    if (typeof reply === 'string') {
      throw reply === 'absent'
        ? new RelayError('gateway_not_found', `gateway ${JSON.stringify(id)} is unknown`, {
            path: 'gatewayId',
            details: { gatewayId: id },
          })
        : new RelayError('gateway_revoked', `gateway ${JSON.stringify(id)} is revoked`, {
            path: 'gatewayId',
            details: { gatewayId: id },
          });
    }
    return this.#record(id, reply);
  }

  async revoke(gatewayId: string): Promise<boolean> {
    this.#assertOpen();
    const id = relayStoreKit.checkGatewayKey(gatewayId, 'gatewayId');
    return (await this.#client.eval(REVOKE, 1, this.#key(id))) === 1;
  }

  async get(gatewayId: string): Promise<GatewaySecretRecord | null> {
    this.#assertOpen();
    const id = relayStoreKit.checkGatewayKey(gatewayId, 'gatewayId');
    const fields = await this.#client.hgetall(this.#key(id));
    return fields['tenant'] === undefined ? null : this.#record(id, fields);
  }

  /** Disconnects when the store made its own connection; a client passed in stays open. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#ownsClient) await closeOwnedClient(this.#client);
  }

  /** Runs a script on the gateway's hash: its fields after the change, or the script's status word. */
  async #eval(
    script: string,
    gatewayId: string,
    ...args: string[]
  ): Promise<Record<string, string> | string> {
    const reply = (await this.#client.eval(script, 1, this.#key(gatewayId), ...args)) as string | string[];
    if (typeof reply === 'string') return reply;
    const fields: Record<string, string> = {};
    for (let i = 0; i + 1 < reply.length; i += 2) fields[reply[i] as string] = reply[i + 1] as string;
    return fields;
  }

  #record(gatewayId: string, fields: Record<string, string>): GatewaySecretRecord {
    return relayStoreKit.gatewaySecretRecordAt(gatewayId, storedGateway(fields), this.#now());
  }

  #key(gatewayId: string): string {
    return `${this.#keyPrefix}gateway:${keySegment(gatewayId)}`;
  }

  #assertOpen(): void {
    if (this.#closed)
      throw new RelayError('gateway_secret_store_closed', 'the gateway secret store is closed');
  }
}

function storedGateway(fields: Record<string, string>): StoredGatewaySecrets {
  const rotationEndsAt = fields['rotationEndsAt'];
  return {
    tenant: fields['tenant'] ?? '',
    primary: fields['primary'] ?? '',
    previous: fields['previous'] ?? null,
    rotationEndsAt: rotationEndsAt === undefined ? null : Number(rotationEndsAt),
    deliveryKey: fields['deliveryKey'] ?? '',
    revoked: fields['revoked'] !== '0',
  };
}
