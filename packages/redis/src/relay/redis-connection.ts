import { Cluster, type ClusterNode, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';
import { RedisRelayError, redisConnectionError } from './errors.js';

/** The key prefix every Redis relay backend uses unless told otherwise. */
export const DEFAULT_RELAY_KEY_PREFIX = 'agentwire:relay:';

/** An ioredis client of one Redis server, or of a Redis Cluster. */
export type RedisClient = Redis | Cluster;

/**
 * What a backend connects to a Redis Cluster with: the nodes to start from (one is enough; ioredis
 * learns the others) and ioredis's cluster options. The backend makes the `Cluster` client, and its
 * `close()` disconnects it.
 */
export interface RedisClusterConnectOptions {
  readonly clusterNodes: readonly ClusterNode[];
  readonly clusterOptions?: ClusterOptions;
}

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
  /**
   * An ioredis client to use — a `Redis` or a Redis Cluster `Cluster` — (the caller keeps owning it), or
   * what to connect with: `RedisOptions` for one server, {@link RedisClusterConnectOptions} for a cluster.
   */
  readonly redis: RedisClient | RedisOptions | RedisClusterConnectOptions;
  /**
   * Prepended to every key and channel name, so several deployments can share one Redis database.
   * Default {@link DEFAULT_RELAY_KEY_PREFIX}. (An ioredis `keyPrefix` on a `Redis` client applies on top
   * of it for keys, but not for pub/sub channels; a `Cluster` client with one is refused.)
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
  readonly client: RedisClient;
  readonly owned: boolean;
  readonly keyPrefix: string;
  /** Attaches the backend's error reporting to a connection it opened besides `client`. */
  watch(connection: RedisClient, role: 'subscriber'): void;
  /** Reports a failure of a connection the backend opened besides `client`, as `watch` would. */
  report(role: 'subscriber', cause: unknown): void;
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
      'options.redis must be an ioredis client (Redis or Cluster) or ioredis connection options',
      { path: 'options.redis' },
    );
  }
  const watch = (connection: RedisClient, role: 'client' | 'subscriber') =>
    reportFailures(connection, backend, role, onConnectionError);
  // The caller's client keeps the error handling the caller gave it: no listener is added to it.
  const report = (role: 'subscriber', cause: unknown) => {
    try {
      onConnectionError(redisConnectionError(backend, role, cause));
    } catch {
      // A throwing handler must not break the recovery that reported it.
    }
  };
  if (isClient(redis)) {
    refuseClusterClientKeyPrefix(redis);
    return { client: redis, owned: false, keyPrefix, watch, report };
  }
  // Commands issued in one tick (a burst of acks, say) go out in one write unless the options say not.
  const client = isClusterConnectOptions(redis)
    ? new Cluster([...redis.clusterNodes], { enableAutoPipelining: true, ...redis.clusterOptions })
    : new Redis({ enableAutoPipelining: true, ...(redis as RedisOptions) });
  try {
    refuseClusterClientKeyPrefix(client);
  } catch (error) {
    client.disconnect();
    throw error;
  }
  watch(client, 'client');
  return { client, owned: true, keyPrefix, watch, report };
}

/**
 * Listens for `connection`'s `error` events for as long as it lives (so ioredis never prints them as
 * unhandled) and hands the first of each outage to `onError`, as a {@link RedisRelayError}.
 */
