import { describeKeyString, isKeyString } from '../../buffer/key-string.js';
import { RelayError } from '../../errors.js';
import { newGatewaySecret } from '../../secrets/index.js';
import type {
  EnrollmentTokenGrant,
  EnrollmentTokenRedemption,
  EnrollmentTokenStore,
} from './enrollment-token-store.js';

/** Options of {@link InMemoryEnrollmentTokenStore}. */
export interface InMemoryEnrollmentTokenStoreOptions {
  /** The clock TTLs are measured with, in milliseconds. Default `Date.now`. */
  readonly now?: () => number;
}

interface StoredToken {
  readonly tenant: string;
  /** The clock reading from which the token is expired. */
  readonly expiresAt: number;
  readonly used: boolean;
}

/**
 * An {@link EnrollmentTokenStore} for a connector that runs as one process. A used token is
 * remembered until its TTL passes (so it is refused as `used`), then forgotten (`unknown`); expired
 * tokens are swept as new ones are issued. Redemption checks and consumes in one synchronous step.
 *
 * @example
 * ```ts
 * const enrollmentTokens = new InMemoryEnrollmentTokenStore();
 * const token = await enrollmentTokens.issue({ tenant: 'tenant-a', ttlMs: 15 * 60_000 });
 * // hand `token` to the operator: hermes gateway enroll --token <token>
 * ```
 */
export class InMemoryEnrollmentTokenStore implements EnrollmentTokenStore {
  readonly #tokens = new Map<string, StoredToken>();
  readonly #now: () => number;

  /** @throws {RelayError} `invalid_enrollment_argument`: `now` is not a function. */
  constructor(options: InMemoryEnrollmentTokenStoreOptions = {}) {
    const now = options.now ?? Date.now;
    if (typeof now !== 'function') {
      throw new RelayError('invalid_enrollment_argument', 'options.now must be a function', {
        path: 'options.now',
      });
    }
    this.#now = now;
  }

  /**
   * @throws {RelayError} `invalid_enrollment_argument`: a malformed tenant or a TTL that is not a positive
   *   finite number.
   */
  async issue(grant: EnrollmentTokenGrant): Promise<string> {
    const { tenant, ttlMs } = (grant ?? {}) as Partial<EnrollmentTokenGrant>;
    const owner = keyString(tenant, 'grant.tenant');
    if (typeof ttlMs !== 'number' || !Number.isFinite(ttlMs) || ttlMs <= 0) {
      throw new RelayError(
        'invalid_enrollment_argument',
        'grant.ttlMs must be a positive finite number of milliseconds',
        { path: 'grant.ttlMs' },
      );
    }
    const now = this.#now();
    this.#sweep(now);
    const token = newGatewaySecret();
    this.#tokens.set(token, { tenant: owner, expiresAt: now + ttlMs, used: false });
    return token;
  }

  /**
   * @throws {RelayError} `invalid_enrollment_argument`: a token or tenant that is not a non-empty,
   *   well-formed string.
   */
  async redeem(token: string, tenant: string): Promise<EnrollmentTokenRedemption> {
    const key = keyString(token, 'token');
    const caller = keyString(tenant, 'tenant');
    const stored = this.#tokens.get(key);
    if (stored === undefined) return { redeemed: false, reason: 'unknown' };
    if (this.#now() >= stored.expiresAt) {
      this.#tokens.delete(key);
      return { redeemed: false, reason: 'expired' };
    }
    if (stored.used) return { redeemed: false, reason: 'used' };
    if (stored.tenant !== caller) return { redeemed: false, reason: 'tenant_mismatch' };
    this.#tokens.set(key, { ...stored, used: true });
    return { redeemed: true };
  }

  #sweep(now: number): void {
    for (const [token, stored] of this.#tokens) if (now >= stored.expiresAt) this.#tokens.delete(token);
  }
}

function keyString(value: unknown, path: string): string {
  if (isKeyString(value)) return value;
  throw new RelayError(
    'invalid_enrollment_argument',
    `${path} must be a non-empty, well-formed string, got ${describeKeyString(value)}`,
    { path },
  );
}
