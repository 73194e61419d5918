/**
 * `@agentwire/agent-connector` — the AgentConnector v1.0 contract a skill runtime uses to deliver
 * payloads to frontier agents and wake them over any substrate, and the SkillStore / DataStore
 * storage contracts and conventions.
 *
 * Runtime-neutral: contract types with zod schemas and parsers, typed errors, `agent@session` address
 * routing, delivery meta and the dispatcher, the connector registry, the no-op connector, and the
 * storage types and convention helpers (content hashes, versions, change tokens, filter enforcement,
 * the DataStore query bridge).
 *
 * @example
 * ```ts
 * import { AgentConnectorRegistry, createDeliveryMeta, dispatch } from '@agentwire/agent-connector';
 *
 * const registry = new AgentConnectorRegistry();
 * await registry.register('primary', myConnector);
 * const meta = createDeliveryMeta({ skill_name: 'daily-digest' });
 * const result = await dispatch(registry.list(), 'alice@standup', 'Your digest is ready', { meta });
 * ```
 *
 * @packageDocumentation
 */
export * from './address/index.js';
export * from './contract/index.js';
export * from './dispatch/index.js';
export { NoOpAgentConnector, type NoOpAgentConnectorOptions } from './noop/index.js';
export * from './registry/index.js';
export * from './storage/index.js';
