/**
 * `@agentwire/conformance/node` — Node-only helpers for implementers who check their own connectors
 * with the suites: observing what a substrate on this machine received.
 *
 * @example
 * ```ts
 * import { agentConnectorSuite, runSuite } from '@agentwire/conformance';
 * import { observeFileDrop } from '@agentwire/conformance/node';
 *
 * const report = await runSuite(
 *   agentConnectorSuite({
 *     create: () => ({ connector: new MyFileDropConnector({ dir }), agentId: 'perry', observe: observeFileDrop(dir, 'perry') }),
 *   }),
 * );
 * ```
 *
 * @packageDocumentation
 */
export { observeFileDrop } from './suites/agent-connector/file-drop-under-test.js';
