/** Version of the relay suites; it follows the Relay ⇄ Connector contract version (v1). */
export const RELAY_SUITE_VERSION = '1.0.0';
