import type {
  EnrollmentTokenGrant,
  EnrollmentTokenStore,
  GatewayRelevancePolicy,
  PolicyStore,
  ProvisionRegistration,
  ProvisionRegistry,
} from '@agentwire/relay/edge';
import {
  InMemoryEnrollmentTokenStore,
  InMemoryPolicyStore,
  InMemoryProvisionRegistry,
} from '@agentwire/relay/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { runSuite } from '../../run-suite.js';
import type { ConformanceSuite } from '../../suite.js';
import { registerSuite } from '../../vitest/index.js';
import { enrollmentTokenStoreSuite } from './enrollment-token-store-suite.js';
import { policyStoreSuite } from './policy-store-suite.js';
import { provisionRegistrySuite } from './provision-registry-suite.js';

/** In-memory token stores on one fake clock the suite advances. */
function fakeClockTokens() {
  let now = 1_750_000_000_000;
  return {
    create: () => new InMemoryEnrollmentTokenStore({ now: () => now }),
    elapse: (ms: number) => {
      now += ms;
    },
  };
}

const failedIds = (report: { results: readonly { id: string; status: string }[] }) =>
  report.results.filter((r) => r.status === 'failed').map((r) => r.id);

describe('edge store suites through registerSuite (in-memory stores)', () => {
  registerSuite(enrollmentTokenStoreSuite(fakeClockTokens()), { describe, it, afterAll });
  registerSuite(provisionRegistrySuite({ create: () => new InMemoryProvisionRegistry() }), {
    describe,
    it,
    afterAll,
  });
  registerSuite(policyStoreSuite({ create: () => new InMemoryPolicyStore() }), { describe, it, afterAll });
});

describe('edge store suites against the in-memory stores', () => {
  const suites = (): ConformanceSuite<unknown>[] => [
    enrollmentTokenStoreSuite(fakeClockTokens()),
    provisionRegistrySuite({ create: () => new InMemoryProvisionRegistry() }),
    policyStoreSuite({ create: () => new InMemoryPolicyStore() }),
  ];

  it('pass every case but the shared-backend ones, which are skipped', async () => {
    for (const suite of suites()) {
      const report = await runSuite(suite);
      expect(failedIds(report)).toEqual([]);
      expect(report.ok).toBe(true);
      const skipped = report.results.filter((r) => r.status === 'skipped').map((r) => r.id);
      expect(skipped.length).toBeGreaterThan(0);
      expect(skipped.every((caseId) => caseId.includes('.shared.'))).toBe(true);
    }
  });

  it('pass the token suite in real time, without an elapse function', async () => {
    const report = await runSuite(
      enrollmentTokenStoreSuite({ create: () => new InMemoryEnrollmentTokenStore(), shortTtlMs: 20 }),
    );
    expect(failedIds(report)).toEqual([]);
  });

  it('pass the shared-backend cases when every instance is one store, releasing each store created', async () => {
    const tokens = new InMemoryEnrollmentTokenStore();
    const registry = new InMemoryProvisionRegistry();
    const policies = new InMemoryPolicyStore();
    const released: unknown[] = [];
    const release = (store: unknown) => void released.push(store);
    const reports = [
      await runSuite(enrollmentTokenStoreSuite({ create: () => tokens, release, sharedBackend: true })),
      await runSuite(provisionRegistrySuite({ create: () => registry, release, sharedBackend: true })),
      await runSuite(policyStoreSuite({ create: () => policies, release, sharedBackend: true })),
    ];
    for (const report of reports) {
      expect(failedIds(report)).toEqual([]);
      expect(report.counts.skipped).toBe(0);
    }
    const cases = reports.reduce((sum, report) => sum + report.results.length, 0);
    expect(released.length).toBeGreaterThanOrEqual(cases);
  });

  it('have unique, kebab-case, suite-prefixed case ids', () => {
    for (const suite of suites()) {
      const ids = suite.cases.map((c) => c.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const caseId of ids) {
        expect(caseId.startsWith(`${suite.name}.`)).toBe(true);
        expect(caseId).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
      }
    }
  });
});

