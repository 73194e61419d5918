/** Version of the HearthNet suites; it follows the contract version (v1.0). */
export const HEARTHNET_SUITE_VERSION = '1.0.0';
