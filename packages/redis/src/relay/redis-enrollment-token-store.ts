import { createHash } from 'node:crypto';
import { newGatewaySecret, RelayError } from '@agentwire/relay';
import {
  checkEdgeName,
  type EnrollmentTokenGrant,
  type EnrollmentTokenRedemption,
  type EnrollmentTokenRefusal,
  type EnrollmentTokenStore,
} from '@agentwire/relay/edge';
import type { Redis } from 'ioredis';
import { edgeStoreClosedError, RedisRelayError } from './errors.js';
import {
  closeOwnedClient,
  openBackendConnection,
  type RedisRelayBackendOptions,
} from './redis-connection.js';
import { enrollmentTokenKey } from './relay-keys.js';

/** How long a token's record outlives its TTL unless told otherwise: one hour. */
export const DEFAULT_EXPIRED_TOKEN_RETENTION_MS = 3_600_000;

/** Options of {@link RedisEnrollmentTokenStore}. */
export interface RedisEnrollmentTokenStoreOptions extends RedisRelayBackendOptions {
  /**
   * The clock TTLs are measured with, in milliseconds. Default `Date.now`. Every instance sharing the
   * database should read the same clock (within the skew you tolerate): a token issued on one
   * instance is judged by the clock of the instance that redeems it.
   */
  readonly now?: () => number;
  /**
   * How long Redis keeps a token's record after its TTL has passed, in milliseconds (≥ 0), so that a
   * late redemption is refused as `expired` rather than `unknown`. Default
   * {@link DEFAULT_EXPIRED_TOKEN_RETENTION_MS}. The record holds no token, only its digest.
   */
  readonly expiredRetentionMs?: number;
}

// KEYS[1]: the token's hash. ARGV: the caller's tenant, the clock reading. Checks in the order of the
// in-memory store (expired, used, tenant) and spends the token in the same atomic step.
const REDEEM = `local record = redis.call('HMGET', KEYS[1], 'tenant', 'expiresAt', 'used')
if not record[1] then return 'unknown' end
if tonumber(ARGV[2]) >= tonumber(record[2]) then
  redis.call('DEL', KEYS[1])
  return 'expired'
end
if record[3] == '1' then return 'used' end
if record[1] ~= ARGV[1] then return 'tenant_mismatch' end
redis.call('HSET', KEYS[1], 'used', '1')
return 'redeemed'`;

/**
 * An {@link EnrollmentTokenStore} on Redis, shared by every instance of a connector: a token issued
 * on one instance is redeemed on any other, exactly once. Each token is a hash
 * (`<keyPrefix>enrollment-token:<SHA-256 of the token, base64url>`) holding `tenant`, `expiresAt`
 * (on the store's clock) and `used`; the token itself is never stored, so a dump of the database
 * yields no redeemable token. `redeem` is a Lua script that checks and spends the token in one
 * atomic step: of any number of concurrent redemptions, on any instances, exactly one succeeds.
 * Refusals match the in-memory store: `expired` (the record is then deleted, so the next try reads
 * `unknown`), `used`, `tenant_mismatch` (the token is not spent), `unknown`. Redis drops the record
 * `expiredRetentionMs` after the TTL; a redemption after that reads `unknown`. Node only (ioredis).
 *
 * @example
 * ```ts
 * const enrollmentTokens = new RedisEnrollmentTokenStore({ redis });
 * const token = await enrollmentTokens.issue({ tenant: 'tenant-a', ttlMs: 15 * 60_000 });
 * // hand `token` to the operator: hermes gateway enroll --token <token> (any instance redeems it)
 * ```
 */
export class RedisEnrollmentTokenStore implements EnrollmentTokenStore {
  readonly #client: Redis;
  readonly #ownsClient: boolean;
  readonly #keyPrefix: string;
  readonly #now: () => number;
  readonly #retentionMs: number;
  #closed = false;