function reportFailures(
  connection: RedisClient,
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
export async function closeOwnedClient(client: RedisClient): Promise<void> {
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

function isClient(value: object): value is RedisClient {
  return (
    value instanceof Redis ||
    value instanceof Cluster ||
    typeof (value as { readonly duplicate?: unknown }).duplicate === 'function'
  );
}

/**
 * A Cluster client with its own ioredis `keyPrefix` would route the bus's sharded channels and the
 * buffer's keys by names it changed behind the backend's back: refused, the backend's `keyPrefix` does it.
 */
function refuseClusterClientKeyPrefix(client: RedisClient): void {
  if (!isCluster(client)) return;
  const options = client.options as {
    readonly keyPrefix?: unknown;
    readonly redisOptions?: { keyPrefix?: unknown };
  };
  if (options.keyPrefix || options.redisOptions?.keyPrefix) {
    throw new RedisRelayError(
      'invalid_redis_relay_option',
      "options.redis: a Cluster client with an ioredis keyPrefix; give the backend's keyPrefix option instead",
      { path: 'options.redis' },
    );
  }
}

/** Whether `client` talks to a Redis Cluster (an ioredis `Cluster`, also one of another ioredis copy). */
export function isCluster(client: RedisClient): client is Cluster {
  return client instanceof Cluster || (client as { readonly isCluster?: unknown }).isCluster === true;
}

function isClusterConnectOptions(value: object): value is RedisClusterConnectOptions {
  const { clusterNodes } = value as { readonly clusterNodes?: unknown };
  if (clusterNodes === undefined) return false;
  if (!Array.isArray(clusterNodes) || clusterNodes.length === 0) {
    throw new RedisRelayError(
      'invalid_redis_relay_option',
      'options.redis.clusterNodes must be a non-empty array of cluster nodes (ports, URLs or { host, port })',
      { path: 'options.redis.clusterNodes' },
    );
  }
  return true;
}

/** How long a backend retries a command that Redis could not serve, unless told otherwise. */
export const DEFAULT_FAILOVER_WINDOW_MS = 15_000;
const FIRST_RETRY_DELAY_MS = 25;
const CUT_OFF = Symbol('cut off');
const MAX_RETRY_DELAY_MS = 1000;

/**
 * Errors of a command that reached no server: no connection took it. Only these make an outcome
 * `not_run` — ioredis may resend a command or follow redirections within one call, so an error Redis
 * answered says nothing certain of the attempts before it.
 */
const NOT_SENT =
  /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|Failed to refresh slots cache|None of startup nodes is available|Cluster isn't ready|Stream isn't writeable|enableOfflineQueue options is false/;
/** Errors after which a command may or may not have run, and trying again is worth it. */
const MAYBE_RUN =
  /\b(CLUSTERDOWN|TRYAGAIN|LOADING|READONLY|MASTERDOWN|MOVED|ASK)\b|Too many Cluster redirections|Connection is closed|ECONNRESET|EPIPE|ETIMEDOUT|Command timed out|Reached the max retries per request limit|Connection (was )?lost/;

/**
 * Runs `command` (idempotent: running it twice changes nothing more than once) until Redis answers it,
 * retrying with backoff for at most `windowMs` while the failure is one of an unreachable server, a
 * lost connection or a cluster failing over. Any other failure (a script error, a wrong type) is thrown
 * at once, and so is `closed()`'s error once the backend is closed.
 *
 * @throws {RedisRelayError} `redis_unavailable`: no answer within `windowMs`; `details.outcome` says
 * whether an attempt may have run.
 */
export async function retryAcrossFailover<T>(
  command: () => Promise<T>,
  context: {
    readonly backend: string;
    readonly what: string;
    readonly windowMs: number;
    /** The error to throw instead of retrying once the backend was closed, else undefined. */
    readonly closed: () => Error | undefined;
  },
): Promise<T> {
  const deadline = Date.now() + context.windowMs;
  let delay = FIRST_RETRY_DELAY_MS;
  let outcome: 'not_run' | 'unknown' = 'not_run';
  let lastError: unknown;
  for (;;) {
    const attempt = command();
    let timer: NodeJS.Timeout | undefined;
    try {
      // With no window the one attempt runs to its end; otherwise it is cut off at the deadline.
      const answer =
        context.windowMs === 0
          ? await attempt
          : await Promise.race([
              attempt,
              new Promise<typeof CUT_OFF>((resolve) => {
                timer = setTimeout(() => resolve(CUT_OFF), Math.max(0, deadline - Date.now()));
              }),
            ]);
      if (answer !== CUT_OFF) return answer as T;
      attempt.catch(() => undefined);
      outcome = 'unknown';
      break;
    } catch (error) {
      const text =
        error instanceof Error ? `${error.message} ${String((error as { code?: unknown }).code)}` : '';
      const notSent = NOT_SENT.test(text);
      if (!notSent && !MAYBE_RUN.test(text)) throw error;
      if (!notSent) outcome = 'unknown';
      lastError = error;
    } finally {
      clearTimeout(timer);
    }
    const closed = context.closed();
    if (closed !== undefined) throw closed;
    // The last wait ends at the deadline, and one more attempt is made there.
    const wait = Math.min(delay, deadline - Date.now());
    if (wait <= 0) break;
    await new Promise((resolve) => setTimeout(resolve, wait));
    const closedMeanwhile = context.closed();
    if (closedMeanwhile !== undefined) throw closedMeanwhile;
    delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
  }
  throw new RedisRelayError(
    'redis_unavailable',
    `Redis did not serve ${context.what} of ${context.backend} within ${context.windowMs} ms` +
      (outcome === 'unknown' ? ' (an attempt may have taken effect)' : ' (nothing changed)'),
    { retryable: true, details: { backend: context.backend, outcome }, cause: lastError },
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

/**
 * The key that remembers, for a while, the buffer id one `append` attempt was given (`token`: unique
 * per append), so that an attempt retried after a lost answer returns it instead of adding the frame
 * again. In the hash slot of the tenant's stream, so one script reads and writes both.
 */
export function bufferAppendKey(streamKey: string, token: string): string {
  return `${sameSlotAs(streamKey)}:append:${token}`;
}

/**
 * A key prefix in `key`'s Redis Cluster hash slot: `key` itself when it holds a hash tag, else `key`
 * as the tag. Undefined when neither works (a key with a `}` but no tag).
 */
function sameSlotAs(key: string): string {
  const open = key.indexOf('{');
  if (open >= 0 && key.indexOf('}', open + 1) > open + 1) return key;
  if (!key.includes('}')) return `{${key}}`;
  throw new RedisRelayError(
    'invalid_redis_relay_option',
    `options.keyPrefix: the key ${key} has a "}" but no hash tag, so no other key can share its hash slot`,
    { path: 'options.keyPrefix' },
  );
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
