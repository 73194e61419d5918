import { randomBytes } from 'node:crypto';
import {
  type BufferedEntry,
  type BufferedFrame,
  encodeBufferedFrame,
  type InboundBuffer,
  RelayError,
  relayStoreKit,
} from '@agentwire/relay';
import { RedisRelayError } from './errors.js';
import type { RedisClient } from './redis-connection.js';
import {
  bufferAppendKey,
  bufferStreamKey,
  closeOwnedClient,
  DEFAULT_FAILOVER_WINDOW_MS,
  openBackendConnection,
  type RedisRelayBackendOptions,
  retryAcrossFailover,
} from './redis-connection.js';

/** The stream entry field that holds the frame's JSON. */
const FRAME_FIELD = 'frame';
const STREAM_ID = /^([0-9]{1,20})-([0-9]{1,20})$/;
const UINT64_MAX = 2n ** 64n - 1n;
const MAX_STREAM_ID = `${UINT64_MAX}-${UINT64_MAX}`;
/** How much longer than the failover window an append's token is remembered, should it not be deleted. */
const APPEND_TOKEN_GRACE_MS = 60_000;

// KEYS[1] the stream, KEYS[2] the append's token key; ARGV[1] the frame, ARGV[2] the token's TTL.
// An attempt whose token is known answers the id the first one got: a retried append adds nothing.
const APPEND = `
local id = redis.call('GET', KEYS[2])
if id then return id end
id = redis.call('XADD', KEYS[1], '*', '${FRAME_FIELD}', ARGV[1])
redis.call('SET', KEYS[2], id, 'PX', ARGV[2])
return id
`;

/** Options of {@link RedisInboundBuffer}. */
export interface RedisInboundBufferOptions extends RedisRelayBackendOptions {
  /**
   * How long a command is retried, in milliseconds, while Redis is unreachable or a cluster master fails
   * over (default 15 000; 0 tries once). An `append` retried after a lost answer is not stored twice;
   * past the window the call throws `redis_unavailable`.
   */
  readonly failoverWindowMs?: number;
}

/**
 * An {@link InboundBuffer} on Redis Streams, shared by every instance of a connector: one stream per
 * tenant (`<keyPrefix>buffer:<tenant, URI-encoded>`), one entry per frame (its JSON in field
 * `frame`). The buffer id is the stream entry id Redis assigns (`<ms>-<seq>`): strictly increasing
 * within the stream and never issued again, because an acknowledged entry is removed with `XDEL`,
 * which keeps the stream (empty) and its last id. `read` is `XRANGE` from the exclusive start
 * `(<afterId>`, so a position that was acknowledged meanwhile still works.
 *
 * `append` resolves once Redis answered `XADD`: the frame is in the server's memory, and survives a
 * crash of the connector instance; surviving a crash of Redis itself is the server's persistence
 * configuration (AOF with `appendfsync always`, or replicas). Needs Redis ≥ 6.2 (exclusive ranges)
 * and a `maxmemory-policy` that never evicts (`noeviction`): an evicted stream loses frames and may
 * reissue ids.
 *
 * While Redis is unreachable, or a Redis Cluster master fails over, every command is retried for
 * `failoverWindowMs`. Each `append` carries a token of its own, kept next to the stream (a script
 * does both) until the append is answered — at most the window and a minute — so an attempt retried
 * after its answer was lost returns the id the first attempt got: a frame is stored once or, when the
 * call throws `redis_unavailable` with `details.outcome: 'not_run'`, not at all. (A failover can still lose what the old master had not
 * yet copied to its replica: Redis replicates asynchronously.)
 *
 * @example
 * ```ts
 * const buffer = new RedisInboundBuffer({ redis: { host: '127.0.0.1', port: 6379 } });
 * const bufferId = await buffer.append('tenant-a', { type: 'inbound', event: { text: 'hi' } });
 * await buffer.read('tenant-a', null, 100); // [{ bufferId: '1767225600000-0', frameJson: '{"type":"inbound",…}' }]
 * await buffer.ack('tenant-a', bufferId); // true
 * await buffer.close(); // disconnects: the buffer made the connection from options
 * ```
 */
export class RedisInboundBuffer implements InboundBuffer {
  readonly #client: RedisClient;
  readonly #ownsClient: boolean;
  readonly #keyPrefix: string;
  readonly #windowMs: number;
  /** This instance's part of every append token; a counter makes each unique. */
  readonly #tokenPrefix = randomBytes(12).toString('base64url');
  #appends = 0;
  #closed = false;

