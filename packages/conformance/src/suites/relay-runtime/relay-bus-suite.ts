import type { RelayBus } from '@agentwire/relay';
import type { ConformanceSuite } from '../../suite.js';
import { busCases } from './bus-cases.js';
import { RELAY_RUNTIME_SUITE_VERSION } from './suite-version.js';

/** Options of {@link relayBusSuite}. */
export interface RelayBusSuiteOptions {
  /**
   * Creates a fresh, open bus. Cases call it once or more and close every bus they create. A bus whose
   * listeners throw should not log loudly: the suite makes a listener throw on purpose.
   */
  readonly create: () => RelayBus | Promise<RelayBus>;
  /**
   * `true` when buses from `create` share one backend, as the connector instances of one deployment
   * do (e.g. Redis): a message published on one reaches listeners subscribed on another. Capability
   * `shared-backend`.
   */
  readonly sharedBackend?: boolean;
  /** Longest wait for a message to reach a listener, in milliseconds. Default 2 000. */
  readonly deliveryTimeoutMs?: number;
  /** Releases what the caller set up for the run (a server, a connection); called after the last case. */
  readonly dispose?: () => void | Promise<void>;
}

/** The context every case of {@link relayBusSuite} receives. */
export interface RelayBusContext {
  readonly create: () => Promise<RelayBus>;
  readonly deliveryTimeoutMs: number;
}

const SUITE_NAME = 'relay-runtime.bus';

/**
 * The `RelayBus` rules: `publish` resolving with the number of subscriptions that received the
 * message (`0` for nobody), per-publisher order, subscribe-then-publish delivery, tenant isolation,
 * throwing listeners isolated, idempotent `unsubscribe`, every message type delivered intact, and —
 * with capability `shared-backend` — delivery and counts across bus instances. Counting each
 * subscription (rather than each subscribed instance) is `recommended`: a bus that shares one
 * backend connection per instance cannot see how many listeners an instance holds.
 *
 * @example
 * ```ts
 * import { InMemoryRelayBus } from '@agentwire/relay';
 * const report = await runSuite(relayBusSuite({ create: () => new InMemoryRelayBus({ onListenerError: () => {} }) }));
 * ```
 */
export function relayBusSuite(options: RelayBusSuiteOptions): ConformanceSuite<RelayBusContext> {
  const capabilities = new Set<string>();
  if (options.sharedBackend === true) capabilities.add('shared-backend');
  return {
    name: SUITE_NAME,
    version: RELAY_RUNTIME_SUITE_VERSION,
    description:
      'The RelayBus rules: publish counts, per-publisher order, subscribe-then-publish, tenant isolation, ' +
      'throwing listeners, unsubscribe, message types, and delivery across instances of a shared backend.',
    cases: busCases(SUITE_NAME),
    setup: () => ({
      ctx: {
        create: async () => options.create(),
        deliveryTimeoutMs: options.deliveryTimeoutMs ?? 2000,
      },
      capabilities,
      ...(options.dispose === undefined ? {} : { dispose: options.dispose }),
    }),
  };
}