  /**
   * @throws {RedisRelayError} `invalid_redis_relay_option`: a missing `redis`, a `keyPrefix` that is not a
   * string, an `onConnectionError` that is not a function, or an `expiredRetentionMs` that is not a finite
   * number ≥ 0.
   * @throws {RelayError} `invalid_enrollment_argument`: `now` is not a function.
   */
  constructor(options: RedisEnrollmentTokenStoreOptions) {
    const { now = Date.now, expiredRetentionMs = DEFAULT_EXPIRED_TOKEN_RETENTION_MS } = (options ??
      {}) as Partial<RedisEnrollmentTokenStoreOptions>;
    if (typeof now !== 'function') {
      throw new RelayError('invalid_enrollment_argument', 'options.now must be a function', {
        path: 'options.now',
      });
    }
    if (
      typeof expiredRetentionMs !== 'number' ||
      !Number.isFinite(expiredRetentionMs) ||
      expiredRetentionMs < 0
    ) {
      throw new RedisRelayError(
        'invalid_redis_relay_option',
        'options.expiredRetentionMs must be a finite number of milliseconds ≥ 0',
        { path: 'options.expiredRetentionMs' },
      );
    }
    const connection = openBackendConnection(options, 'RedisEnrollmentTokenStore');
    this.#client = connection.client;
    this.#ownsClient = connection.owned;
    this.#keyPrefix = connection.keyPrefix;
    this.#now = now;
    this.#retentionMs = expiredRetentionMs;
  }

  /**
   * @throws {RelayError} `invalid_enrollment_argument`: a malformed tenant or a TTL that is not a positive finite number.
   * @throws {RedisRelayError} `edge_store_closed`: after `close()`.
   */
  async issue(grant: EnrollmentTokenGrant): Promise<string> {
    this.#assertOpen();
    const { tenant, ttlMs } = (grant ?? {}) as Partial<EnrollmentTokenGrant>;
    const owner = checkEdgeName(tenant, 'grant.tenant');
    if (typeof ttlMs !== 'number' || !Number.isFinite(ttlMs) || ttlMs <= 0) {
      throw new RelayError(
        'invalid_enrollment_argument',
        'grant.ttlMs must be a positive finite number of milliseconds',
        {
          path: 'grant.ttlMs',
        },
      );
    }
    const token = newGatewaySecret();
    const key = this.#key(token);
    const keepMs = Math.min(Math.ceil(ttlMs + this.#retentionMs), Number.MAX_SAFE_INTEGER);
    const replies = await this.#client
      .multi()
      .hset(key, 'tenant', owner, 'expiresAt', String(this.#now() + ttlMs), 'used', '0')
      .pexpire(key, keepMs)
      .exec();
    const failure = replies?.find(([error]) => error !== null)?.[0];
    if (failure) throw failure;
    return token;
  }

  /**
   * @throws {RelayError} `invalid_enrollment_argument`: a token or tenant that is not a non-empty, well-formed string.
   * @throws {RedisRelayError} `edge_store_closed`: after `close()`.
   */
  async redeem(token: string, tenant: string): Promise<EnrollmentTokenRedemption> {
    this.#assertOpen();
    const key = this.#key(checkEdgeName(token, 'token'));
    const caller = checkEdgeName(tenant, 'tenant');
    const outcome = (await this.#client.eval(REDEEM, 1, key, caller, String(this.#now()))) as
      | 'redeemed'
      | EnrollmentTokenRefusal;
    return outcome === 'redeemed' ? { redeemed: true } : { redeemed: false, reason: outcome };
  }

  /** Disconnects when the store made its own connection; a client passed in stays open. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#ownsClient) await closeOwnedClient(this.#client);
  }

  #key(token: string): string {
    return enrollmentTokenKey(
      this.#keyPrefix,
      createHash('sha256').update(token, 'utf8').digest('base64url'),
    );
  }

  #assertOpen(): void {
    if (this.#closed) throw edgeStoreClosedError('RedisEnrollmentTokenStore');
  }
}
