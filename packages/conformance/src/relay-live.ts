/**
 * `@agentwire/conformance/relay-live` — the black-box suite for a live relay connector, in any
 * language: it plays the gateway over WebSocket (Node only: it dials with `node:http`).
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
  type RelayConnectorSuiteOptions,
  relayConnectorSuite,
} from './suites/relay-live/relay-connector-suite.js';
