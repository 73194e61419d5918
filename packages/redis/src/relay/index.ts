/**
 * `@agentwire/redis/relay` — Redis backends for a relay connector that runs as several instances:
 * {@link RedisRelayBus} (pub/sub), {@link RedisInboundBuffer} (streams) and
 * {@link RedisCapabilityVault} (hashes with TTLs) and {@link RedisGatewaySecretStore} (per-gateway
 * secret lists with rotation and revocation, changed atomically by Lua scripts), implementing the
 * `RelayBus`, `InboundBuffer`, `CapabilityVault` and `GatewaySecretStore` interfaces of
 * `@agentwire/relay`; and the stores of the edge side channels (`/relay/enroll`, `/relay/provision`,
 * `/relay/policy`): {@link RedisEnrollmentTokenStore}, {@link RedisProvisionRegistry} and
 * {@link RedisPolicyStore}, implementing `EnrollmentTokenStore`, `ProvisionRegistry` and `PolicyStore`
 * of `@agentwire/relay/edge`. Node only (ioredis).
 *
 * Every backend takes `{ redis, keyPrefix }`: an ioredis client — `Redis`, or `Cluster` for a Redis
 * Cluster — the caller keeps owning (and closes after the backends), or connection options the backend
 * connects with and closes in `close()` (`{ clusterNodes }` for a cluster).
 * The bus always opens one extra subscriber connection of its own. The connections a backend opens
 * report their failures, once per outage, to its `onConnectionError` as a {@link RedisRelayError}
 * (`redis_connection`); a client you pass in needs its own `error` listener.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { RedisCapabilityVault, RedisInboundBuffer, RedisRelayBus } from '@agentwire/redis/relay';
 *
 * const redis = new Redis(process.env.REDIS_URL!);
 * const bus = new RedisRelayBus({ redis });
 * const buffer = new RedisInboundBuffer({ redis });
 * const vault = new RedisCapabilityVault({ redis });
 * // … createRelayServer({ bus, buffer, vault, … }) …
 * await Promise.all([bus.close(), buffer.close(), vault.close()]);
 * await redis.quit();
 * ```
 * @packageDocumentation
 */
export { RedisRelayError, type RedisRelayErrorCode } from './errors.js';
export { RedisCapabilityVault } from './redis-capability-vault.js';
export {
  DEFAULT_RELAY_KEY_PREFIX,
  type RedisClient,
  type RedisClusterConnectOptions,
  type RedisRelayBackendOptions,
} from './redis-connection.js';
export {
  DEFAULT_EXPIRED_TOKEN_RETENTION_MS,
  RedisEnrollmentTokenStore,
  type RedisEnrollmentTokenStoreOptions,
  RedisPolicyStore,
  RedisProvisionRegistry,
} from './redis-edge-stores.js';
export {
  RedisGatewaySecretStore,
  type RedisGatewaySecretStoreOptions,
} from './redis-gateway-secret-store.js';
export { RedisInboundBuffer, type RedisInboundBufferOptions } from './redis-inbound-buffer.js';
export { RedisRelayBus, type RedisRelayBusOptions } from './redis-relay-bus.js';
