import { z } from 'zod';
import { parseContractValue } from './validate.js';

/** Options of `request_response()`. */
export interface RequestResponseOpts {
  /** How long to wait for the reply, in milliseconds. */
  readonly timeout_ms: number;
}

/**
 * The reply `request_response()` resolves to (the contract's `Response`, renamed so that it does not
 * shadow the Fetch API's `Response`).
 */
export interface AgentResponse {
  /** The `meta.correlation_id` of the request, echoed by the agent. */
  readonly correlation_id: string;
  readonly content: string;
  /** When the agent sent the reply (unix ms). */
  readonly sent_at: number;
  readonly agent_id: string;
}

/** Zod schema of {@link RequestResponseOpts}. */
export const requestResponseOptsSchema: z.ZodType<RequestResponseOpts> = z.looseObject({
  timeout_ms: z.number().positive(),
});

/** Zod schema of {@link AgentResponse}; unknown keys are kept. */
export const agentResponseSchema: z.ZodType<AgentResponse> = z.looseObject({
  correlation_id: z.string(),
  content: z.string(),
  sent_at: z.number().nonnegative(),
  agent_id: z.string(),
});

/**
 * Validates the options handed to `request_response()`.
 *
 * @throws {AgentConnectorError} `invalid_contract_value`: a missing, non-positive or non-finite `timeout_ms`.
 */
export function parseRequestResponseOpts(value: unknown): RequestResponseOpts {
  return parseContractValue(requestResponseOptsSchema, 'RequestResponseOpts', value);
}

/**
 * Validates the reply a connector's `request_response()` resolved to.
 *
 * @throws {AgentConnectorError} `invalid_contract_value`: a missing or mistyped field.
 */
export function parseAgentResponse(value: unknown): AgentResponse {
  return parseContractValue(agentResponseSchema, 'AgentResponse', value);
}
