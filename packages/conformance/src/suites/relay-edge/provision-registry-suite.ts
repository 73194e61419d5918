import type { ProvisionRegistry } from '@agentwire/relay/edge';
import type { ConformanceSuite } from '../../suite.js';
import { type EdgeStoreContext, type EdgeStoreSuiteOptions, edgeStoreSetup } from './edge-store-support.js';
import { RELAY_EDGE_STORES_SUITE_VERSION } from './edge-stores-version.js';
import { provisionRegistryCases } from './provision-registry-cases.js';

/** Options of {@link provisionRegistrySuite}; `Store` is the implementation's own type. */
export type ProvisionRegistrySuiteOptions<Store extends ProvisionRegistry = ProvisionRegistry> =
  EdgeStoreSuiteOptions<Store>;

/** The context every case of {@link provisionRegistrySuite} receives. */
export type ProvisionRegistryContext = EdgeStoreContext<ProvisionRegistry>;

const SUITE_NAME = 'relay-edge.provision-registry';

/**
 * The `ProvisionRegistry` rules (relay-reference §13, `/relay/provision`): one registration per
 * `(gatewayId, platform)`, replaced at every `register` and answered with the route keys it holds;
 * keys the gateway no longer declares released; a route key of a platform held by one tenant — never
 * taken over by another, moved between gateways of the same tenant — also when claims race; and, with
 * capability `shared-backend`, registrations and routes seen and claims decided across instances.
 *
 * @example
 * ```ts
 * import { InMemoryProvisionRegistry } from '@agentwire/relay/edge';
 * const report = await runSuite(provisionRegistrySuite({ create: () => new InMemoryProvisionRegistry() }));
 * ```
 */
export function provisionRegistrySuite<Store extends ProvisionRegistry>(
  options: ProvisionRegistrySuiteOptions<Store>,
): ConformanceSuite<ProvisionRegistryContext> {
  return {
    name: SUITE_NAME,
    version: RELAY_EDGE_STORES_SUITE_VERSION,
    description:
      'The ProvisionRegistry rules: one registration per (gatewayId, platform), replaced at register; ' +
      'route keys released, moved within a tenant, never taken from another tenant, also under racing claims.',
    cases: provisionRegistryCases(SUITE_NAME),
    setup: () => edgeStoreSetup(options, {}),
  };
}
