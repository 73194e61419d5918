/** Version of the relay runtime suites (bus, inbound buffer, capability vault); 2.0.0: `read` returns `frameJson`. */
export const RELAY_RUNTIME_SUITE_VERSION = '2.0.0';
