import type { EnrollmentTokenRedemption, EnrollmentTokenStore } from '@agentwire/relay/edge';
import { assertEqual, assertRefuses, assertTrue } from '../../assert.js';
import type { ConformanceCase, ConformanceSuite } from '../../suite.js';
import { SHARED_BACKEND_NEEDS, sleep, uniqueTenant } from '../relay-runtime/runtime-support.js';
import {
  argument,
  EDGE_STORES_FIRST_VERSION,
  type EdgeStoreContext,
  type EdgeStoreSuiteOptions,
  edgeStoreSetup,
  RELAY_EDGE_STORES_SUITE_VERSION,
  singleStoreCase,
  withStores,
} from './edge-store-support.js';

type Ctx = EnrollmentTokenStoreContext;
type Case = ConformanceCase<Ctx>;

const since = EDGE_STORES_FIRST_VERSION;
const SECTION = 'EnrollmentTokenStore rules; relay-reference §13 (/relay/enroll)';
const SECTION_SHARED = 'EnrollmentTokenStore rules; relay-reference §13; ARCHITECTURE decision 7';
const LONG_TTL_MS = 600_000;
/** How many redemptions race for one token in the concurrency cases. */
const RACERS = 8;

const REDEEMED: EnrollmentTokenRedemption = { redeemed: true };
const refused = (reason: string) => ({ redeemed: false, reason });

function withStore<R>(
  ctx: EnrollmentTokenStoreContext,
  body: (store: EnrollmentTokenStore) => Promise<R>,
): Promise<R> {
  return withStores(ctx, 1, ([store]) => body(store!));
}

/** Lets the short TTL and a quarter of it more pass, so a token issued with it is surely expired. */
async function outliveShortTtl(ctx: EnrollmentTokenStoreContext): Promise<void> {
  await ctx.elapse(ctx.shortTtlMs);
  await ctx.elapse(Math.max(1, ctx.shortTtlMs / 4));
}

/** Checks that exactly one of `outcomes` redeemed and every other one was refused as `used`. */
function assertOneWinner(outcomes: readonly EnrollmentTokenRedemption[]): void {
  const won = outcomes.filter((outcome) => outcome.redeemed).length;
  assertEqual(won, 1, `redemptions that succeeded out of ${outcomes.length} concurrent ones`);
  for (const outcome of outcomes) {
    if (!outcome.redeemed) assertEqual(outcome, refused('used'), 'a losing concurrent redemption');
  }
}

