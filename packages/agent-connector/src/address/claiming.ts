import { parseAgentAddress } from './address.js';

/**
 * The `list_agents()` ids that claim an address during fan-out, as the reference runtime matches them:
 * the full address; and, for a composite, also the text before its first `@` (`a@b@c` → `['a@b@c', 'a']`,
 * never `a@b`; `@s` → `['@s', '']`). Comparison is exact: no trimming, no case folding.
 *
 * @throws {AgentConnectorError} `invalid_agent_address`: `agent_id` is not a string.
 * @example
 * claimingAgentIds('perry@kitchen'); // ['perry@kitchen', 'perry']
 * claimingAgentIds('perry');         // ['perry']
 */
export function claimingAgentIds(agent_id: string): readonly string[] {
  const parsed = parseAgentAddress(agent_id);
  return parsed.shape === 'bare' ? [parsed.address] : [parsed.address, parsed.agent];
}
