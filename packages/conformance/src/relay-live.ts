/**
 * `@agentwire/conformance/relay-live` — the suites that play the gateway over WebSocket (Node only:
 * they dial with `node:http`): the black-box suite for a live relay connector in any language, and the
 * suite for one `PlatformAdapter`, served with `createRelayServer`.
 *
 * @example
 * ```ts
 * import { formatReportTable, runSuite } from '@agentwire/conformance';
 * import { relayConnectorSuite } from '@agentwire/conformance/relay-live';
 *
 * const report = await runSuite(
 *   relayConnectorSuite({ url: 'ws://127.0.0.1:8080/relay', gatewayId: 'gw-test', secret, platform: 'discord' }),
 * );
 * console.log(formatReportTable([report]));
 * ```
 *
 * @packageDocumentation
 */
export {
  type RelayConnectorFaults,
  type RelayConnectorLimits,
  type RelayConnectorOperator,
  type RelayConnectorSuiteOptions,
  type RelayPlatformCall,
  type RelayPlatformInterrupt,
  relayConnectorSuite,
} from './suites/relay-live/relay-connector-suite.js';
export {
  type PlatformAdapterSuiteOptions,
  platformAdapterSuite,
} from './suites/relay-platform/platform-adapter-suite.js';
