/** Version of the relay suites; it follows the Relay ⇄ Connector contract version (v1). */
export const RELAY_SUITE_VERSION = '1.0.0';

/**
 * Version of the `relay.codec` suite: 1.1.0 added the recommended `session-source-from-dict` cases;
 * the cases of 1.0.0 keep `since` {@link RELAY_SUITE_VERSION}.
 */
export const RELAY_CODEC_SUITE_VERSION = '1.1.0';
