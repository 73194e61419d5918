import { Redis, type RedisOptions } from 'ioredis';
import { RedisRelayError, redisConnectionError } from './errors.js';

/** The key prefix every Redis relay backend uses unless told otherwise. */
export const DEFAULT_RELAY_KEY_PREFIX = 'agentwire:relay:';

/**
 * Options shared by the Redis relay backends: all that {@link RedisCapabilityVault},
 * {@link RedisInboundBuffer}, {@link RedisPolicyStore} and {@link RedisProvisionRegistry} take; the
 * options of {@link RedisRelayBus}, {@link RedisGatewaySecretStore} and
 * {@link RedisEnrollmentTokenStore} extend them.
 *
 * Connection ownership: given an ioredis client, the backend uses it and never closes it (the caller
 * does, after closing the backend); given connection options, the backend connects itself and its
 * `close()` disconnects.
 */
export interface RedisRelayBackendOptions {
  /** An ioredis client to use (the caller keeps owning it), or the options to connect with. */
  readonly redis: Redis | RedisOptions;
  /**
   * Prepended to every key and channel name, so several deployments can share one Redis database.
   * Default {@link DEFAULT_RELAY_KEY_PREFIX}. (An ioredis `keyPrefix` on the client applies on top of
   * it for keys, but not for pub/sub channels.)
   */
  readonly keyPrefix?: string;
  /**
   * Receives the failures of the connections the backend opened itself — its client when it was
   * given connection options, and the bus's subscriber connection — once per outage of each: the first
   * failure after the connection was last ready (ioredis goes on reconnecting). Default: one
   * `console.warn` line per report, without a stack trace. A client passed in as `redis` stays yours:
   * the backend adds no `error` listener to it, so give it your own (`redis.on('error', …)`), or
   * ioredis prints an unhandled error event on each failed reconnect.
   */
  readonly onConnectionError?: (error: RedisRelayError) => void;
}

/** A client a backend uses, and whether it must close it. */
export interface BackendConnection {
  readonly client: Redis;
  readonly owned: boolean;
  readonly keyPrefix: string;
  /** Attaches the backend's error reporting to a connection it opened besides `client`. */
  watch(connection: Redis, role: 'subscriber'): void;
}

/**
 * Resolves the options of a Redis relay backend into its connection and key prefix; a client it
 * connects itself reports its failures to `options.onConnectionError`.
 *
 * @param backend The backend's class name, for the reports.
 * @throws {RedisRelayError} `invalid_redis_relay_option`: `options.redis` missing, `options.keyPrefix` not a
 * string, or `options.onConnectionError` not a function.
 */
export function openBackendConnection(options: RedisRelayBackendOptions, backend: string): BackendConnection {
  const {
    redis,
    keyPrefix = DEFAULT_RELAY_KEY_PREFIX,
    onConnectionError = warnConnectionError,
  } = (options ?? {}) as Partial<RedisRelayBackendOptions>;
  if (typeof keyPrefix !== 'string') {
    throw new RedisRelayError('invalid_redis_relay_option', 'options.keyPrefix must be a string', {
      path: 'options.keyPrefix',
    });
  }
  if (typeof onConnectionError !== 'function') {
    throw new RedisRelayError('invalid_redis_relay_option', 'options.onConnectionError must be a function', {
      path: 'options.onConnectionError',
    });
  }
  if (typeof redis !== 'object' || redis === null) {
    throw new RedisRelayError(
      'invalid_redis_relay_option',
      'options.redis must be an ioredis client or ioredis connection options',
      { path: 'options.redis' },
    );
  }
  const watch = (connection: Redis, role: 'client' | 'subscriber') =>
    reportFailures(connection, backend, role, onConnectionError);
  // The caller's client keeps the error handling the caller gave it: no listener is added to it.
  if (isClient(redis)) return { client: redis, owned: false, keyPrefix, watch };
  const client = new Redis(redis);
  watch(client, 'client');
  return { client, owned: true, keyPrefix, watch };
}

/**
 * Listens for `connection`'s `error` events for as long as it lives (so ioredis never prints them as
 * unhandled) and hands the first of each outage to `onError`, as a {@link RedisRelayError}.
 */
function reportFailures(
  connection: Redis,
  backend: string,
  role: 'client' | 'subscriber',
  onError: (error: RedisRelayError) => void,
): void {
  let reported = false;
  connection.on('ready', () => {
    reported = false;
  });
  connection.on('error', (cause: unknown) => {
    if (reported) return;
    reported = true;
    try {
      onError(redisConnectionError(backend, role, cause));
    } catch {
      // A throwing handler must not break ioredis's reconnect loop, which emitted this event.
    }
  });
}

function warnConnectionError(error: RedisRelayError): void {
  console.warn(`[@agentwire/redis] ${error.message}`);
}

/** Closes a client the backend owns: politely when it is connected, at once otherwise. */
export async function closeOwnedClient(client: Redis): Promise<void> {
  if (client.status === 'ready') {
    try {
      await client.quit();
      return;
    } catch {
      // The connection failed while quitting; disconnecting below releases it all the same.
    }
  }
  client.disconnect();
}

function isClient(value: object): value is Redis {
  return (
    value instanceof Redis || typeof (value as { readonly duplicate?: unknown }).duplicate === 'function'
  );
}

/**
 * Writes a name (tenant, session key, kind) as one key segment: `encodeURIComponent` escapes `:`,
 * `%`, `{`, `}` and everything else outside `A-Za-z0-9-_.!~*'()`, so segments never contain the `:`
 * that separates them, two names never share a segment, and no name forms a Redis Cluster hash tag.
 */
export function keySegment(name: string): string {
  return encodeURIComponent(name);
}

/** The pub/sub channel of a tenant's bus messages. */
export function busChannel(keyPrefix: string, tenant: string): string {
  return `${keyPrefix}bus:${keySegment(tenant)}`;
}

/** The stream that holds a tenant's buffered frames. */
export function bufferStreamKey(keyPrefix: string, tenant: string): string {
  return `${keyPrefix}buffer:${keySegment(tenant)}`;
}

/** The hash that holds the capability bound under `(sessionKey, kind)`. */
export function vaultKey(keyPrefix: string, sessionKey: string, kind: string): string {
  return `${keyPrefix}vault-bindings:${keySegment(sessionKey)}:${keySegment(kind)}`;
}

/** The hash that holds a one-time enrollment token, keyed by the token's digest, never the token. */
export function enrollmentTokenKey(keyPrefix: string, tokenDigest: string): string {
  return `${keyPrefix}enrollment-token:${tokenDigest}`;
}

/**
 * The hash of a platform's provision registrations (field: gateway id). It shares the Redis Cluster
 * hash tag `{<platform>}` with {@link provisionRoutesKey}, so one script can change both.
 */
export function provisionRegistrationsKey(keyPrefix: string, platform: string): string {
  return `${keyPrefix}provision:{${keySegment(platform)}}:registrations`;
}

/** The hash of a platform's route-key owners (field: route key), in the hash slot of its registrations. */
export function provisionRoutesKey(keyPrefix: string, platform: string): string {
  return `${keyPrefix}provision:{${keySegment(platform)}}:routes`;
}

/** The string that holds the relevance policy of `(gatewayId, platform)`. */
export function policyKey(keyPrefix: string, gatewayId: string, platform: string): string {
  return `${keyPrefix}policy:${keySegment(gatewayId)}:${keySegment(platform)}`;
}
