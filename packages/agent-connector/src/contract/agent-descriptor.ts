import { z } from 'zod';
import { parseContractValue } from './validate.js';

/** What an agent listed by `list_agents()` can take. */
export type AgentCapability = 'deliver' | 'wake' | 'augment' | 'template';

/** Every {@link AgentCapability}. */
export const AGENT_CAPABILITIES: readonly AgentCapability[] = ['deliver', 'wake', 'augment', 'template'];

/** One agent a connector can reach, as `list_agents()` returns it. */
export interface AgentDescriptor {
  /** The id the runtime matches addresses against (exactly, or the part before the first `@`). */
  readonly agent_id: string;
  readonly agent_name?: string;
  readonly capabilities?: readonly AgentCapability[];
}

/** Presence metadata from the optional `agent_status()`; the runtime never gates delivery on it. */
export type AgentStatus = 'active' | 'idle' | 'asleep' | 'unknown';

/** Every {@link AgentStatus}. */
export const AGENT_STATUSES: readonly AgentStatus[] = ['active', 'idle', 'asleep', 'unknown'];

/** Zod schema of {@link AgentDescriptor}; unknown keys are kept. */
export const agentDescriptorSchema: z.ZodType<AgentDescriptor> = z.looseObject({
  agent_id: z.string(),
  agent_name: z.string().exactOptional(),
  capabilities: z
    .array(z.enum(AGENT_CAPABILITIES as readonly [AgentCapability, ...AgentCapability[]]))
    .exactOptional(),
});

/** Zod schema of the array `list_agents()` resolves to. */
export const agentDescriptorListSchema: z.ZodType<readonly AgentDescriptor[]> =
  z.array(agentDescriptorSchema);

/** Zod schema of {@link AgentStatus}. */
export const agentStatusSchema: z.ZodType<AgentStatus> = z.enum(
  AGENT_STATUSES as readonly [AgentStatus, ...AgentStatus[]],
);

/**
 * Validates what `list_agents()` resolved to.
 *
 * @throws {AgentConnectorError} `invalid_contract_value`: a non-array, or an entry without a string
 *   `agent_id`.
 */
export function parseAgentDescriptors(value: unknown): readonly AgentDescriptor[] {
  return parseContractValue(agentDescriptorListSchema, 'AgentDescriptor[]', value);
}

/**
 * Validates what `agent_status()` resolved to.
 *
 * @throws {AgentConnectorError} `invalid_contract_value`: anything but the four status strings.
 */
export function parseAgentStatus(value: unknown): AgentStatus {
  return parseContractValue(agentStatusSchema, 'AgentStatus', value);
}
