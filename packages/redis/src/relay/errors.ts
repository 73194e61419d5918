/**
 * Every condition `@agentwire/redis/relay` refuses input or an operation for, or reports, as the
 * stable `code` of a {@link RedisRelayError} (the relay contract's own refusals — a closed bus, a
 * malformed tenant, a known gateway id — are `@agentwire/relay`'s `RelayError`s):
 * - `invalid_redis_relay_option`: an option of a Redis relay backend is missing or of the wrong type;
 *   `path` names it;
 * - `edge_store_closed`: a Redis edge store (enrollment tokens, provision registry, policies) was used
 *   after `close()`;
 * - `corrupt_edge_record`: a record a Redis edge store read back is not one it wrote — not JSON, or
 *   missing or mistyped fields (another writer under the same key prefix); `path` names the field;
 * - `redis_connection`: a Redis connection a backend opened itself (its client made from connection
 *   options, or the bus's subscriber connection) failed — refused, reset, timed out. ioredis
 *   reconnects on its own, and what was buffered or subscribed is there again once it is back.
 *   Reported, never thrown: to the backend's `onConnectionError` (default: one `console.warn` line),
 *   once per outage of each connection — the first failure after the connection was last ready.
 *   Always `retryable`; `cause` is ioredis's error; `details.backend` and `details.connection` say where.
 * - `redis_unavailable`: thrown by {@link RedisInboundBuffer} when Redis (or, on a cluster, the master
 *   of the tenant's slot) did not serve a command within its `failoverWindowMs`, retried all that time.
 *   `details.outcome` says whether an `append` or `ack` may have taken effect all the same: `'not_run'`
 *   (no attempt reached a Redis server: nothing changed) or `'unknown'` (an attempt may have run).
 *   Always `retryable`; `cause` is the last attempt's error.
 */
export type RedisRelayErrorCode =
  | 'invalid_redis_relay_option'
  | 'edge_store_closed'
  | 'corrupt_edge_record'
  | 'redis_connection'
  | 'redis_unavailable';

/** The facts some codes carry besides their message; each field names the codes that set it. */
export interface RedisRelayErrorDetails {
  /** `edge_store_closed`: which store, e.g. `'RedisPolicyStore'`. */
  readonly store?: string;
  /** `redis_connection`: the backend that opened the connection, e.g. `'RedisRelayBus'`. */
  readonly backend?: string;
  /** `redis_connection`: which of its connections failed, its own `'client'` or the bus's `'subscriber'`. */
  readonly connection?: 'client' | 'subscriber';
  /** `redis_unavailable`: whether the command may have taken effect (`'unknown'`) or certainly did not. */
  readonly outcome?: 'not_run' | 'unknown';
}

/** What a {@link RedisRelayError} carries besides its code and message. */
export interface RedisRelayErrorOptions extends ErrorOptions {
  /** The option, field or key that failed (`''` for the value as a whole). */
  readonly path?: string;
  /** Whether the same call may succeed when made again unchanged (default `false`). */
  readonly retryable?: boolean;
  /** Facts particular to the code (see {@link RedisRelayErrorDetails}). */
  readonly details?: RedisRelayErrorDetails;
}

/**
 * The one error `@agentwire/redis/relay` throws (or reports) of its own: switch on `code`. `path` names
 * the option or field that failed, `details` the facts particular to a code, `cause` the underlying
 * error.
 *
 * @example
 * ```ts
 * const bus = new RedisRelayBus({
 *   redis: { host: 'redis' },
 *   onConnectionError: (error) => logger.warn(error.message, { backend: error.details?.backend }),
 * });
 * ```
 */
export class RedisRelayError extends Error {
  override readonly name: string = 'RedisRelayError';
  /** Which condition failed; stable across releases. */
  readonly code: RedisRelayErrorCode;
  /** The option, field or key that failed (`''` for the value as a whole). */
  readonly path: string;
  /** Whether the same call may succeed when made again unchanged. */
  readonly retryable: boolean;
  /** Facts particular to the code; empty for codes that carry none. */
  readonly details: RedisRelayErrorDetails;

  constructor(code: RedisRelayErrorCode, message: string, options: RedisRelayErrorOptions = {}) {
    const { path = '', retryable = false, details, ...errorOptions } = options;
    super(message, errorOptions);
    this.code = code;
    this.path = path;
    this.retryable = retryable;
    this.details = details ?? {};
  }
}

/** `edge_store_closed`: `store` (its class name) was used after `close()`. */
export function edgeStoreClosedError(store: string): RedisRelayError {
  return new RedisRelayError('edge_store_closed', `the ${store} is closed`, { details: { store } });
}

/** `redis_connection`: the `connection` that `backend` opened failed with `cause`; reported, never thrown. */
export function redisConnectionError(
  backend: string,
  connection: 'client' | 'subscriber',
  cause: unknown,
): RedisRelayError {
  return new RedisRelayError(
    'redis_connection',
    `the Redis ${connection} connection of ${backend} failed (${describeCause(cause)}); ` +
      'it reconnects, and further failures are not reported until it is ready again',
    { retryable: true, details: { backend, connection }, cause },
  );
}

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  // Node reports a refused dual-stack connect as an AggregateError without a message.
  const code = (cause as { readonly code?: unknown }).code;
  return cause.message || (typeof code === 'string' ? code : cause.name);
}
