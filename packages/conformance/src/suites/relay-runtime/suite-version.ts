/** Version of the relay runtime suites (bus, inbound buffer, capability vault). */
export const RELAY_RUNTIME_SUITE_VERSION = '1.0.0';
