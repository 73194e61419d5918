/** Version of the relay suites; it follows the Relay ⇄ Connector contract version (v1). */
export const RELAY_SUITE_VERSION = '1.0.0';

/**
 * Version of the `relay.codec` suite: 1.1.0 added the recommended `session-source-from-dict` cases;
 * 1.2.0 the descriptor views (`to_json()`, message lengths, code blocks), the Slack `/hermes`
 * parent-command rewrite and the Discord interaction events. The cases of 1.0.0 keep `since`
 * {@link RELAY_SUITE_VERSION}.
 */
export const RELAY_CODEC_SUITE_VERSION = '1.2.0';

/** The `relay.codec` suite version that added the descriptor views, Slack and Discord interaction cases. */
export const DESCRIPTOR_VIEWS_AND_EVENTS_SINCE = '1.2.0';
/**
 * Version of the `relay.tokens` suite: 1.1.0 added the malformed-token refusals of `peek`,
 * the first index among equal rotation secrets, the mint refusals of an unpaired surrogate and of an
 * expiry past the safe integers, and requires an accepting verdict to carry no close.
 */
export const RELAY_TOKENS_SUITE_VERSION = '1.1.0';

/**
 * Version of the `relay.session-keys` suite: 1.1.0 added the refusals of an integral number beyond
 * ±(2^53 − 1) in a part the key writes (also inside an array or object) and the key of a source that
 * holds one only in a part the key does not write.
 */
export const RELAY_SESSION_KEYS_SUITE_VERSION = '1.1.0';
