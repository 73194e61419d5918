import type { ConformanceSuite } from '../../suite.js';
import {
  type AgentConnectorContext,
  type ConnectorFactoryResult,
  prepareConnector,
} from './connector-under-test.js';
import { deliveryCases } from './delivery-cases.js';
import { methodCases } from './method-cases.js';
import { AGENT_CONNECTOR_SUITE_VERSION } from './suite-version.js';
import { wakeCases } from './wake-cases.js';

/** Options of {@link agentConnectorSuite}. */
export interface AgentConnectorSuiteOptions {
  /** Builds the connector under test; called once per run, in the suite's `setup`. */
  readonly factory: () => ConnectorFactoryResult | Promise<ConnectorFactoryResult>;
}

const SUITE_NAME = 'agent-connector.contract';

/**
 * The AgentConnector v1.0 contract, checked more strictly than the reference suite: receipts that
 * `parseDeliveryReceipt` / `parseWakeReceipt` accept with no `null` or `undefined` field, `woken` a boolean,
 * `wake()` never throwing for a capability gap, `health_check()` a boolean, `request_response()` working
 * or rejecting with `NotImplementedError`. Capabilities: `deliver` and `list-agents` (from the class's
 * `staticCapabilities()` features; all on without them), `static-capabilities`, `agent-status` (the
 * method exists), `observe-deliveries` (the factory's `observe`), `sessions` and `delivery-sessions`.
 *
 * @example
 * ```ts
 * const report = await runSuite(
 *   agentConnectorSuite({ factory: () => ({ connector: new MyConnector(), agentId: 'perry', sessions: true }) }),
 * );
 * ```
 */
export function agentConnectorSuite(
  options: AgentConnectorSuiteOptions,
): ConformanceSuite<AgentConnectorContext> {
  return {
    name: SUITE_NAME,
    version: AGENT_CONNECTOR_SUITE_VERSION,
    description:
      'The AgentConnector v1.0 contract: list_agents descriptors, deliver receipts for both payload kinds, ' +
      'meta pass-through, wake receipts and degradation, agent@session addresses and session echo, ' +
      'health_check, agent_status and request_response.',
    cases: [...methodCases(SUITE_NAME), ...deliveryCases(SUITE_NAME), ...wakeCases(SUITE_NAME)],
    setup: async () => prepareConnector(await options.factory()),
  };
}
