import { z } from 'zod';
import { parseContractValue } from './validate.js';

/** The contract version every connector in this package reports. */
export const AGENT_CONNECTOR_CONTRACT_VERSION = '1.0.0';

/** A contract method a connector class can declare (method-presence flags). A closed set. */
export type AgentConnectorFeature =
  | 'deliver'
  | 'wake'
  | 'list_agents'
  | 'agent_status'
  | 'health_check'
  | 'request_response';

/** Every {@link AgentConnectorFeature}. */
export const AGENT_CONNECTOR_FEATURES: readonly AgentConnectorFeature[] = [
  'deliver',
  'wake',
  'list_agents',
  'agent_status',
  'health_check',
  'request_response',
];

/**
 * What a connector class declares about itself through its static `staticCapabilities()`, readable
 * without constructing it.
 */
export interface StaticCapabilities {
  readonly connector_type: 'agent_connector';
  /** The implementation's name, e.g. `HttpWebhookAgentConnector`; never empty. */
  readonly implementation: string;
  /** `major.minor.patch` of the contract implemented, e.g. {@link AGENT_CONNECTOR_CONTRACT_VERSION}. */
  readonly contract_version: string;
  /** Which methods really work; a feature left out counts as `false`. */
  readonly features: Partial<Record<AgentConnectorFeature, boolean>>;
}

/** Zod schema of {@link StaticCapabilities}; a feature outside the closed set is refused. */
export const staticCapabilitiesSchema: z.ZodType<StaticCapabilities> = z.object({
  connector_type: z.literal('agent_connector'),
  implementation: z.string().min(1),
  contract_version: z.string().regex(/^\d+\.\d+\.\d+$/, 'must be major.minor.patch'),
  features: z.partialRecord(
    z.enum(AGENT_CONNECTOR_FEATURES as readonly [AgentConnectorFeature, ...AgentConnectorFeature[]]),
    z.boolean(),
  ),
});

/**
 * Validates a connector class's static capabilities.
 *
 * @throws {AgentConnectorError} `invalid_contract_value`: a wrong `connector_type`, an empty
 *   `implementation`, a `contract_version` that is not `d.d.d`, an unknown feature or a non-boolean flag.
 */
export function parseStaticCapabilities(value: unknown): StaticCapabilities {
  return parseContractValue(staticCapabilitiesSchema, 'StaticCapabilities', value);
}
