import {
  checkEdgeName,
  checkRelevancePolicy,
  type GatewayRelevancePolicy,
  type PolicyStore,
} from '@agentwire/relay/edge';
import type { Redis } from 'ioredis';
import { checkStored, parseRecord } from './edge-records.js';
import { edgeStoreClosedError } from './errors.js';
import {
  closeOwnedClient,
  openBackendConnection,
  type RedisRelayBackendOptions,
} from './redis-connection.js';
import { policyKey } from './relay-keys.js';

/** Options of {@link RedisPolicyStore}. */
export type RedisPolicyStoreOptions = RedisRelayBackendOptions;

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
  readonly #client: Redis;
  readonly #ownsClient: boolean;
  readonly #keyPrefix: string;
  #closed = false;

  /**
   * @throws {RedisRelayError} `invalid_redis_relay_option`: a missing `redis`, a `keyPrefix` that is not a
   * string or an `onConnectionError` that is not a function.
   */
  constructor(options: RedisPolicyStoreOptions) {
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
    const checked = checkRelevancePolicy(policy);
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
      checkEdgeName(gatewayId, 'gatewayId'),
      checkEdgeName(platform, 'platform'),
    );
    const stored = await this.#client.get(key);
    return stored === null ? null : checkStored(() => checkRelevancePolicy(parseRecord(stored, 'policy')));
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
