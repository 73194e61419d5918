export type { CapabilityBinding, CapabilityLookup, CapabilityVault } from './capability-vault.js';
export { type CapabilityAddress, checkCapabilityAddress, checkCapabilityBinding } from './check-arguments.js';
export {
  InMemoryCapabilityVault,
  type InMemoryCapabilityVaultOptions,
} from './in-memory-capability-vault.js';
