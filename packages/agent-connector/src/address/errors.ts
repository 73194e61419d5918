import { AgentConnectorError } from '../contract/errors.js';

/** An address (`agent_id`) or a `session_id` that is not a string. */
export class InvalidAgentAddressError extends AgentConnectorError {
  override readonly name = 'InvalidAgentAddressError';
  readonly code = 'invalid_agent_address';
}