  /**
   * @throws {RedisRelayError} `invalid_redis_relay_option`: a missing `redis`, a `keyPrefix` that is not a
   * string (or holds a `}` outside a hash tag), an `onConnectionError` that is not a function, a
   * `failoverWindowMs` that is not a non-negative number of milliseconds.
   */
  constructor(options: RedisInboundBufferOptions) {
    const windowMs = options?.failoverWindowMs ?? DEFAULT_FAILOVER_WINDOW_MS;
    if (typeof windowMs !== 'number' || !Number.isFinite(windowMs) || windowMs < 0) {
      throw new RedisRelayError(
        'invalid_redis_relay_option',
        'options.failoverWindowMs must be a non-negative number of milliseconds',
        { path: 'options.failoverWindowMs' },
      );
    }
    const connection = openBackendConnection(options, 'RedisInboundBuffer');
    this.#client = connection.client;
    this.#ownsClient = connection.owned;
    this.#keyPrefix = connection.keyPrefix;
    this.#windowMs = windowMs;
    // Refuses a key prefix no token key can share a hash slot with, now rather than on the first append.
    bufferAppendKey(bufferStreamKey(this.#keyPrefix, 'tenant'), 'token');
  }

  /**
   * @throws {RelayError} `invalid_buffer_argument`: a malformed tenant or frame.
   * @throws {RelayError} `buffer_closed`: after `close()`.
   */
  async append(tenant: string, frame: BufferedFrame): Promise<string> {
    this.#assertOpen();
    const key = this.#key(tenant);
    const text = encodeBufferedFrame(frame);
    this.#appends += 1;
    const tokenKey = bufferAppendKey(key, `${this.#tokenPrefix}.${this.#appends.toString(36)}`);
    const ttl = String(Math.ceil(this.#windowMs) + APPEND_TOKEN_GRACE_MS);
    const bufferId = await this.#retry('append', async () => {
      const id = await this.#client.eval(APPEND, 2, key, tokenKey, text, ttl);
      return id as string;
    });
    // Answered: no attempt of this append is left to retry, so its token is of no more use. Should the
    // delete fail, the token expires by itself.
    this.#client.unlink(tokenKey).catch(() => undefined);
    return bufferId;
  }

  /**
   * @throws {RelayError} `invalid_buffer_argument`: a malformed tenant, an `afterId` that is not a stream
   *   id, a `limit` that is not a positive integer.
   * @throws {RelayError} `corrupt_buffered_frame`: an entry of the stream that this buffer did not write.
   * @throws {RelayError} `buffer_closed`: after `close()`.
   */
  async read(tenant: string, afterId: string | null, limit: number): Promise<readonly BufferedEntry[]> {
    this.#assertOpen();
    const key = this.#key(tenant);
    if (afterId !== null && !isStreamId(afterId)) {
      throw new RelayError(
        'invalid_buffer_argument',
        'afterId must be null or a buffer id this buffer issued (a Redis stream id)',
        { path: 'afterId' },
      );
    }
    const count = relayStoreKit.checkReadLimit(limit);
    // Redis refuses an exclusive start at the largest id; nothing can follow it anyway.
    if (afterId === MAX_STREAM_ID) return [];
    const start = afterId === null ? '-' : `(${afterId}`;
    const entries = await this.#retry('read', () => this.#client.xrange(key, start, '+', 'COUNT', count));
    return entries.map(([bufferId, fields]) => ({
      bufferId,
      // The stream is shared: an entry another writer put there is checked before it is replayed.
      frameJson: relayStoreKit.canonicalBufferedFrameJson(frameField(fields)),
    }));
  }

  /**
   * `false` for any string that is not a pending id of the tenant.
   *
   * @throws {RelayError} `invalid_buffer_argument`: a malformed tenant, a `bufferId` that is not a string.
   * @throws {RelayError} `buffer_closed`: after `close()`.
   */
  async ack(tenant: string, bufferId: string): Promise<boolean> {
    this.#assertOpen();
    const key = this.#key(tenant);
    if (typeof bufferId !== 'string') {
      throw new RelayError('invalid_buffer_argument', 'bufferId must be a string', { path: 'bufferId' });
    }
    if (!isStreamId(bufferId)) return false;
    // Retried after a lost answer, an ack that had removed the entry answers false.
    return (await this.#retry('ack', () => this.#client.xdel(key, bufferId))) === 1;
  }

  /**
   * @throws {RelayError} `invalid_buffer_argument`: a malformed tenant.
   * @throws {RelayError} `buffer_closed`: after `close()`.
   */
  async size(tenant: string): Promise<number> {
    this.#assertOpen();
    const key = this.#key(tenant);
    return this.#retry('size', () => this.#client.xlen(key));
  }

  /** Disconnects when the buffer made its own connection; a client passed in stays open. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#ownsClient) await closeOwnedClient(this.#client);
  }

  #retry<T>(what: string, command: () => Promise<T>): Promise<T> {
    return retryAcrossFailover(command, {
      backend: 'RedisInboundBuffer',
      what,
      windowMs: this.#windowMs,
      closed: () =>
        this.#closed ? new RelayError('buffer_closed', 'the inbound buffer is closed') : undefined,
    });
  }

  #key(tenant: string): string {
    return bufferStreamKey(this.#keyPrefix, relayStoreKit.checkBufferTenant(tenant));
  }

  #assertOpen(): void {
    if (this.#closed) throw new RelayError('buffer_closed', 'the inbound buffer is closed');
  }
}

/** Whether `value` is a stream id Redis accepts: two unsigned 64-bit decimals joined by `-`. */
function isStreamId(value: string): boolean {
  const match = STREAM_ID.exec(value);
  return match !== null && BigInt(match[1]!) <= UINT64_MAX && BigInt(match[2]!) <= UINT64_MAX;
}

function frameField(fields: readonly string[]): string {
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === FRAME_FIELD) return fields[i + 1]!;
  }
  throw new RelayError('corrupt_buffered_frame', `a stream entry has no "${FRAME_FIELD}" field`, {
    path: FRAME_FIELD,
  });
}
