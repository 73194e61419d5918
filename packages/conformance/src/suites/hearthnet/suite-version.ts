/** Version of the HearthNet suites; it follows the contract version (v1.0). */
export const HEARTHNET_SUITE_VERSION = '1.0.0';

/**
 * Version of `hearthnet.node`; 1.1.0 added the pub-sub subscribe and blob transfer cases, each behind a
 * capability the caller declares, so a node checked by 1.0.0 passes 1.1.0 unchanged.
 */
export const HEARTHNET_NODE_SUITE_VERSION = '1.1.0';
