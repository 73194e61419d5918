import type { PolicyStore } from '@agentwire/relay/edge';
import type { ConformanceSuite } from '../../suite.js';
import { type EdgeStoreContext, type EdgeStoreSuiteOptions, edgeStoreSetup } from './edge-store-support.js';
import { RELAY_EDGE_STORES_SUITE_VERSION } from './edge-stores-version.js';
import { policyStoreCases } from './policy-store-cases.js';

/** Options of {@link policyStoreSuite}; `Store` is the implementation's own type. */
export type PolicyStoreSuiteOptions<Store extends PolicyStore = PolicyStore> = EdgeStoreSuiteOptions<Store>;

/** The context every case of {@link policyStoreSuite} receives. */
export type PolicyStoreContext = EdgeStoreContext<PolicyStore>;

const SUITE_NAME = 'relay-edge.policies';

/**
 * The `PolicyStore` rules (relay-reference §13, `/relay/policy`): one relevance policy per
 * `(gatewayId, platform)`, read back as put (tenant and gateway kept), replaced whole by the next
 * `put`, `null` when none was put; with capability `shared-backend`, policies seen across instances.
 *
 * @example
 * ```ts
 * import { InMemoryPolicyStore } from '@agentwire/relay/edge';
 * const report = await runSuite(policyStoreSuite({ create: () => new InMemoryPolicyStore() }));
 * ```
 */
export function policyStoreSuite<Store extends PolicyStore>(
  options: PolicyStoreSuiteOptions<Store>,
): ConformanceSuite<PolicyStoreContext> {
  return {
    name: SUITE_NAME,
    version: RELAY_EDGE_STORES_SUITE_VERSION,
    description:
      'The PolicyStore rules: one policy per (gatewayId, platform), read back as put, replaced by the ' +
      'next put, null when absent, shared between instances.',
    cases: policyStoreCases(SUITE_NAME),
    setup: () => edgeStoreSetup(options, {}),
  };
}
