import {
  type BufferedEntry,
  type BufferedFrame,
  encodeBufferedFrame,
  type InboundBuffer,
  RelayError,
  relayStoreKit,
} from '@agentwire/relay';
import type { Redis } from 'ioredis';
import {
  bufferStreamKey,
  closeOwnedClient,
  openBackendConnection,
  type RedisRelayBackendOptions,
} from './redis-connection.js';

/** The stream entry field that holds the frame's JSON. */
const FRAME_FIELD = 'frame';
const STREAM_ID = /^([0-9]{1,20})-([0-9]{1,20})$/;
const UINT64_MAX = 2n ** 64n - 1n;
const MAX_STREAM_ID = `${UINT64_MAX}-${UINT64_MAX}`;

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
  readonly #client: Redis;
  readonly #ownsClient: boolean;
  readonly #keyPrefix: string;
  #closed = false;

  /**
   * @throws {RedisRelayError} `invalid_redis_relay_option`: a missing `redis`, a `keyPrefix` that is not a
   * string or an `onConnectionError` that is not a function.
   */
  constructor(options: RedisRelayBackendOptions) {
    const connection = openBackendConnection(options, 'RedisInboundBuffer');
    this.#client = connection.client;
    this.#ownsClient = connection.owned;
    this.#keyPrefix = connection.keyPrefix;
  }

  /**
   * @throws {RelayError} `invalid_buffer_argument`: a malformed tenant or frame.
   * @throws {RelayError} `buffer_closed`: after `close()`.
   */
  async append(tenant: string, frame: BufferedFrame): Promise<string> {
    this.#assertOpen();
    const key = this.#key(tenant);
    const bufferId = await this.#client.xadd(key, '*', FRAME_FIELD, encodeBufferedFrame(frame));
    // XADD answers nil only with NOMKSTREAM, which is not used here.
    return bufferId!;
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
    const entries = await this.#client.xrange(key, start, '+', 'COUNT', count);
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
    return (await this.#client.xdel(key, bufferId)) === 1;
  }

  /**
   * @throws {RelayError} `invalid_buffer_argument`: a malformed tenant.
   * @throws {RelayError} `buffer_closed`: after `close()`.
   */
  async size(tenant: string): Promise<number> {
    this.#assertOpen();
    return this.#client.xlen(this.#key(tenant));
  }

  /** Disconnects when the buffer made its own connection; a client passed in stays open. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#ownsClient) await closeOwnedClient(this.#client);
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