/** Every rule of the `EnrollmentTokenStore` interface. */
export function enrollmentTokenCases(suiteName: string): Case[] {
  const id = (rest: string) => `${suiteName}.${rest}`;
  const one = (
    caseId: string,
    title: string,
    body: (store: EnrollmentTokenStore, ctx: Ctx) => Promise<void>,
  ) =>
    singleStoreCase<EnrollmentTokenStore, Ctx>({ suiteName, section: SECTION, since }, caseId, title, body);
  return [
    singleStoreCase<EnrollmentTokenStore, Ctx>(
      { suiteName, section: SECTION, since: RELAY_EDGE_STORES_SUITE_VERSION },
      'issue.keeps-live-tokens',
      'issuing more tokens leaves the live ones redeemable',
      async (store) => {
        const tenant = uniqueTenant('enroll');
        const first = await store.issue({ tenant, ttlMs: LONG_TTL_MS });
        await store.issue({ tenant, ttlMs: LONG_TTL_MS });
        await store.issue({ tenant: uniqueTenant('enroll-other'), ttlMs: LONG_TTL_MS });
        assertEqual(
          await store.redeem(first, tenant),
          REDEEMED,
          'the first token, after two more were issued',
        );
      },
    ),
    one('issue.fresh-tokens', 'issue answers a non-empty token, a different one each time', async (store) => {
      const tenant = uniqueTenant('enroll');
      const tokens = new Set<string>();
      for (let i = 0; i < 16; i += 1) {
        const token = await store.issue({ tenant, ttlMs: LONG_TTL_MS });
        assertTrue(typeof token === 'string' && token !== '', 'issue answered an empty or non-string token');
        tokens.add(token);
      }
      assertEqual(tokens.size, 16, 'distinct tokens out of 16 issued');
    }),
    one(
      'redeem.once',
      'the issuing tenant redeems a live token once; the next redemption is refused as used',
      async (store) => {
        const tenant = uniqueTenant('enroll');
        const token = await store.issue({ tenant, ttlMs: LONG_TTL_MS });
        assertEqual(await store.redeem(token, tenant), REDEEMED, 'first redemption');
        assertEqual(await store.redeem(token, tenant), refused('used'), 'second redemption');
      },
    ),
    {
      id: id('redeem.concurrent-once'),
      title: `of ${RACERS} concurrent redemptions of one token exactly one succeeds, the others read used`,
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withStore(ctx, async (store) => {
          const tenant = uniqueTenant('enroll');
          const token = await store.issue({ tenant, ttlMs: LONG_TTL_MS });
          const racing = Array.from({ length: RACERS }, () => store.redeem(token, tenant));
          assertOneWinner(await Promise.all(racing));
        }),
    },
    one('redeem.unknown', 'a token nobody issued is refused as unknown', async (store) => {
      const tenant = uniqueTenant('enroll');
      await store.issue({ tenant, ttlMs: LONG_TTL_MS });
      const guess = `never-issued-${uniqueTenant('token')}`;
      assertEqual(await store.redeem(guess, tenant), refused('unknown'), 'redemption of a guess');
    }),
    one(
      'redeem.tenant-mismatch-not-spent',
      "another tenant's redemption is refused as tenant_mismatch and leaves the token redeemable",
      async (store) => {
        const owner = uniqueTenant('enroll-owner');
        const token = await store.issue({ tenant: owner, ttlMs: LONG_TTL_MS });
        const other = uniqueTenant('enroll-other');
        assertEqual(await store.redeem(token, other), refused('tenant_mismatch'), 'by another tenant');
        assertEqual(await store.redeem(token, other), refused('tenant_mismatch'), 'by it again');
        assertEqual(await store.redeem(token, owner), REDEEMED, 'by the issuing tenant');
      },
    ),
    one(
      'redeem.live-until-ttl',
      'a token stays redeemable while its TTL has not passed',
      async (store, ctx) => {
        const tenant = uniqueTenant('enroll');
        const token = await store.issue({ tenant, ttlMs: LONG_TTL_MS });
        await outliveShortTtl(ctx);
        assertEqual(await store.redeem(token, tenant), REDEEMED, 'redemption well within the TTL');
      },
    ),
    one(
      'redeem.expired',
      'a token whose TTL has passed is refused as expired, and never redeemed afterwards',
      async (store, ctx) => {
        const tenant = uniqueTenant('enroll');
        const token = await store.issue({ tenant, ttlMs: ctx.shortTtlMs });
        await outliveShortTtl(ctx);
        assertEqual(await store.redeem(token, tenant), refused('expired'), 'redemption after the TTL');
        const again = await store.redeem(token, tenant);
        assertTrue(!again.redeemed, 'an expired token was redeemed on the second try');
      },
    ),
    one(
      'redeem.used-never-again',
      'a used token is not accepted again, before or after its TTL',
      async (store, ctx) => {
        const tenant = uniqueTenant('enroll');
        const token = await store.issue({ tenant, ttlMs: ctx.shortTtlMs });
        assertEqual(await store.redeem(token, tenant), REDEEMED, 'first redemption');
        await outliveShortTtl(ctx);
        const late = await store.redeem(token, tenant);
        assertTrue(!late.redeemed, 'a used token was redeemed again after its TTL');
      },
    ),
    {
      id: id('arguments.refused'),
      title:
        'a TTL that is not a positive finite number, and an empty tenant or token, are refused as invalid_enrollment_argument naming the argument',
      section: SECTION,
      level: 'recommended',
      since,
      run: (ctx) =>
        withStore(ctx, async (store) => {
          const tenant = uniqueTenant('enroll');
          for (const ttlMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '100']) {
            await assertRefuses(
              () => store.issue({ tenant, ttlMs } as never),
              argument('grant.ttlMs'),
              `issue with ttlMs ${String(ttlMs)}`,
            );
          }
          await assertRefuses(
            () => store.issue({ tenant: '', ttlMs: LONG_TTL_MS }),
            argument('grant.tenant'),
            'issue for tenant ""',
          );
          await assertRefuses(() => store.redeem('', tenant), argument('token'), 'redemption of token ""');
          const token = await store.issue({ tenant, ttlMs: LONG_TTL_MS });
          await assertRefuses(() => store.redeem(token, ''), argument('tenant'), 'redemption for tenant ""');
          assertEqual(await store.redeem(token, tenant), REDEEMED, 'redemption after the refused one');
        }),
    },
    {
      id: id('shared.redeem-across-instances'),
      title: 'a token issued on one instance is redeemed once on another, and reads used on the first',
      section: SECTION_SHARED,
      level: 'required',
      requires: 'shared-backend',
      since,
      run: (ctx) =>
        withStores(ctx, 2, async ([issuer, other]) => {
          const tenant = uniqueTenant('enroll');
          const token = await issuer!.issue({ tenant, ttlMs: LONG_TTL_MS });
          const stranger = uniqueTenant('enroll-other');
          assertEqual(await other!.redeem(token, stranger), refused('tenant_mismatch'), 'by another tenant');
          assertEqual(await other!.redeem(token, tenant), REDEEMED, 'redemption elsewhere');
          assertEqual(await issuer!.redeem(token, tenant), refused('used'), 'redemption where it was issued');
        }),
    },
    {
      id: id('shared.concurrent-once-across-instances'),
      title: 'of concurrent redemptions of one token on two instances exactly one succeeds',
      section: SECTION_SHARED,
      level: 'required',
      requires: 'shared-backend',
      since,
      run: (ctx) =>
        withStores(ctx, 3, async ([issuer, first, second]) => {
          const tenant = uniqueTenant('enroll');
          for (let round = 0; round < 4; round += 1) {
            const token = await issuer!.issue({ tenant, ttlMs: LONG_TTL_MS });
            const racing = Array.from({ length: RACERS }, (_, i) =>
              (i % 2 === 0 ? first! : second!).redeem(token, tenant),
            );
            assertOneWinner(await Promise.all(racing));
          }
        }),
    },
  ];
}

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
 * import { InMemoryEnrollmentTokenStore } from '@agentwire/relay/testing';
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
    needs: SHARED_BACKEND_NEEDS,
    setup: () =>
      edgeStoreSetup(options, {
        elapse: elapse === undefined ? sleep : async (ms: number) => elapse(ms),
        shortTtlMs,
      }),
  };
}
