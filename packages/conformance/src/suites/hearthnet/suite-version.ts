/** Version of the HearthNet suites; it follows the contract version (v1.0). */
export const HEARTHNET_SUITE_VERSION = '1.0.0';

/**
 * Version of `hearthnet.node`; 1.1.0 added the pub-sub subscribe and blob transfer cases, each behind a
 * capability the caller declares. 1.2.0 added the `manifest.*` and `sync.*` cases, which run by default
 * (`DEFAULT_NODE_SUITE_CAPABILITIES`): a caller that names its capabilities opts in with `manifest` and
 * `sync`. 1.3.0 added a call by a node outside the community (`unauthorized`), a call of a major the node
 * does not offer (`schema_mismatch` with `schema_hash_expected`), a request signed over a timestamp that is
 * no RFC 3339 time, a streaming capability called without asking for a stream (or with `input.stream`
 * false), events pushed by sync reaching long polls from a cursor (in order, limit by limit, once each,
 * waking a waiting poll), a cursor the node never gave (`gap: true`), a long poll signed for another
 * community, and malformed long-poll queries; `sync.events-malformed` also sends JSON that is not the
 * §7.6 request, stream calls list `application/json, text/event-stream` in the §5.1 order, and long polls
 * sign `pubsub.subscribe`/`1.0` written out rather than taken from the SDK; and a call by a node
 * the community revoked (403 `revoked`, capability `revoked`), a call whose capability version is not
 * "X.Y" (`bad_request`), an invite and a join pushed below the head that make their node a member (capability
 * `sync-invite`), a long poll resumed from the cursor a gap answer gave
 * (no gap again, also on a topic nothing was published on), a long poll from before more events than a
 * hub keeps (the first of them, or `gap: true`), and hand-written `file.put` client streams (a media type
 * in another case, an `ack` frame among the chunks, a malformed `ack` or `chunk` frame refused with
 * `bad_request`); `subscribe.malformed-query` also sends a query without a `topic` parameter.
 */
export const HEARTHNET_NODE_SUITE_VERSION = '1.3.0';

/**
 * Version of `hearthnet.pubsub`: 1.1.0 added a topic that only looks like a chat topic, the
 * `capability.registered` payloads of every stability,
 * trust condition, idempotency kind and streaming mode, and the refusals of an unknown trust condition
 * and an empty idempotency key.
 */
export const HEARTHNET_PUBSUB_SUITE_VERSION = '1.1.0';

/**
 * Version of `hearthnet.manifests`: 1.1.0 added the edges of each rule (endpoints, hardware and load
 * checked; anchored capability version and schema hash patterns; impossible or over-precise
 * timestamps; millisecond timestamps that count towards expiry; contract versions such as 11.0, 1.0.1
 * and 1.10), a build refusal, and requires `accept` to resolve to each manifest `verify` accepts.
 */
export const HEARTHNET_MANIFESTS_SUITE_VERSION = '1.1.0';

/**
 * Version of `hearthnet.capability-schemas`: 1.1.0 added `satisfies` cases on the edges of the name
 * and version syntax (three segments, 128 and 129 characters, a dash at either end, two-digit majors,
 * prefixed, three-part and zero-padded versions), malformed names refused as `invalid_capability_name`.
 */
export const HEARTHNET_CAPABILITY_SCHEMAS_SUITE_VERSION = '1.1.0';

/**
 * Version of `hearthnet.canonical-json`: 1.1.0 added the `number-sweep-*` cases (tag `sweep`), numbers
 * on the edges of a six-digit formatter's shortcuts and a seeded sweep of doubles, each checked against
 * Python's own `%.6g`; keys whose astral character starts with U+D800 against a U+E000 key; forty keys;
 * a string and an array longer than a small output buffer; the UTF-8 length boundaries; two low
 * surrogates, and a high surrogate before U+E000, refused as lone.
 */
export const HEARTHNET_CANONICAL_JSON_SUITE_VERSION = '1.1.0';

/**
 * Version of `hearthnet.event-log`: 1.1.0 added the sync edges of `tools/sync-edges.py` (a push to
 * another community, events the node holds pushed again, a different event under a stored id), a
 * monotonic ULID whose increment carries, and event ids on the edges of a canonical ULID (25
 * characters, a first character of 8 or 7, non-ASCII).
 */
export const HEARTHNET_EVENT_LOG_SUITE_VERSION = '1.1.0';

