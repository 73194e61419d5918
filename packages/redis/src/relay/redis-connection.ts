import { Redis, type RedisOptions } from 'ioredis';
import { InvalidRedisRelayOptionError } from './errors.js';

/** The key prefix every Redis relay backend uses unless told otherwise. */
export const DEFAULT_RELAY_KEY_PREFIX = 'agentwire:relay:';

/**
 * Options shared by the Redis relay backends.
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
}

/** A client a backend uses, and whether it must close it. */
export interface BackendConnection {
  readonly client: Redis;
  readonly owned: boolean;
  readonly keyPrefix: string;
}

/**
 * Resolves the options of a Redis relay backend into its connection and key prefix.
 *
 * @throws {InvalidRedisRelayOptionError} `options.redis` missing, or `options.keyPrefix` not a string.
 */
export function openBackendConnection(options: RedisRelayBackendOptions): BackendConnection {
  const { redis, keyPrefix = DEFAULT_RELAY_KEY_PREFIX } = (options ??
    {}) as Partial<RedisRelayBackendOptions>;
  if (typeof keyPrefix !== 'string') {
    throw new InvalidRedisRelayOptionError('options.keyPrefix must be a string', 'options.keyPrefix');
  }
  if (typeof redis !== 'object' || redis === null) {
    throw new InvalidRedisRelayOptionError(
      'options.redis must be an ioredis client or ioredis connection options',
      'options.redis',
    );
  }
  if (isClient(redis)) return { client: redis, owned: false, keyPrefix };
  return { client: new Redis(redis), owned: true, keyPrefix };
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
