/** What a one-time enrollment token is minted for. */
export interface EnrollmentTokenGrant {
  /** The tenant whose caller may redeem the token. */
  readonly tenant: string;
  /** How long the token stays redeemable, in milliseconds (> 0). */
  readonly ttlMs: number;
}

/** Why a token was not redeemed. */
export type EnrollmentTokenRefusal = 'unknown' | 'used' | 'expired' | 'tenant_mismatch';

/** The outcome of {@link EnrollmentTokenStore.redeem}. */
export type EnrollmentTokenRedemption =
  | { readonly redeemed: true }
  | { readonly redeemed: false; readonly reason: EnrollmentTokenRefusal };

/**
 * Holds the one-time tokens an operator hands to `hermes gateway enroll --token`.
 *
 * Rules every implementation keeps:
 * - `issue` returns a fresh random token bound to a tenant, redeemable until its TTL has passed;
 * - `redeem` consumes a live token of the caller's tenant atomically: of two concurrent redemptions
 *   exactly one succeeds, and a used token is never accepted again;
 * - a token presented by another tenant is refused (`tenant_mismatch`) and not consumed; an expired
 *   one is refused (`expired`).
 */
export interface EnrollmentTokenStore {
  issue(grant: EnrollmentTokenGrant): Promise<string>;
  redeem(token: string, tenant: string): Promise<EnrollmentTokenRedemption>;
}
