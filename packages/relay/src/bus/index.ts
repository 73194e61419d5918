export { checkRelayBusMessage, checkRelayBusTenant } from './check-arguments.js';
export { InMemoryRelayBus, type InMemoryRelayBusOptions } from './in-memory-relay-bus.js';
export { logRelayBusListenerError, type RelayBusErrorHandler } from './listener-errors.js';
export type { RelayBus, RelayBusListener, RelayBusMessage, RelayBusSubscription } from './relay-bus.js';
