export {
  type AddressShape,
  type AgentAddress,
  isWakeAddress,
  parseAgentAddress,
  resolveSessionId,
} from './address.js';
export { claimingAgentIds } from './claiming.js';