describe('edge store suites catch broken stores', () => {
  it('fail a token store whose redemption checks and spends in two steps, and spends on a tenant mismatch', async () => {
    /** Reads the token, yields, then writes: concurrent redemptions all see it unused. */
    class RacyTokens implements EnrollmentTokenStore {
      readonly #tokens = new Map<string, { tenant: string; used: boolean }>();
      readonly #inner = new InMemoryEnrollmentTokenStore();
      async issue(grant: EnrollmentTokenGrant) {
        const token = await this.#inner.issue(grant);
        this.#tokens.set(token, { tenant: grant.tenant, used: false });
        return token;
      }
      async redeem(token: string, tenant: string) {
        const stored = this.#tokens.get(token);
        if (stored === undefined) return { redeemed: false, reason: 'unknown' } as const;
        await new Promise((resolve) => setTimeout(resolve, 1));
        if (stored.used) return { redeemed: false, reason: 'used' } as const;
        this.#tokens.set(token, { ...stored, used: true });
        if (stored.tenant !== tenant) return { redeemed: false, reason: 'tenant_mismatch' } as const;
        return { redeemed: true } as const;
      }
    }
    const report = await runSuite(
      enrollmentTokenStoreSuite({ create: () => new RacyTokens(), shortTtlMs: 20 }),
    );
    expect(failedIds(report)).toEqual(
      expect.arrayContaining([
        'relay-edge.enrollment-tokens.redeem.concurrent-once',
        'relay-edge.enrollment-tokens.redeem.tenant-mismatch-not-spent',
        'relay-edge.enrollment-tokens.redeem.expired',
      ]),
    );
    expect(failedIds(report)).not.toContain('relay-edge.enrollment-tokens.redeem.once');
  });

  it('fail a registry that hands a route key to whichever tenant registers last', async () => {
    /** Claims every declared key, whoever holds it. */
    class GreedyRegistry implements ProvisionRegistry {
      readonly #inner = new InMemoryProvisionRegistry();
      readonly #routes = new Map<string, { tenant: string; gatewayId: string }>();
      async register(registration: ProvisionRegistration) {
        await this.#inner.register(registration);
        const keys = [...new Set(registration.routeKeys)];
        for (const key of keys) {
          this.#routes.set(JSON.stringify([registration.platform, key]), {
            tenant: registration.tenant,
            gatewayId: registration.gatewayId,
          });
        }
        return keys;
      }
      get(gatewayId: string, platform: string) {
        return this.#inner.get(gatewayId, platform);
      }
      async route(platform: string, routeKey: string) {
        return this.#routes.get(JSON.stringify([platform, routeKey])) ?? null;
      }
    }
    const report = await runSuite(provisionRegistrySuite({ create: () => new GreedyRegistry() }));
    expect(failedIds(report)).toEqual(
      expect.arrayContaining([
        'relay-edge.provision-registry.route.never-taken-from-another-tenant',
        'relay-edge.provision-registry.route.racing-claims',
        'relay-edge.provision-registry.register.releases-undeclared-keys',
      ]),
    );
    expect(failedIds(report)).not.toContain('relay-edge.provision-registry.route.resolves');
  });

  it('fail a policy store keyed by gateway only, that merges a put into the earlier policy', async () => {
    /** Keeps one policy per gateway, and an empty scope list keeps the earlier scopes. */
    class MergingPolicies implements PolicyStore {
      readonly #byGateway = new Map<string, GatewayRelevancePolicy>();
      async put(policy: GatewayRelevancePolicy) {
        const earlier = this.#byGateway.get(policy.gatewayId);
        const keepScopes = policy.freeResponseScopes.length === 0 && earlier !== undefined;
        const freeResponseScopes = keepScopes ? earlier.freeResponseScopes : policy.freeResponseScopes;
        this.#byGateway.set(policy.gatewayId, { ...policy, freeResponseScopes });
      }
      async get(gatewayId: string) {
        return this.#byGateway.get(gatewayId) ?? null;
      }
    }
    const report = await runSuite(policyStoreSuite({ create: () => new MergingPolicies() }));
    expect(failedIds(report)).toEqual([
      'relay-edge.policies.put.replaces',
      'relay-edge.policies.keyed-by-gateway-and-platform',
      // It checks nothing it is given, either.
      'relay-edge.policies.arguments.refused',
    ]);
  });

  it('fail (as recommended cases) stores that keep whatever they are given', async () => {
    /** The in-memory stores' rules, without a check of the arguments. */
    class TrustingRegistry implements ProvisionRegistry {
      readonly #registrations = new Map<string, ProvisionRegistration>();
      async register(registration: ProvisionRegistration) {
        this.#registrations.set(
          JSON.stringify([registration?.gatewayId, registration?.platform]),
          registration,
        );
        return [...(registration?.routeKeys ?? [])];
      }
      async get(gatewayId: string, platform: string) {
        return this.#registrations.get(JSON.stringify([gatewayId, platform])) ?? null;
      }
      async route() {
        return null;
      }
    }
    const registryReport = await runSuite(provisionRegistrySuite({ create: () => new TrustingRegistry() }));
    const refused = registryReport.results.find(
      (result) => result.id === 'relay-edge.provision-registry.arguments.refused',
    );
    expect(refused?.status).toBe('failed');
    expect(refused?.level).toBe('recommended');
    expect(refused?.error?.message).toMatch(/register of a registration with null: expected an error/);
  });

  it('fail (as recommended cases) stores that refuse bad arguments without naming them', async () => {
    /** The in-memory token store, refusing with an error of its own that names no argument. */
    class VagueTokens extends InMemoryEnrollmentTokenStore {
      override async issue(grant: EnrollmentTokenGrant) {
        return super.issue(grant).catch(() => Promise.reject(new Error('bad grant')));
      }
    }
    const report = await runSuite(enrollmentTokenStoreSuite({ create: () => new VagueTokens() }));
    const refused = report.results.find(
      (result) => result.id === 'relay-edge.enrollment-tokens.arguments.refused',
    );
    expect(refused?.status).toBe('failed');
    expect(refused?.error?.message).toMatch(/issue with ttlMs 0: error code/);
  });
});
