import { RelayError } from '@agentwire/relay';

/** An option of a Redis relay backend that is missing or of the wrong type. */
export class InvalidRedisRelayOptionError extends RelayError {
  override readonly name = 'InvalidRedisRelayOptionError';
  readonly code = 'invalid_redis_relay_option';
}

/** A Redis edge store (enrollment tokens, provision registry, policies) was used after `close()`. */
export class EdgeStoreClosedError extends RelayError {
  override readonly name = 'EdgeStoreClosedError';
  readonly code = 'edge_store_closed';

  /** @param store Which store, e.g. `'RedisPolicyStore'`. */
  constructor(store: string) {
    super(`the ${store} is closed`);
  }
}

/**
 * A record a Redis edge store read back is not one it wrote: not JSON, or missing or mistyped fields
 * (another writer under the same key prefix). `path` names the field that failed.
 */
export class CorruptEdgeRecordError extends RelayError {
  override readonly name = 'CorruptEdgeRecordError';
  readonly code = 'corrupt_edge_record';
}

/**
 * A Redis connection that a backend opened itself (its client made from connection options, or the
 * bus's subscriber connection) failed: refused, reset, timed out. ioredis reconnects on its own, and
 * what was buffered or subscribed is there again once it is back. Reported, never thrown: to the
 * backend's `onConnectionError` (default: one `console.warn` line), once per outage of each connection
 * — the first failure after the connection was last ready. `cause` is ioredis's error.
 */
export class RedisConnectionError extends RelayError {
  override readonly name = 'RedisConnectionError';
  readonly code = 'redis_connection';
  /** Always `true`: ioredis keeps reconnecting. */
  readonly retryable = true;
  /** The backend that opened the connection, e.g. `'RedisRelayBus'`. */
  readonly backend: string;
  /** Which of its connections: its own client (`'client'`) or the bus's `'subscriber'`. */
  readonly connection: 'client' | 'subscriber';

  /**
   * @param backend The backend's class name.
   * @param connection Which of its connections failed.
   * @param cause What ioredis reported.
   */
  constructor(backend: string, connection: 'client' | 'subscriber', cause: unknown) {
    super(
      `the Redis ${connection} connection of ${backend} failed (${describeCause(cause)}); ` +
        'it reconnects, and further failures are not reported until it is ready again',
      '',
      { cause },
    );
    this.backend = backend;
    this.connection = connection;
  }
}

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  // Node reports a refused dual-stack connect as an AggregateError without a message.
  const code = (cause as { readonly code?: unknown }).code;
  return cause.message || (typeof code === 'string' ? code : cause.name);
}
