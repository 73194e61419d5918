/** Version of the edge store suites (enrollment tokens, provision registry, policies). */
export const RELAY_EDGE_STORES_SUITE_VERSION = '1.1.0';

/** The version that introduced the suites' first cases. */
export const EDGE_STORES_FIRST_VERSION = '1.0.0';

/** The version that added the `arguments.refused` cases of the registry and policy suites. */
export const EDGE_STORES_ARGUMENTS_SINCE = '1.1.0';
