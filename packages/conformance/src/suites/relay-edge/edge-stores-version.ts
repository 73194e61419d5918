/** Version of the edge store suites (enrollment tokens, provision registry, policies). */
export const RELAY_EDGE_STORES_SUITE_VERSION = '1.0.0';
