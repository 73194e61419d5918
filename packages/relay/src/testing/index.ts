/**
 * `@agentwire/relay/testing` — in-memory implementations of every store interface, and test doubles:
 * for tests, examples and single-process deployments. Runtime-neutral.
 *
 * - Stores: {@link InMemoryInboundBuffer}, {@link InMemoryRelayBus}, {@link InMemoryCapabilityVault}
 *   and {@link InMemoryGatewaySecretStore} keep their state in the process and lose it with the
 *   process; a connector that runs as several instances uses shared ones (`@agentwire/redis/relay`).
 * - Edge stores (the side channels of `@agentwire/relay/edge`): {@link InMemoryEnrollmentTokenStore},
 *   {@link InMemoryProvisionRegistry}, {@link InMemoryPolicyStore} and {@link InMemoryMediaStore}, the
 *   same, one process only.
 * - Test doubles: {@link StubConnector} (a `RelayTransport` that records every action and answers
 *   with canned results) and {@link createLinkedTransportPair} (a gateway-side `RelayTransport` and a
 *   connector end that exchange real encoded frames in memory).
 *
 * @example
 * ```ts
 * import { authenticatorFor } from '@agentwire/relay';
 * import { InMemoryGatewaySecretStore } from '@agentwire/relay/testing';
 *
 * const secrets = new InMemoryGatewaySecretStore();
 * const { secrets: [secret = ''] } = await secrets.create('gw-acme', 'acme');
 * const authenticate = authenticatorFor(secrets); // the `authenticate` option of createRelayServer
 * ```
 *
 * @packageDocumentation
 */

export { InMemoryInboundBuffer } from '../buffer.js';
export { InMemoryRelayBus, type InMemoryRelayBusOptions } from '../bus.js';
export {
  InMemoryEnrollmentTokenStore,
  type InMemoryEnrollmentTokenStoreOptions,
  InMemoryPolicyStore,
  InMemoryProvisionRegistry,
} from '../edge/enrollment-stores.js';
export { InMemoryMediaStore } from '../edge/media-store.js';
export { InMemoryGatewaySecretStore, type InMemoryGatewaySecretStoreOptions } from '../secrets.js';
export { InMemoryCapabilityVault, type InMemoryCapabilityVaultOptions } from '../vault.js';
export {
  createLinkedTransportPair,
  type LinkedTransportPair,
  type LinkedTransportPairOptions,
} from './linked-pair.js';
export { StubConnector } from './stub-connector.js';
