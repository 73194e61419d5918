import type { AgentConnectorSuiteOptions } from '../suites/agent-connector/agent-connector-suite.js';
import type { DataStoreSuiteOptions } from '../suites/data-store/data-store-suite.js';
import type { EventStoreSuiteOptions } from '../suites/hearthnet/event-store.js';
import type { CapabilityVaultSuiteOptions } from '../suites/relay-runtime/capability-vault-suite.js';
import type { InboundBufferSuiteOptions } from '../suites/relay-runtime/inbound-buffer-suite.js';
import type { RelayBusSuiteOptions } from '../suites/relay-runtime/relay-bus-suite.js';
import type { SkillStoreSuiteOptions } from '../suites/skill-store/skill-store-suite.js';

/**
 * One implementation under test: the options of its interface's suite (its factory among them), plus
 * the name the report shows it under.
 */
export type NamedSubject<SuiteOptions> = SuiteOptions & {
  /** Names the implementation in the report, e.g. `'SqliteSkillStore, on a file'`; unique per interface. */
  readonly name: string;
};

/**
 * Implementations to check, by the interface they implement: each entry is the options object of that
 * interface's suite plus a `name`, and runs as one row (suite × implementation). This is the shape of
 * the default export of an `agentwire-conformance --subjects MODULE` module; every key is optional.
 *
 * | key                | suite                  | the entry's factory                                    |
 * | ------------------ | ---------------------- | ------------------------------------------------------ |
 * | `agentConnectors`  | `agentConnectorSuite`  | `factory()` → a connector (or `{ connector, … }`)      |
 * | `skillStores`      | `skillStoreSuite`      | `factory()` → a fresh store (or `{ store, dispose }`)  |
 * | `dataStores`       | `dataStoreSuite`       | `factory()` → a store (or `{ store, dispose }`)        |
 * | `eventStores`      | `eventStoreSuite`      | `factory()` → a store; `reopen`, `dispose` optional    |
 * | `relayBuses`       | `relayBusSuite`        | `create()` → an open bus                               |
 * | `inboundBuffers`   | `inboundBufferSuite`   | `create()` → an open buffer                            |
 * | `capabilityVaults` | `capabilityVaultSuite` | `create()` → an open vault; `elapse` for a fake clock  |
 *
 * Factories may be async. Whatever a factory sets up (a temp folder, a connection) is released by the
 * entry's `dispose` (or the `dispose` of what the factory returns), which the suite calls after its
 * last case, also when cases fail.
 *
 * @example
 * ```js
 * // conformance.subjects.mjs — `npx agentwire-conformance --subjects ./conformance.subjects.mjs`
 * import { MySkillStore, MyRelayBus } from './dist/index.js';
 *
 * export default {
 *   skillStores: [{ name: 'MySkillStore', factory: () => new MySkillStore({ path: ':memory:' }) }],
 *   relayBuses: [{ name: 'MyRelayBus', create: () => new MyRelayBus() }],
 * };
 * ```
 */
export interface ConformanceSubjects {
  readonly agentConnectors?: readonly NamedSubject<AgentConnectorSuiteOptions>[];
  readonly skillStores?: readonly NamedSubject<SkillStoreSuiteOptions>[];
  readonly dataStores?: readonly NamedSubject<DataStoreSuiteOptions>[];
  readonly eventStores?: readonly NamedSubject<EventStoreSuiteOptions>[];
  readonly relayBuses?: readonly NamedSubject<RelayBusSuiteOptions>[];
  readonly inboundBuffers?: readonly NamedSubject<InboundBufferSuiteOptions>[];
  readonly capabilityVaults?: readonly NamedSubject<CapabilityVaultSuiteOptions>[];
}
