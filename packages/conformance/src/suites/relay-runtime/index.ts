export {
  type CapabilityVaultContext,
  type CapabilityVaultSuiteOptions,
  capabilityVaultSuite,
} from './capability-vault-suite.js';
export {
  type InboundBufferContext,
  type InboundBufferSuiteOptions,
  inboundBufferSuite,
} from './inbound-buffer-suite.js';
export { type RelayBusContext, type RelayBusSuiteOptions, relayBusSuite } from './relay-bus-suite.js';
