/**
 * `@agentwire/conformance/node` — Node-only suites and helpers for implementers who check their own
 * connectors: the file-drop layout suite (`fileDropSuite`, on temporary folders), and observing what a
 * substrate on this machine received (`observeFileDrop`).
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
export { type FileDropSuiteOptions, fileDropSuite } from './suites/agent-connector/file-drop-suite.js';
export { observeFileDrop } from './suites/agent-connector/file-drop-under-test.js';
