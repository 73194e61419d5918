/** Version of the relay runtime suites (bus, inbound buffer, capability vault); 2.0.0: `read` returns `frameJson`. */
export const RELAY_RUNTIME_SUITE_VERSION = '2.0.0';

/**
 * Version of the capability vault suite: 2.1.0 added the recommended `bind.tenants-kept-apart` case
 * (bindings are keyed by `(tenant, session_key, kind)`); the other cases keep `since`
 * {@link RELAY_RUNTIME_SUITE_VERSION}.
 */
export const CAPABILITY_VAULT_SUITE_VERSION = '2.1.0';
