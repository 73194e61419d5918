/** Version of the relay suites; it follows the Relay ⇄ Connector contract version (v1). */
export const RELAY_SUITE_VERSION = '1.0.0';

/**
 * Version of the `relay.codec` suite: 1.1.0 added the recommended `session-source-from-dict` cases;
 * 1.2.0 the descriptor views (`to_json()`, message lengths, code blocks), the Slack `/hermes`
 * parent-command rewrite and the Discord interaction events; 1.3.0 the gateway's reader of an inbound
 * `event` (`inbound-events.*`, capability `event-from-wire`, and `….rewire`, capability
 * `event-to-wire`: an event written back reads as the same event), descriptors whose
 * `markdown_dialect` turns code blocks off, stream cases on the UTF-8 line limit (astral characters, a
 * one-byte limit, lines cut over messages), frames in one binary message or over a text and a binary
 * one, a BOM-led binary line, a stream ending in invalid UTF-8, and encode cases (a stray `action` on an
 * `outbound_result`, null and numbers in a compact line, the recommended refusal of a non-finite number
 * in a compact line, NaN in a python-style one, and every op's action in python style, its keys given out of
 * order and its defaults left out); also frame cases on the codec's checks: every typed key of every
 * op given a value of the wrong type (and a missing one), a `null` action, non-string `platform` /
 * `botId` / `requestId`, `null` / list `event` and `result`, unknown ops given as a list or
 * `"constructor"`, unknown action keys `""` and `raw` kept, every op read by a decoder of both
 * directions with its defaults left out, lines whose keys look like another type's, a non-string
 * `bufferId` read as its Python `str()` (and the unknowable numbers refused), malformed command
 * manifests, every frame type written in python style from keys given out of order, and a frame of an
 * unknown type written as given, and a `media[]` entry with an empty url, which matches no `media_urls`
 * entry (`inbound-events.media-types-empty-url-matches-nothing`). The cases of 1.0.0 keep `since`
 * {@link RELAY_SUITE_VERSION}; fixture cases added later carry their own `since`.
 */
export const RELAY_CODEC_SUITE_VERSION = '1.3.0';

/** The `relay.codec` suite version that added the descriptor views, Slack and Discord interaction cases. */
export const DESCRIPTOR_VIEWS_AND_EVENTS_SINCE = '1.2.0';

/** The `relay.codec` suite version that added the inbound event reader cases (`inbound-events.json`). */
export const INBOUND_EVENTS_SINCE = '1.3.0';

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

/**
 * Version of the `relay.edge` suite: 1.1.0 added the fixture cases whose `since` is 1.1.0 (the cases of
 * 1.0.0 keep {@link RELAY_SUITE_VERSION}), among them every case of `edge-webhooks.json`: the webhook
 * handlers of Discord, Twilio and WeCom (capabilities `discord-handler`, `twilio-handler` and
 * `wecom-handler`; the provider's answer, the route key that picks the tenant, the credentials bound
 * and cut out, the forward's allow-listed headers, path, bot id and profile, the 1 MiB body limit, and
 * refusals that hand nothing to the relay), and a Twilio form whose Content-Type has white space before
 * its parameters (`twilio-form-content-type-space-before-parameters`).
 */
export const RELAY_EDGE_SUITE_VERSION = '1.1.0';

/**
 * Version of the `relay.live` suite: 1.1.0 added a descriptor per hello and a hello for an unserved
 * platform that harms nothing; the refusal of an outbound for an unannounced platform or botId, of one
 * before any hello and of a malformed one (answered under its requestId); batched and split frames,
 * newline-terminated lines and messages within the gateway's 1 MiB; `going_idle_ack`; the replacement
 * of an older connection of the same gateway (not with 4401); an interrupt before any hello; an
 * oversized message that costs at most its connection; and, by option, an idle connection kept through
 * the pings (`idleMs`), the buffer drained in order, each entry once (`bufferedMessageIds`), and for a
 * test connector (`opsSucceed`) successful results with their ids, the routing to the hello'd identity,
 * 300 sequential calls and the refusal of an unbound `follow_up`; a connection that stops answering
 * pings dropped (recommended, with `idleMs`); with `faults`, a platform that fails, answers a malformed
 * result or never answers, each call still answered `success: false` with an error text; with `operator`, events delivered during the run
 * (to a connected gateway at once and in order, to an absent one on its next connection, each once after its
 * ack), the operator's `interrupt_inbound`, and a revocation closing with 4401 (sparing another gateway,
 * with `otherGateway`), nothing after `going_idle_ack`; with the optional `platformCalls` and
 * `bindFollowUp`, each op reaching the platform once with every field, and a bound `follow_up`
 * succeeding; every batched frame answered once, a hung call timed out no sooner than its own timeout
 * while a failing one is answered at once, and an idle or older connection replacing nothing; with
 * `limits` (the connector's stated per-connection bounds), each bound served up to it and enforced past
 * it (refused lines and identities dropped with 1008, a call past the running ones refused at once, an
 * outbound after a burst of acks still answered), and, with `operator` too, a gateway whose reader
 * stalls for a while losing nothing, a `going_idle` read only after the backlog drained still ending
 * delivery, and one that stops reading dropped within its drain timeout. 1.2.0 added, with
 * `secondPlatform` (a second platform served on the gateway's connection), the routing of frames
 * without a platform to their chat's platform: `get_chat_info` and `send` by the chat's latest inbound
 * event, `follow_up` by its session, `interrupt` with the chat id to that platform's adapter only, a
 * chat of a platform the connection did not announce to the first hello's; and every refusal the suite
 * provokes (an unannounced platform or botId, an outbound before any hello, a malformed outbound, an
 * unbound `follow_up`) must now carry a non-empty `error` text. The cases of 1.0.0 keep `since`
 * {@link RELAY_SUITE_VERSION}.
 */
export const RELAY_LIVE_SUITE_VERSION = '1.2.0';