/**
 * Version of `hearthnet.signatures`: 1.1.0 added a signature whose algorithm comes after a space
 * (malformed, not an unsupported algorithm), a tampered payload with lossy numbers, a payload with an
 * own `__proto__` key signed as data, full node ids whose encoding starts or ends like a short node
 * id, and crafted signatures that meet the cofactorless equation under a small-order key or with a
 * small-order R (one per encoding of libsodium's blocklist).
 */
export const HEARTHNET_SIGNATURES_SUITE_VERSION = '1.1.0';

/** The signature and node-id cases `hearthnet.signatures` 1.1.0 added. */
const SIGNATURES_ADDED_IN_1_1: ReadonlySet<string> = new Set([
  'verify-signature-algorithm-after-a-space',
  'sign-own-proto-key',
  'verify-float-colliding-value-tampered',
  'parse-full-id-starting-like-short-form-strict',
  'parse-full-id-starting-like-short-form-lenient',
  'parse-full-id-ending-like-short-form-strict',
  'parse-full-id-ending-like-short-form-lenient',
]);

/** The crafted small-order vectors 1.1.0 added (`fixtures/tools/libsodium-rule-vectors.py`), by id prefix. */
const SIGNATURES_CRAFTED_IN_1_1 = [
  'verify-rule-small-order-key-',
  'verify-rule-small-order-r-',
  'verify-rule-key-off-curve',
];

/** The `since` of a `signatures.json` or `node-ids.json` case of `hearthnet.signatures`. */
export function signaturesCaseSince(fixtureId: string): string {
  return SIGNATURES_ADDED_IN_1_1.has(fixtureId) ||
    SIGNATURES_CRAFTED_IN_1_1.some((prefix) => fixtureId.startsWith(prefix))
    ? HEARTHNET_SIGNATURES_SUITE_VERSION
    : HEARTHNET_SUITE_VERSION;
}

/**
 * Version of `hearthnet.compat`: 1.1.0 added envelope fields of the wrong JSON type (a string, negative or
 * fractional lamport, a null author or signature, a payload that is not an object, a text that is no object)
 * refused as `malformed_event` or `malformed_reference_event`, an absent `event_type` as a missing field, a
 * lamport of 0, an author in the `+/` alphabet, a signature no padding makes decodable; signing bytes and
 * conversion of events and snapshots that carry no `signature` field; reference ids of 27 characters and
 * timestamps with text around them refused, and a millisecond with a leading zero; `market.post.updated`
 * locations, integral floats inside arrays, and `to`, `recipient` and `location.lon` kept in other event
 * types; contract events converted back (chat, market, refused when invalid); an `issued_at` that does not
 * convert; JSON text that is not JSON; a fractional `at_lamport`.
 */
export const HEARTHNET_COMPAT_SUITE_VERSION = '1.1.0';

/**
 * Version of `hearthnet.wire`: 1.1.0 added requests that left a header out (the field `null`), which a
 * verifier answers `false` for, not with an exception; requests a signer must refuse (timestamps that are
 * not RFC 3339 UTC with `Z` and at most milliseconds, or name no real time; a `from` that is not the
 * signing key's node id); frames whose event name is empty or holds CR or LF, which an encoder must
 * refuse; SSE chunks cut inside UTF-8 sequences, between CR and LF around an empty chunk and after a
 * line break, a BOM given as text (skipped at the start only), an LF line before a CRLF line, a bare `:`
 * comment with CR line ends; a stream that ends inside a UTF-8 sequence after its `done` frame; and the
 * verification of a signed response as a client checks it (capability `verify-response`: a field
 * changed, another signer, not a signature).
 */
export const HEARTHNET_WIRE_SUITE_VERSION = '1.1.0';

/**
 * Version of `hearthnet.blob-transfer`: 1.1.0 added the node's `file.read` answers (capability
 * `serve`: a blob streamed as manifest, chunks and done, a chunk inline or streamed, standard padded
 * base64, `not_found`, elapsed `ms`), the refusal of malformed manifests by both a reading client and a
 * `file.put` node (not an object, no chunks, chunks that are not objects or not numbered from 0, chunk
 * sizes that are not consecutive slices, ids that are not full lowercase `blake3:` ids, a chunk size
 * of 0 or 16.5), and more streams a client must refuse (a second manifest of the same CID listing its
 * chunks in another order, a manifest after a chunk, a chunk CID's chunk twice or corrupted, a stream
 * of only `done`, a last chunk shorter than its manifest says, data that is not standard padded
 * base64) and `file.put` frames a node must refuse (a chunk under another event name, a last chunk
 * shorter than its manifest says).
 */
export const HEARTHNET_BLOB_TRANSFER_SUITE_VERSION = '1.1.0';
