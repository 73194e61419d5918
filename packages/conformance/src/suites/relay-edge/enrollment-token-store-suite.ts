import type { EnrollmentTokenStore } from '@agentwire/relay/edge';
import type { ConformanceSuite } from '../../suite.js';
import { sleep } from '../relay-runtime/runtime-support.js';
import { type EdgeStoreContext, type EdgeStoreSuiteOptions, edgeStoreSetup } from './edge-store-support.js';
import { RELAY_EDGE_STORES_SUITE_VERSION } from './edge-stores-version.js';
import { enrollmentTokenCases } from './enrollment-token-cases.js';

/** Options of {@link enrollmentTokenStoreSuite}; `Store` is the implementation's own type. */
export interface EnrollmentTokenStoreSuiteOptions<Store extends EnrollmentTokenStore = EnrollmentTokenStore>
  extends EdgeStoreSuiteOptions<Store> {
  /**
   * Lets `ms` milliseconds pass for the stores `create` makes. Give it when they read a clock the
   * caller controls (advance it, resolve at once); without it the expiry cases wait in real time.
   */
  readonly elapse?: (ms: number) => void | Promise<void>;
  /** The short TTL the expiry cases issue with, in milliseconds. Default 100. */
  readonly shortTtlMs?: number;
}

/** The context every case of {@link enrollmentTokenStoreSuite} receives. */
export interface EnrollmentTokenStoreContext extends EdgeStoreContext<EnrollmentTokenStore> {
  readonly elapse: (ms: number) => Promise<void>;
  readonly shortTtlMs: number;
}

const SUITE_NAME = 'relay-edge.enrollment-tokens';

/**
 * The `EnrollmentTokenStore` rules (relay-reference §13, `/relay/enroll`): fresh random tokens bound
 * to a tenant, redeemable once and only by that tenant (`tenant_mismatch` does not spend the token),
 * `used`, `expired` and `unknown` refusals, exactly one winner among concurrent redemptions, and —
 * with capability `shared-backend` — tokens issued on one instance redeemed once across instances.
 *
 * @example
 * ```ts
 * import { InMemoryEnrollmentTokenStore } from '@agentwire/relay/edge';
 * let now = 0;
 * const report = await runSuite(
 *   enrollmentTokenStoreSuite({
 *     create: () => new InMemoryEnrollmentTokenStore({ now: () => now }),
 *     elapse: (ms) => { now += ms; },
 *   }),
 * );
 * ```
 */
export function enrollmentTokenStoreSuite<Store extends EnrollmentTokenStore>(
  options: EnrollmentTokenStoreSuiteOptions<Store>,
): ConformanceSuite<EnrollmentTokenStoreContext> {
  const { elapse, shortTtlMs = 100 } = options;
  return {
    name: SUITE_NAME,
    version: RELAY_EDGE_STORES_SUITE_VERSION,
    description:
      'The EnrollmentTokenStore rules: fresh tokens, one redemption by the issuing tenant even under ' +
      'concurrency, used / expired / unknown / tenant_mismatch refusals, tokens shared between instances.',
    cases: enrollmentTokenCases(SUITE_NAME),
    setup: () =>
      edgeStoreSetup(options, {
        elapse: elapse === undefined ? sleep : async (ms: number) => elapse(ms),
        shortTtlMs,
      }),
  };
}
