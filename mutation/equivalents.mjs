// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the entries quote source lines, template placeholders included
// Surviving mutants that no case of the pair's suite can kill, each with the reason: the change cannot
// be seen through the interface the suite checks (the code is unreachable from it, or the mutant
// behaves the same for every input the contract allows), or it changes only what the contract leaves
// to the implementation. `pnpm mutation` sets them aside as Stryker sets aside mutants it is told to
// ignore, and lists them as EQUIVALENT, with the reason, in reports/mutation/<pair>.survivors.txt; an
// entry that matches no mutant any more is reported STALE there.
//
// A mutant matches an entry when it is in one of `pairs`, in `file`, by one of `mutators` (any, when
// absent), on a line containing `code` (or equal to it, trimmed, with `exact`), inside `span` when one is
// given (both narrow: a line of that text inside that function), and, when `replacement` is given, with a
// replacement containing it.

/**
 * @typedef {object} Equivalent
 * @property {string[]} pairs the pairs (mutation/pairs.mjs ids) it applies to
 * @property {string} file the mutated file, from the repository root
 * @property {string} [code] text of the mutated line (give it, `span`, or both)
 * @property {{ from: string, until?: string }} [span] the lines from the first that contains `from` up to
 *   the line before the next that contains `until` (the file's end when absent): a whole function the
 *   suite cannot reach
 * @property {boolean} [exact] `true` when `code` is the whole line (trimmed), not a part of it
 * @property {number} [column] the mutant's column (1-based), for one of several mutants of a kind on a line
 * @property {string[]} [mutators] Stryker's mutator names; every mutator when absent
 * @property {string} [replacement] text the mutant's replacement contains
 * @property {string} reason why no case can tell the mutant from the original
 */

import blobTransferEquivalents from './equivalents/blob-transfer.mjs';
import compatEquivalents from './equivalents/compat.mjs';
import hearthnetNodeEquivalents from './equivalents/hearthnet-node.mjs';
import relayCodecEventsEquivalents from './equivalents/relay-codec-events.mjs';
import relayCodecFramesEquivalents from './equivalents/relay-codec-frames.mjs';
import relayCodecStreamsEquivalents from './equivalents/relay-codec-streams.mjs';
import relayConnectorEquivalents from './equivalents/relay-connector.mjs';
import relayEdgePassthroughEquivalents from './equivalents/relay-edge-passthrough.mjs';
import relayEdgeVerifiersEquivalents from './equivalents/relay-edge-verifiers.mjs';
import {
  CONDITION_MUTATORS,
  DIAGNOSTIC_MUTATORS,
  sameReason,
  sameReasonSpans,
} from './equivalents/shared.mjs';
import wireEquivalents from './equivalents/wire.mjs';

const BUS = 'packages/relay/src/bus.ts';
const EVENT_STORE = 'packages/hearthnet/src/events/event-store.ts';
const BUFFER = 'packages/relay/src/buffer.ts';
const VAULT = 'packages/relay/src/vault.ts';
const SECRETS = 'packages/relay/src/secrets.ts';
const ADDRESS = 'packages/agent-connector/src/address.ts';
const FILE_DROP = 'packages/agent-connector/src/file-drop/file-drop-agent-connector.ts';
const HASHING = 'packages/hearthnet/src/hashing.ts';
const EDGE_STORES = 'packages/relay/src/edge/enrollment-stores.ts';
const SWEEP =
  'for (const [token, stored] of this.#tokens) if (now >= stored.expiresAt) this.#tokens.delete(token);';
const NOOP = 'packages/agent-connector/src/noop.ts';
const BLOB_STORE = 'packages/hearthnet/src/blobs/backed-blob-store.ts';
const AUTH = 'packages/relay/src/auth.ts';
const SESSION_KEY = 'packages/relay/src/session-key.ts';
/** Which field an SDK refusal of a session source names, which the session-key contract leaves open. */
const FIELD_NAMED =
  "what an SDK refusal of a session source says (its message, its path, its details): the session-key contract asks for the refusal and its code, and which field a diagnostic names is the SDK's";
const TOPICS = 'packages/hearthnet/src/pubsub/topics.ts';
/** What a pub-sub refusal says besides its code, which the pub-sub contract leaves open. */
const TOPIC_REFUSAL_WORDS =
  "what a refusal of a topic or payload says besides its code (its message, the JSON path it names, its details): the pub-sub contract asks for unknown_topic or invalid_topic_payload, and which field a diagnostic names is the SDK's";
const SQLITE_EVENT_STORE = 'packages/sqlite/src/hearthnet/sqlite-event-store.ts';
const MANIFEST = 'packages/hearthnet/src/manifests/node-manifest.ts';
/** What a manifest refusal says besides its §9 code and reason, which the contract leaves open. */
const MANIFEST_WORDS =
  "what a manifest refusal says besides its §9 code and reason (its message, the JSON path it names): the contract fixes the code, the suite the reason too, and the wording is the SDK's";
const CAPABILITY_NAME = 'packages/hearthnet/src/capabilities/capability-name.ts';
const CANONICAL_JSON = 'packages/hearthnet/src/canonical-json/canonical-json.ts';
/** What the canonical-JSON suite cannot reach: it asks for the canonical bytes of a value, nothing else. */
const CANONICAL_EXTRAS =
  "the SDK's own helpers beside canonicalJson (lossy-number paths, the string form, normalizeNumbers, formatCanonicalNumber, isCanonicalNumber), which the canonical-JSON contract does not have: the suite asks for the canonical bytes of a value";
const ULID = 'packages/hearthnet/src/events/ulid.ts';
const EVENT = 'packages/hearthnet/src/events/event.ts';
/** What an event refusal says besides its §9 code and reason. */
const EVENT_WORDS =
  'what an event refusal says besides its §9 code and reason (its message, the JSON path it names), which the contract leaves to the implementation';
const VALIDATORS = 'packages/hearthnet/src/capabilities/validators.ts';
const PAYLOAD_SIGNATURE = 'packages/hearthnet/src/crypto/payload-signature.ts';
const ED25519_FILE = 'packages/hearthnet/src/crypto/ed25519.ts';
/** Which Ed25519 backend runs a call. */
const WHICH_BACKEND =
  "which Ed25519 backend signs or verifies a call: RFC 8032 signatures are deterministic and both backends give libsodium's verdicts, and the pair runs the suite on each";
/** The caches of key objects. */
const KEY_CACHES =
  'a cache of imported keys (a bounded LRU of public KeyObjects, a WeakMap of private ones): a key imported again, or kept longer, signs and verifies the same';
const KEY_PAIR = 'packages/hearthnet/src/crypto/key-pair.ts';
const SYNC_PROTOCOL = 'packages/hearthnet/src/sync/sync-protocol.ts';
const WEBHOOK = 'packages/agent-connector/src/webhook/http-webhook-agent-connector.ts';
/** What the hashing suite cannot reach: it hands bytes, and blob CIDs hash strings of checked ASCII ids. */
const HASHING_UNREACHED =
  "unreachable through the hashing suite's interface: it hands bytes (strings are the SDK's convenience) and blobCid hashes a string of checked ASCII ids, which never holds a lone surrogate";
/** The SDK's pluggable hasher, which the hashing contract (BLAKE3 content ids) does not have. */
const SQLITE_DATA_STORE = 'packages/sqlite/src/agent-connector/sqlite-data-store.ts';
/** The SQLite data store's own search syntax beyond the contract's text query. */
const RAW_FTS =
  "the SQLite store's raw: queries (FTS5 syntax passed on as written), its own extension beyond the contract's text query, which its package tests check";
/** What an empty query answers, which the data-store contract leaves open. */
const EMPTY_QUERY =
  "what an empty or white-space-only query answers (this store lists its newest entries): the contract leaves it open, and the suite's expiry check accepts a store that refuses it";
const FS_SKILL_STORE = 'packages/agent-connector/src/filesystem-skill-store/filesystem-skill-store.ts';
/** What only a folder changed outside the store shows. */
const EDITED_OUTSIDE =
  "what the folder store does with files changed outside it (a skill file without a version log, a log that does not describe the file, a log line torn by a crash): writes through the store never leave such a folder, and the suite drives the store; the folder store's package tests make them";
/** The folder store's own file-name rule. */
const FOLDER_NAME_RULE =
  "the folder store's own name rule (a name must be a safe file name), which its package tests check; the suite's names are all safe";
/** Projections of the body the runtime re-derives. */
const BODY_PROJECTION =
  'description, a projection of the body that the runtime re-derives when a store leaves it out (SkillMeta); the contract lets a store omit it';
const SQLITE_SKILL_STORE = 'packages/sqlite/src/agent-connector/sqlite-skill-store.ts';
/** The SQLite skill store's secured mode. */
const SECURED_MODE =
  "the SQLite skill store's secured mode (an Approved status needs a signed header, else the write stays Draft), off by default and set by its own constructor option; its package tests check it";
/** Why a stored manifest and another with its blob CID can differ only in chunk order. */
const SAME_BLOB_CID =
  'two manifests with the same blob CID name the same chunks (the CID hashes their sorted list), so they have as many chunks, and the same chunk size unless the blob is one chunk, whose chunk size says nothing about where its bytes go; manifest-reordered and manifest-reordered-in-part check the order';
const OWN_HASHER =
  "the SDK's own pluggable-hasher option and its checks (a custom Hasher, the SHA-256 hasher), which the hashing contract of BLAKE3 content ids does not have";
/** A bundled connector's own constructor options, which no connector contract fixes. */
const OWN_OPTIONS =
  "the connector's own constructor options (their checks and refusals), which neither the AgentConnector contract nor the layout suite fixes";
/** A connector's own refusal of an agent id that is not a string: the contract asks only for a refusal. */
const SDK_AGENT_ID_REFUSAL =
  "the code and path of the SDK's own AgentConnectorError for a non-string agent id, which the contract does not name (it asks for a refusal)";
/** The wording of an error message, which the contracts leave to the implementation. */
const WORDING =
  'wording inside an error message, which the contract leaves to the implementation (the suite checks the code, the path and that a message exists)';

/** @type {Equivalent[]} */
export const EQUIVALENTS = [
  // The larger pairs keep theirs in a file of their own, mutation/equivalents/<pair>.mjs.
  ...blobTransferEquivalents,
  ...compatEquivalents,
  ...hearthnetNodeEquivalents,
  ...relayCodecEventsEquivalents,
  ...relayCodecFramesEquivalents,
  ...relayCodecStreamsEquivalents,
  ...relayConnectorEquivalents,
  ...relayEdgePassthroughEquivalents,
  ...relayEdgeVerifiersEquivalents,
  ...wireEquivalents,
  // relay.session-keys × buildSessionKey
  ...sameReason(
    {
      pairs: ['session-keys'],
      file: SESSION_KEY,
      mutators: ['StringLiteral', 'ObjectLiteral'],
      reason: FIELD_NAMED,
    },
    [
      '`${path} is or holds an integral number beyond the safe integer range: pass a bigint or a string`,',
      '{ path },',
      "export function normalizeWhatsAppIdentifier(value: SessionKeyValue, path = 'identifier'): string {",
      "export function canonicalWhatsAppIdentifier(value: SessionKeyValue, path = 'identifier'): string {",
      '`WhatsApp identifier in ${path} normalises to ${JSON.stringify(normalized)}',
      '{ path, details: { normalized } },',
      "add(slackScope, 'scope_id');",
      "canonicalWhatsAppIdentifier(fields.chat_id, 'chat_id')",
      "add(chatId, 'chat_id');",
      "add(fields.thread_id, 'thread_id');",
      "let threadField = 'thread_id';",
      "threadField = 'prospective_thread_id';",
      "add(chatTypeSlot, 'chat_type');",
      "add(fields.chat_id, 'chat_id');",
      "'platform must be a non-empty string'",
      "path: 'platform',",
      "'profile must be a string or null'",
      "path: 'options.profile',",
      "`dialect must be one of ${SESSION_KEY_DIALECTS.join(', ')}`,",
      "{ path: 'options.dialect' }",
      '`${name} must be a boolean`',
      'path: `options.${name}`,',
    ],
  ),
  ...sameReason(
    {
      pairs: ['session-keys'],
      file: SESSION_KEY,
      mutators: [
        'StringLiteral',
        'ConditionalExpression',
        'EqualityOperator',
        'LogicalOperator',
        'BlockStatement',
        'BooleanLiteral',
      ],
      reason:
        'isSessionKeyScalar and isUnsafeInteger only widen what scalarField accepts beyond plain JSON data: a string, boolean, null or finite number (an unsafe integer included) is JSON data anyway, and the empty case bodies fall through to the same return',
    },
    [
      "case 'string':",
      "case 'boolean':",
      "case 'undefined':",
      'return !Number.isInteger(value) || Number.isSafeInteger(value);',
      'default:',
      'return value === null;',
      'if (isSessionKeyScalar(value) || isUnsafeInteger(value) || isJsonValue(value)) {',
      "return typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value);",
      'function isUnsafeInteger(value: unknown): boolean {',
    ],
  ),
  ...sameReason(
    {
      pairs: ['session-keys'],
      file: SESSION_KEY,
      mutators: [...CONDITION_MUTATORS, 'StringLiteral', 'ObjectLiteral'],
      reason:
        "unreachable through the session-key suite: it passes a source record and an options record, and a non-object source or options (or a value no JSON fixture can hold, which describe() words) is a JavaScript caller's type error the SDK guards against",
    },
    [
      "if (typeof source !== 'object' || source === null || Array.isArray(source)) {",
      "throw new RelayError('invalid_session_source', 'the session source must be an object');",
      "if (typeof options !== 'object' || options === null || Array.isArray(options)) {",
      "throw new RelayError('invalid_session_key_options', 'the options must be an object', { path: 'options' });",
      "if (Array.isArray(value)) return 'an array holding something JSON cannot carry';",
      "if (typeof value === 'object') return 'an object that is not plain JSON data';",
      'return `a ${typeof value}`;',
      'function describe(value: unknown): string {',
      '`${name} must be a string, number, bigint, boolean, null or plain JSON data, not ${describe(value)}`,',
      '{ path: name },',
    ],
  ),
  ...sameReason(
    {
      pairs: ['session-keys'],
      file: SESSION_KEY,
      mutators: ['ConditionalExpression'],
      reason:
        'the baseline dialect never uses prospective_thread_id: readSource leaves it undefined there and the branch that keys on it needs it truthy, so reading it, or entering the dialect check, changes nothing a JSON source can show',
    },
    [
      "dialect === 'upstream-2026-09-21' &&",
      "dialect === 'upstream-2026-09-21' ? scalarField(record, 'prospective_thread_id') : undefined,",
    ],
  ),
  // hearthnet.pubsub × the topic and payload rules
  ...sameReason(
    {
      pairs: ['pubsub'],
      file: TOPICS,
      mutators: DIAGNOSTIC_MUTATORS,
      reason: TOPIC_REFUSAL_WORDS,
    },
    [
      'const capabilityNameSchema = z.string().refine(succeeds(parseCapabilityName), {',
      "message: 'expected a capability name such as llm.chat',",
      'const capabilityVersionSchema = z.string().refine(succeeds(parseCapabilityVersion), {',
      "message: 'expected a capability version major.minor',",
      "context.addIssue({ code: 'custom', message: `${verdict.message} (at ${verdict.path})` });",
      'context.addIssue({',
      "code: 'custom',",
      "path: ['event_type'],",
      "message: `expected an event of type ${types.join(' or ')}, got ${verdict.event.event_type}`,",
      "(issue?.path ?? []).filter((segment): segment is string | number => typeof segment !== 'symbol'),",
      "`${topic}: ${path}: ${issue?.message ?? 'invalid payload'}`,",
      'details: { topic },',
      '`${topic}: a chat topic is chat.message.<recipient full node id>`,',
      '{ cause: error, details: { value: topic } },',
      "throw new HearthNetLocalError('unknown_topic', `${JSON.stringify(topic)} is not a topic of contract §8`, {",
      'details: { value: topic },',
      "`${resolved.topic}: $.data.recipient: the message is addressed to ${String(recipient)}, not to this topic's recipient`,",
      "{ path: '$.data.recipient', details: { topic: resolved.topic } },",
    ],
  ),
  {
    pairs: ['pubsub'],
    file: TOPICS,
    code: '{',
    exact: true,
    mutators: ['ObjectLiteral'],
    reason: TOPIC_REFUSAL_WORDS,
  },
  ...sameReason(
    {
      pairs: ['pubsub'],
      file: TOPICS,
      mutators: ['ArrayDeclaration', 'StringLiteral'],
      reason:
        "a row's eventTypes, which the facts the contract fixes per topic (scope, payload, producer, audience, recipient) do not hold: the row's payload check is built from the event types passed in, not from this copy",
    },
    [
      'eventTypes: readonly EventType[] = [],',
      'eventTypes: Object.freeze([...eventTypes]),',
      "definition('node.manifest.updated', 'wire', 'node_manifest', 'each_node', 'members', [",
    ],
  ).concat({
    pairs: ['pubsub'],
    file: TOPICS,
    code: "'node.manifest.updated',",
    exact: true,
    mutators: ['StringLiteral'],
    reason:
      'the eventTypes of the node.manifest.updated row, which the facts the contract fixes per topic do not hold (its payload is the manifest, checked by its own schema)',
  }),
  ...sameReason(
    {
      pairs: ['pubsub'],
      file: TOPICS,
      mutators: [
        ...CONDITION_MUTATORS,
        'StringLiteral',
        'ObjectLiteral',
        'MethodExpression',
        'ArrowFunction',
      ],
      reason:
        "unreachable through the pub-sub suite: its interface passes topic names as strings, and LOCAL_ONLY_TOPICS serves only isLocalOnlyTopic, a helper of the node's hub (the suite asks checkWireTopic, which reads the row's scope)",
    },
    [
      "TOPIC_DEFINITIONS.filter((topic) => topic.scope === 'local_only').map((topic) => topic.name),",
      "return typeof topic === 'string' && LOCAL_ONLY_TOPICS.includes(topic);",
      'export function isLocalOnlyTopic(topic: unknown): boolean {',
      "if (typeof topic !== 'string')",
      "throw new HearthNetLocalError('unknown_topic', 'a topic must be a string', { details: { value: topic } });",
      "const resolved = typeof topic === 'string' ? resolveTopic(topic) : topic;",
    ],
  ),
  ...sameReason(
    {
      pairs: ['pubsub'],
      file: TOPICS,
      mutators: ['StringLiteral'],
      reason:
        'topicForEvent maps chat.message.sent and node.manifest.updated in its switch before it reads EVENT_TOPICS, so their entries there are documentation',
    },
    ["'node.manifest.updated': 'node.manifest.updated',", "'chat.message.sent': 'chat.message.<recipient>',"],
  ),
  {
    pairs: ['pubsub'],
    file: TOPICS,
    code: '} catch {',
    mutators: ['BlockStatement'],
    reason:
      'an emptied catch block returns undefined, which refine() reads as false, as it reads the original false',
  },
  // hearthnet.event-store × SqliteEventStore
  ...sameReason(
    {
      pairs: ['sqlite-event-store'],
      file: SQLITE_EVENT_STORE,
      mutators: [
        ...CONDITION_MUTATORS,
        'StringLiteral',
        'ObjectLiteral',
        'ArrowFunction',
        'OptionalChaining',
        'BooleanLiteral',
      ],
      reason:
        "the SQLite store's own surface beyond EventStore (its constructor options, appendBatch, close() and the closed state, its schema component's name) and its guards of argument types for JavaScript callers, which the EventStore contract, with typed arguments, does not have",
    },
    [
      "const IMPLEMENTATION = 'SqliteEventStore';",
      "const { database, owned } = openDatabase(options, 'options', (message, path) =>",
      '} catch (error) {',
      'if (owned) database.close();',
      'async appendBatch(events: Iterable<SignedEvent>): Promise<AppendResult[]> {',
      "if (typeof (events as { [Symbol.iterator]?: unknown })?.[Symbol.iterator] !== 'function') {",
      "throw invalidStoreArgumentError('must be an iterable of events', 'events');",
      "assertString(communityId, 'communityId');",
      "if (typeof create !== 'function') throw invalidStoreArgumentError('must be a function', 'create');",
      "assertString(eventId, 'eventId');",
      "if (typeof range !== 'object' || range === null) {",
      "throw invalidStoreArgumentError('must be an object', 'range');",
      'close(): void {',
      'if (this.#closed) return;',
      'this.#closed = true;',
      'if (this.#owned) this.#database.close();',
      '#open(): void {',
      'if (this.#closed || !this.#database.open) throw storeClosedError(IMPLEMENTATION);',
      'function assertString(value: unknown, name: string): asserts value is string {',
      "if (typeof value !== 'string') throw invalidStoreArgumentError('must be a string', name);",
      "name: 'hearthnet_event_store',",
      'export function invalidStoreArgumentError(message: string, path: string): SqliteStoreError {',
      "return new SqliteStoreError('invalid_store_argument', `${path} ${message}`, { path });",
    ],
  ),
  ...[
    { from: '  async appendBatch(events: Iterable<SignedEvent>)', until: '   * Stores an event made here' },
    { from: '  async appendLocalBatch<E extends SignedEvent>(', until: '   * Inside a transaction: calls' },
  ].map((span) => ({
    pairs: ['sqlite-event-store'],
    file: SQLITE_EVENT_STORE,
    span,
    reason:
      "the SQLite store's batch methods beyond EventStore (appendBatch, appendLocalBatch: many events in one transaction), which the contract does not have and the suite never calls; sqlite-event-store.test.ts checks them against one-at-a-time appends",
  })),
  {
    pairs: ['sqlite-event-store'],
    file: SQLITE_EVENT_STORE,
    code: "this.#appendLocalIn(communityId, create, 'appendLocal', moved)",
    mutators: ['StringLiteral'],
    reason:
      "the method's name inside the local_event_mismatch message, wording the contract leaves to the implementation (the suite checks the code)",
  },
  {
    pairs: ['sqlite-event-store'],
    file: SQLITE_EVENT_STORE,
    code: 'if (!isSealedEvent(event)) {',
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason:
      'checking an event createEvent made again: it was checked before it was signed and is frozen, so the check refuses nothing',
  },
  {
    pairs: ['sqlite-event-store'],
    file: SQLITE_EVENT_STORE,
    code: 'return this.#statements.head.get(communityId)?.head ?? undefined;',
    mutators: ['OptionalChaining'],
    reason: 'MAX() over no rows still yields one row (head NULL), so the row always exists',
  },
  {
    pairs: ['sqlite-event-store'],
    file: SQLITE_EVENT_STORE,
    code: 'if (head !== null) heads.set(community_id, head);',
    mutators: ['ConditionalExpression'],
    reason:
      'a community gets its clock row only in the transaction that stores one of its events, so the MAX over its events is never NULL',
  },
  {
    pairs: ['sqlite-event-store'],
    file: SQLITE_EVENT_STORE,
    code: "if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {",
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason:
      'Number.isSafeInteger is false for every non-number, so the next test refuses what the type test would',
  },
  // hearthnet.manifests × node manifests
  {
    pairs: ['manifests'],
    file: MANIFEST,
    code: 'date.getUTCFullYear() === year &&',
    exact: true,
    mutators: ['LogicalOperator'],
    replacement: 'date.getUTCFullYear() === year || date.getUTCMonth() === month - 1',
    reason:
      "the year test of a date that rolled over, when only the month test is or'ed with it: a Date moves an out-of-range day into a later month and a month past December into a later year, and never changes the year while the month (0-11, against a parsed month - 1 of at most 98) and day still agree, so where the month and day agree the year does too (the wider or'ed tests are killed by the timestamp-* cases)",
  },
  ...sameReason(
    {
      pairs: ['manifests'],
      file: MANIFEST,
      mutators: [...DIAGNOSTIC_MUTATORS, 'ArithmeticOperator'],
      reason: MANIFEST_WORDS,
    },
    [
      'export const nodeIdSchema = z.string().refine(isFullNodeId, {',
      "message: 'expected a full node id, ed25519:<base64url of 32 bytes>',",
      'export const timestampSchema = z.string().refine((text) => tryParseTimestamp(text) !== undefined, {',
      "message: 'expected an RFC 3339 UTC timestamp such as 2026-05-26T08:14:22Z',",
      'export const jsonObjectSchema = z.custom<{ readonly [key: string]: unknown }>(isPlainObject, {',
      "message: 'expected a JSON object',",
      '{ message: \'expected a capability version "X.Y"\' }',
      "{ message: 'expected blake3:<64 lowercase hex>' }",
      "const path = formatJsonPath((issue?.path ?? []).filter((segment) => typeof segment !== 'symbol'));",
      "`invalid node manifest at ${path}: ${issue?.message ?? 'invalid'}`,",
      "return rejectManifest('malformed', `${path}: ${issue?.message ?? 'invalid'}`, path);",
      '`manifest version ${manifest.version} is not ${NODE_MANIFEST_VERSION}`,',
      '`contract_version ${JSON.stringify(manifest.contract_version)} is not compatible with 1.0`,',
      '`expires_at − issued_at is ${(expiresAt - issuedAt) / 1000} s, not ${NODE_MANIFEST_LIFETIME_MS / 1000} s`,',
      '`the signature does not verify under node_id (${signature.reason})`,',
      "return rejectManifest('expired', `the manifest expired at ${manifest.expires_at}`);",
      '`node manifest refused (${rejection.reason}): ${rejection.message}`,',
      'return path === undefined',
      '`another public key is pinned for node ${verdict.manifest.node_id}`,',
    ],
  ),
  ...sameReason(
    {
      pairs: ['manifests'],
      file: MANIFEST,
      mutators: [...CONDITION_MUTATORS, 'StringLiteral', 'ObjectLiteral', 'Regex', 'BooleanLiteral'],
      reason:
        'a field schema of this file that only events use (signatures and prefixed content ids appear in no manifest field): the event-log pair measures it',
    },
    [
      'export const signatureSchema = z.string().regex(/^ed25519:[A-Za-z0-9_-]{85}[AQgw]$/, {',
      "message: 'expected ed25519:<base64url of 64 bytes>',",
      'export const contentIdSchema = z.string().refine(isPrefixedCid, {',
      "message: 'expected a content id such as blake3:<64 lowercase hex>',",
      'function isPrefixedCid(text: string): boolean {',
      "return parseContentId(text).form === 'prefixed';",
    ],
  ),
  ...[
    ['try {', 'BlockStatement'],
    ['} catch {', 'BlockStatement'],
    ['return false;', 'BooleanLiteral'],
  ].map(([code, mutator]) => ({
    pairs: ['manifests'],
    file: MANIFEST,
    code,
    exact: true,
    mutators: [mutator],
    reason:
      'the try/catch of isPrefixedCid, a check only events use (the event-log pair measures it); isFullNodeId, the same shape, is killed through node ids',
  })),
  ...sameReason(
    {
      pairs: ['manifests'],
      file: MANIFEST,
      mutators: [...CONDITION_MUTATORS, 'StringLiteral', 'LogicalOperator', 'ArithmeticOperator', 'Regex'],
      reason:
        "the SDK's own clock-skew option and its guards of `now` (a finite number, years 0000–9999) for JavaScript callers: the contract judges a manifest at a given time with no skew, and the suite passes one",
    },
    [
      "assertTime(options.now, 'now');",
      "assertTime(options.clockSkewMs ?? 0, 'clockSkewMs');",
      'if (options.now >= expiresAt + (options.clockSkewMs ?? 0)) {',
      "if (typeof value !== 'number' || !Number.isFinite(value) || (name === 'clockSkewMs' && value < 0)) {",
      'function assertTime(value: unknown, name: string): void {',
      'throw invalidTimestamp(value, `${name} must be a finite number of milliseconds`);',
      'this.#clockSkewMs = options.clockSkewMs ?? 0;',
      "if (typeof timeMs !== 'number' || !Number.isFinite(timeMs) || Math.abs(timeMs) > MAX_DATE_MS) {",
      "throw invalidTimestamp(timeMs, 'a time must be a finite number of milliseconds');",
      "if (!/^\\d{4}-/.test(text)) throw invalidTimestamp(timeMs, 'the year must be between 0000 and 9999');",
    ],
  ),
  ...sameReason(
    {
      pairs: ['manifests'],
      file: MANIFEST,
      mutators: [
        ...CONDITION_MUTATORS,
        'StringLiteral',
        'ObjectLiteral',
        'ArrayDeclaration',
        'BooleanLiteral',
      ],
      reason:
        "unreachable through the manifest rules: parseTimestamp runs only on timestamps the schema has checked, tryParseTimestamp gets only strings (z.string() first), the two keys equalBytes compares are always 32 bytes, and the in-memory pin store's seeding and get() are the SDK's (the suite seeds one key per node id)",
    },
    [
      'if (timeMs === undefined) {',
      "throw invalidTimestamp(text, 'expected an RFC 3339 UTC timestamp such as 2026-05-26T08:14:22Z');",
      "if (typeof text !== 'string') return undefined;",
      'if (a.length !== b.length) return false;',
      'for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;',
      'constructor(initial: Iterable<readonly [string, Uint8Array]> = []) {',
      'if (!this.#pins.has(nodeId)) this.#pins.set(nodeId, new Uint8Array(publicKey));',
      'async get(nodeId: string): Promise<Uint8Array | undefined> {',
      'return pinned === undefined ? undefined : new Uint8Array(pinned);',
      'export function invalidTimestamp(value: unknown, message: string): HearthNetLocalError {',
      "return new HearthNetLocalError('invalid_timestamp', `${message}, got ${describeValue(value)}`, {",
      'details: { value },',
    ],
  ),
  ...sameReason(
    {
      pairs: ['manifests'],
      file: MANIFEST,
      mutators: ['StringLiteral', 'ObjectLiteral'],
      reason:
        "the code and fields of buildNodeManifest's own refusal: the contract has no build, and the suite asks only that input breaking the §6.1 shape is refused",
    },
    ["'invalid_node_manifest',"],
  ).concat({
    pairs: ['manifests'],
    file: MANIFEST,
    code: '{',
    exact: true,
    mutators: ['ObjectLiteral'],
    reason:
      "the fields of buildNodeManifest's own refusal: the contract has no build, and the suite asks only that input breaking the §6.1 shape is refused",
  }),
  ...[
    'date.getUTCFullYear() === year &&',
    'date.getUTCMonth() === month - 1 &&',
    'date.getUTCDate() === day &&',
    'date.getUTCHours() === hour &&',
    'date.getUTCMinutes() === minute &&',
    'date.getUTCSeconds() === second;',
  ].map((code) => ({
    pairs: ['manifests'],
    file: MANIFEST,
    code,
    mutators: ['ConditionalExpression'],
    reason:
      'an impossible timestamp always fails two of these comparisons: the field that overflows wraps and carries into the next larger one (31 April becomes 1 May, second 60 becomes second 0 of the next minute, month 13 becomes January of the next year), so dropping any one comparison refuses the same timestamps',
  })),
  // hearthnet.capability-schemas × the catalogue: capability names and versions, reached through satisfies
  ...sameReason(
    {
      pairs: ['capability-schemas'],
      file: CAPABILITY_NAME,
      mutators: [
        ...CONDITION_MUTATORS,
        'StringLiteral',
        'ObjectLiteral',
        'MethodExpression',
        'UnaryOperator',
      ],
      reason:
        "not observable through the SDK's public surface, which the suite drives through satisfies: a name's prefix and its §3.1 status, the registrable rule (CapabilityRegistry applies it; capability-name.test.ts runs the fixture's parse cases against both), compareCapabilityVersions, and the guards of non-string arguments",
    },
    [
      '} = Object.freeze({',
      "llm: 'stable',",
      "embed: 'stable',",
      "rag: 'stable',",
      "file: 'stable',",
      "market: 'stable',",
      "chat: 'stable',",
      "community: 'stable',",
      "federation: 'beta',",
      "ocr: 'reserved',",
      "tts: 'reserved',",
      "stt: 'reserved',",
      "trans: 'reserved',",
      "img: 'reserved',",
      "experimental: 'unstable',",
      "const prefix = name.slice(0, name.indexOf('.'));",
      "prefixStatus: Object.hasOwn(CAPABILITY_PREFIXES, prefix) ? CAPABILITY_PREFIXES[prefix]! : 'unallocated',",
      'export function assertRegistrableCapabilityName(name: string): ParsedCapabilityName {',
      "if (parsed.prefixStatus === 'reserved') {",
      "if (parsed.prefixStatus === 'unallocated') {",
      '`capability prefix "${parsed.prefix}." is reserved',
      '`capability prefix "${parsed.prefix}." is not allocated',
      "{ details: { reason: 'reserved_prefix', value: name } },",
      "{ details: { reason: 'unallocated_prefix', value: name } },",
      'export function compareCapabilityVersions(a: string, b: string): number {',
      'return left.major - right.major || left.minor - right.minor;',
      "const wanted = typeof requirement === 'string' ? parseCapabilityRequirement(requirement) : requirement;",
      "const have = typeof offered === 'string' ? parseCapabilityRef(offered) : offered;",
      "const match = typeof version === 'string' ? versionSyntax.exec(version) : null;",
      "const at = typeof value === 'string' ? value.lastIndexOf('@') : -1;",
    ],
  ),
  ...[
    [
      'return {',
      "parseCapabilityName's result is read by satisfies only as a check (it keeps the name it split itself), and its prefix fields are internal",
    ],
    [
      '{',
      'the details of a refused name@version text, which the contract leaves to the implementation (the suite checks the code)',
    ],
  ].map(([code, reason]) => ({
    pairs: ['capability-schemas'],
    file: CAPABILITY_NAME,
    code,
    exact: true,
    mutators: ['ObjectLiteral'],
    reason,
  })),
  {
    pairs: ['capability-schemas'],
    file: CAPABILITY_NAME,
    code: "if (typeof name !== 'string' || name.length > MAX_CAPABILITY_NAME_LENGTH || !nameSyntax.test(name)) {",
    mutators: ['ConditionalExpression', 'LogicalOperator'],
    column: 7,
    reason: 'satisfies hands parseCapabilityName strings only, so the type test never decides',
  },
  ...sameReason(
    {
      pairs: ['capability-schemas'],
      file: CAPABILITY_NAME,
      mutators: ['StringLiteral', 'ObjectLiteral'],
      reason:
        'wording and details of a refused name or version, which the contract leaves to the implementation (the suite checks the code)',
    },
    [
      '`capability name must be dot-separated lowercase segments',
      "{ details: { reason: 'malformed', value: name } },",
      '`capability version must be "X.Y" (non-negative integers, no leading zeros), got ${describeValue(version)}`,',
      '{ details: { value: version } },',
      '`an offered capability names one version, got ${describeValue(ref)}`,',
      '{ details: { value: ref } },',
      '`expected "name@version", got ${describeValue(value)}`,',
      'details: { value },',
    ],
  ),
  ...sameReason(
    {
      pairs: ['capability-schemas'],
      file: CAPABILITY_NAME,
      mutators: [
        'ConditionalExpression',
        'LogicalOperator',
        'EqualityOperator',
        'MethodExpression',
        'BlockStatement',
        'UnaryOperator',
      ],
      reason:
        'a guard a later check repeats with the same code: Number(undefined) is NaN and never a safe integer, and ">=1.0" as a version fails the version syntax (both invalid_capability_version)',
    },
    [
      'if (match === null || !Number.isSafeInteger(major) || !Number.isSafeInteger(minor)) {',
      "if (version.startsWith('>=')) {",
    ],
  ),
  // hearthnet.canonical-json × canonicalJson
  ...sameReasonSpans({ pairs: ['canonical-json'], file: CANONICAL_JSON, reason: CANONICAL_EXTRAS }, [
    { from: 'export function canonicalJsonWithLossyNumbers', until: 'function serialize(' },
    { from: 'export function canonicalJsonString', until: 'function writeValue(' },
    { from: 'export function normalizeNumbers', until: '// The number rule of the reference' },
    { from: 'export function formatCanonicalNumber', until: ' * C `%g` with precision 6' },
  ]),
  ...sameReason({ pairs: ['canonical-json'], file: CANONICAL_JSON, reason: CANONICAL_EXTRAS }, [
    'if (traversal.lossyNumbers !== undefined && Object.is(value, -0)) {',
    'if (traversal.lossyNumbers !== undefined && Number(text) !== value) {',
  ]),
  // hearthnet.event-log × the event rules, ULIDs and sync
  ...sameReason(
    {
      pairs: ['event-log'],
      file: SYNC_PROTOCOL,
      mutators: [...CONDITION_MUTATORS, 'StringLiteral', 'MethodExpression'],
      reason:
        "a check of the push that replay makes again with the same refusal: an event of another community is refused by replay's community rule (wrong_community), a different event under a stored id by its duplicate rule (duplicate_event_id), an identical one is applied again as a duplicate; an empty batch replays nothing; the store keeps replay order whatever order events are appended in",
    },
    [
      'if (event.community_id !== communityId) {',
      'message: `the event belongs to ${event.community_id}`,',
      'if (stored !== undefined) {',
      'if (candidates.size > 0) {',
      'for (const event of [...candidates.values()].sort(compareForReplay)) {',
    ],
  ),
  ...sameReason(
    {
      pairs: ['event-log'],
      file: SYNC_PROTOCOL,
      mutators: [
        ...CONDITION_MUTATORS,
        'ArrowFunction',
        'ArithmeticOperator',
        'MethodExpression',
        'ObjectLiteral',
        'StringLiteral',
        'BooleanLiteral',
        'ArrayDeclaration',
        'OptionalChaining',
      ],
      reason:
        "unreachable from the event-log suite's sync functions (a push through ingestEvents, digests through the handler with a well-formed request): the sync HTTP request schemas and eventsById serve the node's sync handler, which the hearthnet-node pair drives; buckets come out of a replay-ordered list already ascending; a batch after a failed one, a store that throws a conflict mid-push and pushed values that are not objects do not occur",
    },
    [
      '.sort(([a], [b]) => a - b)',
      'const events: SignedEvent[] = [];',
      'for (const eventId of new Set(eventIds)) {',
      'if (event?.community_id === communityId) events.push(event);',
      '() => ingest(store, communityId, incoming),',
      "message: 'a different event with this event_id is already known',",
      '} catch (error) {',
      "if (!(error instanceof HearthNetLocalError && error.code === 'event_conflict')) throw error;",
      "if (typeof value !== 'object' || value === null) return null;",
      "return typeof id === 'string' ? id : null;",
    ],
  ),
  {
    pairs: ['event-log'],
    file: SYNC_PROTOCOL,
    span: {
      from: '/** Request bodies, as the handler checks them',
      until: '/** The bucket of a Lamport value. */',
    },
    reason:
      "the sync HTTP request and answer schemas, which the node's sync handler reads (the hearthnet-node pair); the event-log suite's digests request is well-formed",
  },
  ...sameReason(
    {
      pairs: ['event-log'],
      file: EVENT,
      mutators: [
        ...CONDITION_MUTATORS,
        'StringLiteral',
        'ObjectLiteral',
        'LogicalOperator',
        'AssignmentOperator',
      ],
      reason:
        "the same refusal either way or a path the suite does not take: a value that is not an object fails the envelope schema with the same malformed_envelope; createEvent's placeholder signature and its refusal of an invalid unsigned event (the suite signs valid envelopes; verify-event covers the rules); the shared default ULID factory (the suite's envelopes carry their event_id)",
    },
    [
      "if (typeof value !== 'object' || value === null || Array.isArray(value)) {",
      "const verdict = validateEvent({ ...unsigned, signature: '' });",
      'if (!verdict.valid)',
      "throw new HearthNetLocalError('invalid_event', verdict.message, {",
      'details: { reason: verdict.reason },',
      'const ulid = options.ulid ?? sharedFactory();',
      "return typeof value === 'string' && known.has(value);",
      'function sharedFactory(): UlidFactory {',
      'sharedUlidFactory ??= createUlidFactory();',
    ],
  ),
  ...sameReason(
    {
      pairs: ['event-log'],
      file: ULID,
      mutators: ['EqualityOperator', 'ArrowFunction', 'StringLiteral', 'ObjectLiteral', 'BooleanLiteral'],
      reason:
        "reads one past the end (charCodeAt gives NaN, which no check takes for a character), the factory's default randomness (the suite passes its draws), and the wording and retry hint of ulid_overflow (the suite checks the code)",
    },
    [
      'for (let i = 0; i < CROCKFORD.length; i++) values[CROCKFORD.charCodeAt(i)] = i;',
      'for (let i = 0; i < ULID_LENGTH; i++) {',
      'options.random ?? ((length: number) => globalThis.crypto.getRandomValues(new Uint8Array(length)));',
      "throw new HearthNetLocalError('ulid_overflow', 'the 80 random bits of this millisecond are used up', {",
      'retryable: true,',
    ],
  ),
  {
    pairs: ['event-log'],
    file: ULID,
    span: { from: 'export function decodeUlid', until: '/** Whether `value` is a canonical ULID' },
    reason:
      "decodeUlid is internal to the SDK (the compat pair reaches it through reference events; the package's tests run the fixture's ulid-decode cases): the event-log suite encodes and validates ids, it does not take them apart",
  },
  ...sameReason(
    {
      pairs: ['event-log'],
      file: ULID,
      mutators: ['StringLiteral', 'ObjectLiteral'],
      reason:
        'the wording of a refused ULID input, which the contract leaves to the implementation (the suite checks the code)',
    },
    [
      '`a ULID time is an integer in 0 … 2^48−1 ms, got ${String(timeMs)}`,',
      '`a ULID needs ${ULID_RANDOM_BYTES} random bytes`',
    ],
  ),
  ...sameReason(
    {
      pairs: ['event-log'],
      file: EVENT,
      mutators: DIAGNOSTIC_MUTATORS,
      reason: EVENT_WORDS,
    },
    [
      "{ message: 'expected a ULID (26 upper-case Crockford base32 characters)' }",
      ".refine(isUlid, { message: 'expected a ULID (26 Crockford base32 characters)' });",
      "return rejectEvent('malformed_envelope', '$', 'an event must be a JSON object');",
      "'$.schema_version',",
      '`schema_version ${version} is not ${EVENT_SCHEMA_VERSION}`,',
      "if (!envelope.success) return rejectionFromIssue('malformed_envelope', [], envelope.error);",
      "return rejectEvent('unknown_event_type', '$.event_type', `unknown event type ${JSON.stringify(type)}`);",
      "if (!parsed.success) return rejectionFromIssue('invalid_data', ['data'], parsed.error);",
      "const segments = [...prefix, ...(issue?.path ?? [])].filter((segment) => typeof segment !== 'symbol');",
      "return rejectEvent(reason, path, `${path}: ${issue?.message ?? 'invalid'}`);",
      "'$.signature',",
      "`the signature does not verify under the author's key (${",
    ],
  ),
  ...sameReason(
    {
      pairs: ['event-log'],
      file: MANIFEST,
      mutators: ['ObjectLiteral', 'StringLiteral'],
      reason: EVENT_WORDS,
    },
    [
      'export const signatureSchema = z.string().regex(/^ed25519:[A-Za-z0-9_-]{85}[AQgw]$/, {',
      "message: 'expected ed25519:<base64url of 64 bytes>',",
      'export const contentIdSchema = z.string().refine(isPrefixedCid, {',
      "message: 'expected a content id such as blake3:<64 lowercase hex>',",
      'export const jsonObjectSchema = z.custom<{ readonly [key: string]: unknown }>(isPlainObject, {',
      "message: 'expected a JSON object',",
    ],
  ),
  {
    pairs: ['event-log'],
    file: MANIFEST,
    span: { from: 'function isFullNodeId(text: string)', until: '/** One way to reach a node' },
    code: '} catch {',
    exact: true,
    mutators: ['BlockStatement'],
    reason:
      'a catch that returns nothing returns undefined, which refine reads as false, as it reads the false returned',
  },
  {
    pairs: ['event-log'],
    file: ULID,
    code: "if (typeof value !== 'string' || value.length !== ULID_LENGTH) return false;",
    exact: true,
    mutators: ['ConditionalExpression'],
    column: 7,
    replacement: 'false',
    reason:
      "the type test of isUlid, whose every caller in an event runs z.string() first (the same location's mutant that drops the whole test is killed: verify-event-id-25-characters)",
  },
  {
    pairs: ['event-log'],
    file: ULID,
    code: 'if (!Number.isSafeInteger(timeMs) || timeMs < 0 || timeMs > MAX_ULID_TIME) {',
    exact: true,
    mutators: ['ConditionalExpression', 'LogicalOperator'],
    reason:
      'a time that is negative or not an integer, which no clock reading gives: the contract encodes 0 … 2^48−1 ms, and ulid-monotonic-time-beyond-48-bits checks the one refusal a clock can reach',
  },
  {
    pairs: ['event-log'],
    file: SYNC_PROTOCOL,
    code: 'const buckets = [...groups.entries()]',
    mutators: ['MethodExpression'],
    reason:
      "the store lists a community's events in replay order, Lamport first, so the buckets (Lamport ranges) already come in ascending order",
  },
  {
    pairs: ['event-log'],
    file: SYNC_PROTOCOL,
    span: { from: 'export async function eventsById(', until: '/** The ingestion running on each store' },
    reason:
      "eventsById answers a node's sync request for events (the sync handler and client), which the node pair measures; the suite's sync cases drive digests, diffs and ingestion",
  },
  {
    pairs: ['event-log'],
    file: SYNC_PROTOCOL,
    code: 'if (!rejected.has(rejection.event_id)) rejected.set(rejection.event_id, rejection);',
    exact: true,
    mutators: ['ConditionalExpression'],
    reason:
      'which of several refusals of one event id is reported: sync.json reports each refused id once and does not say which',
  },
  ...sameReason(
    {
      pairs: ['canonical-json'],
      file: CANONICAL_JSON,
      mutators: [...CONDITION_MUTATORS, 'BooleanLiteral'],
      reason:
        'which buffer the writer fills (the scratch buffer kept between calls, or a fresh one), never what it writes: the bytes come out of finish() either way',
    },
    [
      'if (scratch === undefined) {',
      'if (this.borrowed) scratch = this.buffer.length <= RETAINED_CAPACITY ? this.buffer : undefined;',
      'if (this.borrowed && scratch === undefined) scratch = new Uint8Array(INITIAL_CAPACITY);',
      'this.borrowed = false;',
      'this.borrowed = true;',
    ],
  ),
  ...sameReason(
    {
      pairs: ['canonical-json'],
      file: CANONICAL_JSON,
      mutators: ['ConditionalExpression', 'EqualityOperator'],
      reason:
        "a fast path's refusal only hands the text to the slow path, which writes the same bytes: writeQuotedPlain declining a string leaves it to JSON.stringify (which escapes exactly what canonical JSON escapes), and write() never gets text encode() refuses",
    },
    [
      'if (end < 0) return false;',
      'if (end >= 0) this.length = end;',
      'if (quoting && (unit < 0x20 || unit === QUOTE || unit === BACKSLASH)) return -1;',
    ],
  ),
  {
    pairs: ['canonical-json'],
    file: CANONICAL_JSON,
    code: 'const codePoint = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);',
    mutators: ['ArithmeticOperator'],
    replacement: 'unit + 0xd800',
    reason:
      'adding 0xd800 instead of subtracting it changes only bits 21 and up of the code point, which each UTF-8 byte masks (& 0x3f) or the byte array truncates away (0xf0 | cp >> 18)',
  },
  {
    pairs: ['canonical-json'],
    file: CANONICAL_JSON,
    code: "case 'boolean':",
    exact: true,
    mutators: ['ConditionalExpression'],
    reason:
      "a boolean falling through to the bigint branch is written by its toString(), 'true' or 'false' as before",
  },
  ...sameReason(
    {
      pairs: ['canonical-json'],
      file: CANONICAL_JSON,
      reason:
        "values JSON text cannot hold (undefined, functions, symbols, holes of sparse arrays, objects that contain themselves or are no plain object or array): a fixture's input is JSON, so no case can give one; the package's tests refuse them",
    },
    [
      'default:',
      'if (item === undefined && !(i in array)) throw unsupportedValue(item, traversal, true);',
      "if (this.ancestors.includes(container)) throw this.error('cycle', 'the value contains itself');",
    ],
  ),
  {
    pairs: ['canonical-json'],
    file: CANONICAL_JSON,
    span: { from: 'export function unsupportedValue(', until: 'const RETAINED_CAPACITY' },
    reason:
      "values JSON text cannot hold (array subclasses, objects that are no plain object): a fixture's input is JSON, so no case can give one; the package's tests refuse them",
  },
  ...[
    ["if (prototype === Array.prototype) return 'array';", 'ConditionalExpression'],
    ['} else if (prototype === Object.prototype || prototype === null) {', 'ConditionalExpression'],
    ['} else if (prototype === Object.prototype || prototype === null) {', 'EqualityOperator'],
    [
      "throw traversal.error('unsupported_type', `${describeObject(value)} is not a plain object or array`);",
      'StringLiteral',
    ],
  ].map(([code, mutator]) => ({
    pairs: ['canonical-json'],
    file: CANONICAL_JSON,
    code: String(code),
    exact: true,
    mutators: [String(mutator)],
    reason:
      "values JSON text cannot hold (array subclasses, objects that are no plain object): a fixture's input is JSON, so no case can give one; the package's tests refuse them",
  })),
  {
    pairs: ['canonical-json'],
    file: CANONICAL_JSON,
    code: 'if (level >= MAX_CANONICAL_DEPTH) {',
    exact: true,
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason:
      "the SDK's own nesting bound, which the contract does not have (the reference's limit is CPython's recursion): without it a deep value is written, as the contract asks",
  },
  {
    pairs: ['canonical-json'],
    file: CANONICAL_JSON,
    code: "return 'object';",
    exact: true,
    mutators: ['StringLiteral'],
    reason: "writeValue tells an array from the rest, so any kind but 'array' writes an object",
  },
  ...sameReason(
    {
      mutators: ['StringLiteral', 'ObjectLiteral', 'BlockStatement', 'ArrayDeclaration', 'EqualityOperator'],
      pairs: ['canonical-json'],
      file: CANONICAL_JSON,
      reason:
        "the SDK's own nesting bound (MAX_CANONICAL_DEPTH, which the contract does not have: the reference's limit is CPython's recursion) and what an error says besides its code (its path and message): the suite checks the canonical bytes and the error code",
    },
    [
      'private readonly ancestors: object[] = [];',
      'readonly segments: JsonPathSegment[] = [];',
      'if (level >= MAX_CANONICAL_DEPTH) {',
      "throw this.error('max_depth', `nesting is deeper than ${MAX_CANONICAL_DEPTH} containers`);",
      'leave(): void {',
      'path(): string {',
      'return new HearthNetLocalError(code, `${message} at ${path}`, { path });',
      "if (!isWellFormed(text)) throw this.error('lone_surrogate', `${what} holds a lone UTF-16 surrogate`);",
      "writeString(value, 'string', traversal, out);",
      "throw traversal.error('non_finite_number', `${value} has no JSON form`);",
      "writeString(key, 'key', traversal, out);",
    ],
  ),
  ...sameReason(
    {
      pairs: ['canonical-json'],
      file: CANONICAL_JSON,
      reason:
        'the fallback for engines without String.prototype.isWellFormed: Node 20 and every browser the SDK supports have it',
    },
    [
      'const LONE_SURROGATE = /\\p{Cs}/u;',
      "typeof (String.prototype as MaybeWellFormed).isWellFormed === 'function'",
      ': (text) => !LONE_SURROGATE.test(text);',
    ],
  ),
  ...sameReason(
    {
      pairs: ['canonical-json'],
      file: CANONICAL_JSON,
      mutators: [...CONDITION_MUTATORS, 'BooleanLiteral'],
      reason:
        'choosing the sort: a key with a surrogate holds a whole pair (lone ones are refused), so a test that misses the first or last unit of the range still finds the other half, and sorting by code point is right for every key set (code unit order, insertion sort or the engine sort, only where no surrogate is)',
    },
    [
      'for (let i = 0; i < key.length; i++) {',
      'if (unit >= 0xd800 && unit <= 0xdfff) return true;',
      'if (keys.length < 2) return keys;',
      'if (hasSurrogate(keys[i]!)) return keys.sort(compareCodePoints);',
      'if (length > INSERTION_SORT_LIMIT) return keys.sort();',
      'while (j >= 0 && keys[j]! > key) {',
    ],
  ),
  {
    pairs: ['canonical-json'],
    file: CANONICAL_JSON,
    span: { from: 'function hasSurrogate(', until: '/** Up to this many keys' },
    code: 'return false;',
    exact: true,
    mutators: ['BooleanLiteral'],
    reason:
      'sorting keys without a surrogate by code point, as the mutant does, gives the order code units give (they agree there)',
  },
  ...sameReason(
    {
      pairs: ['canonical-json'],
      file: CANONICAL_JSON,
      mutators: [...CONDITION_MUTATORS, 'ArithmeticOperator', 'UnaryOperator', 'StringLiteral'],
      reason:
        'the fast path of number formatting giving up more often: the exact path after it writes the same text (a scaled value near a midpoint, an exponent outside the exact powers of ten, a shift of 0, an exponent of 0 in the exponential layout, which only exponents below -4 or from 6 reach)',
    },
    [
      'if (exponent < MIN_SCALED_EXPONENT || exponent > MAX_SCALED_EXPONENT) return undefined;',
      'if (fraction > 0.5 - MIDPOINT_GUARD && fraction < 0.5 + MIDPOINT_GUARD) return undefined;',
      'let digits = fraction > 0.5 ? whole + 1 : whole;',
      'return shift >= 0 ? magnitude * POWERS_OF_TEN[shift]! : magnitude / POWERS_OF_TEN[-shift]!;',
      'const absolute = exponent < 0 ? -exponent : exponent;',
      "return `${digits / 1e5}e${exponent < 0 ? '-' : '+'}${absolute < 10 ? '0' : ''}${absolute}`;",
    ],
  ),
  ...sameReason(
    {
      pairs: ['canonical-json'],
      file: CANONICAL_JSON,
      mutators: [...CONDITION_MUTATORS, 'StringLiteral'],
      reason:
        'the exact (BigInt) path taken for more numbers than the ties it is there for: it rounds every multiple of 2^-10 exactly, at any magnitude, and its digit string is always longer than six',
    },
    [
      'if (magnitude < TIE_LIMIT && Number.isInteger(magnitude * TIE_SCALE) && isSeventhDigitFive(magnitude)) {',
      'return magnitude.toExponential(SIGNIFICANT_DIGITS).charCodeAt(7) === 0x35;',
      "let head = Number(digits.slice(0, SIGNIFICANT_DIGITS).padEnd(SIGNIFICANT_DIGITS, '0'));",
    ],
  ),
  {
    pairs: ['canonical-json'],
    file: CANONICAL_JSON,
    code: 'const aboveHalf = first > 0x35 || (first === 0x35 && /[1-9]/.test(rest.slice(1)));',
    exact: true,
    mutators: ['ConditionalExpression'],
    column: 21,
    replacement: 'false',
    reason:
      'the exact path runs only when the seventh digit rounds to 5, so the exact digit after the six is 5, or 4 that carried: never above 5 (the cases one binary step above a tie check the rest of the test)',
  },
  {
    pairs: ['canonical-json'],
    file: CANONICAL_JSON,
    code: 'if (out.writeQuotedPlain(text)) return;',
    exact: true,
    mutators: ['ConditionalExpression'],
    reason: 'skipping the fast path of strings: JSON.stringify after it writes the same bytes',
  },
  ...sameReason(
    {
      pairs: ['canonical-json'],
      file: CANONICAL_JSON,
      mutators: [...CONDITION_MUTATORS, 'UnaryOperator', 'UpdateOperator'],
      reason:
        "the fast path of number formatting giving up (an empty body, a narrower range of exponents) or skipping its correction of log10's exponent: the exact path writes the same text, and log10 is off only within an ulp of a power of ten, where six and five digits round to that same power",
    },
    [
      'const MIN_SCALED_EXPONENT = -16;',
      'function formatScaled(magnitude: number): string | undefined {',
      'if (scaled < 1e5) scaled = scaleToSixDigits(magnitude, --exponent);',
      'else if (scaled >= 1e6) scaled = scaleToSixDigits(magnitude, ++exponent);',
    ],
  ),
  {
    pairs: ['canonical-json'],
    file: CANONICAL_JSON,
    code: 'const negative = x < 0;',
    exact: true,
    mutators: ['EqualityOperator'],
    reason:
      'formatGeneral never sees 0: integral numbers below 1e16, zeros included, are written as integers',
  },
  ...sameReason(
    {
      pairs: ['canonical-json'],
      file: CANONICAL_JSON,
      mutators: [...CONDITION_MUTATORS, 'AssignmentOperator'],
      reason:
        'the layout of six digits: they are never all zeros (so stripping zeros stops at the first digit however the loop is bounded, and slicing the whole string is the string), an exponential layout never has exponent 0, and a carry to 10^6 or 10^7 lays out alike once trailing zeros go',
    },
    [
      'while (end > 1 && sixDigits.charCodeAt(end - 1) === 0x30) end--;',
      'const digits = end === sixDigits.length ? sixDigits : sixDigits.slice(0, end);',
      "return `${mantissa}e${exponent < 0 ? '-' : '+'}${absolute < 10 ? '0' : ''}${absolute}`;",
      'head /= 10;',
    ],
  ),
  ...sameReason(
    {
      pairs: ['canonical-json'],
      file: CANONICAL_JSON,
      mutators: ['BlockStatement'],
      reason:
        "bookkeeping of the walk and of the writer's scratch buffer (entering a container for the depth bound and error paths, giving the buffer back): what the SDK does besides the bytes, which the suite checks",
    },
    ['enter(container: object): number {', 'release(): void {'],
  ),
  ...sameReason(
    {
      pairs: ['canonical-json'],
      file: CANONICAL_JSON,
      mutators: [...CONDITION_MUTATORS, 'ArithmeticOperator'],
      reason:
        "growing the writer's buffer: its capacity at any moment depends on every call before (the scratch buffer is kept between calls), so no fixture case can aim a write at the boundary; utf8-writer.test.ts writes random pieces across many sizes and compares the bytes with TextEncoder",
    },
    [
      'if (this.length === this.buffer.length) this.grow(1);',
      'writeQuotedPlain(text: string): boolean {',
      'if (this.length + text.length * MAX_BYTES_PER_UNIT + 2 > this.buffer.length) {',
      'this.grow(text.length * MAX_BYTES_PER_UNIT + 2);',
      'if (at + count * MAX_BYTES_PER_UNIT > this.buffer.length)',
      'this.grow(at - this.length + count * MAX_BYTES_PER_UNIT);',
      'let capacity = this.buffer.length * 2;',
      'while (capacity < this.length + extra) capacity *= 2;',
    ],
  ),
  // hearthnet.capability-schemas × the catalogue: the JSON Schema compiler
  ...sameReason(
    {
      pairs: ['capability-schemas'],
      file: VALIDATORS,
      reason:
        'the issues a refused value carries (their JSON paths and messages): the suite asks whether a value is accepted, and CapabilityValidationVerdict has no issues',
    },
    [
      'issues: result.error.issues.map((issue) => ({',
      "path: formatJsonPath(issue.path.filter((segment) => typeof segment !== 'symbol')),",
    ],
  ),
  ...sameReason(
    {
      pairs: ['capability-schemas'],
      file: VALIDATORS,
      mutators: [
        ...CONDITION_MUTATORS,
        'StringLiteral',
        'ObjectLiteral',
        'MethodExpression',
        'BooleanLiteral',
        'ArrayDeclaration',
      ],
      reason:
        "the compiler's refusals of a malformed JSON Schema (and the keywords no catalogue schema uses): the catalogue's schemas are well-formed, and the suite checks values against them; a custom descriptor's schema reaches these through CapabilityRegistry.register, which compile-schema.test.ts drives",
    },
    [
      "if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {",
      "throw invalidSchema(at, 'a schema must be an object');",
      'if (!knownKeywords.has(keyword)) throw invalidSchema(at, `unsupported keyword "${keyword}"`);',
      'if (!Array.isArray(schema.enum) || schema.enum.length === 0) {',
      "throw invalidSchema(`${at}/enum`, 'enum must be a non-empty array');",
      'if (!Array.isArray(schema.anyOf) || schema.anyOf.length === 0) {',
      "throw invalidSchema(`${at}/anyOf`, 'anyOf must be a non-empty array');",
      'if (!Array.isArray(types) || types.length === 0 || !types.every((t) => typeNames.has(t))) {',
      "throw invalidSchema(`${at}/type`, 'type must be a type name or a non-empty array of them');",
      "if (!Array.isArray(required) || !required.every((name) => typeof name === 'string')) {",
      "throw invalidSchema(`${at}/required`, 'required must be an array of property names');",
      'if (!(name in shape)) shape[name] = z.json();',
      'if (extra === undefined || extra === true) return z.looseObject(shape);',
      "if (first === undefined) throw invalidSchema('#', 'empty union');",
      'if (other !== keyword && !annotationKeywords.has(other)) {',
      'throw invalidSchema(at, `"${other}" next to "${keyword}" is not supported`);',
      "const annotationKeywords: ReadonlySet<string> = new Set(['description', 'default']);",
      "if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;",
      "if (typeof value === 'number' && Number.isFinite(value)) return value;",
      "throw invalidSchema(at, 'only strings, finite numbers, booleans and null are supported here');",
      'if (!Number.isSafeInteger(value) || (value as number) < 0) {',
      "throw invalidSchema(at, 'must be a non-negative integer');",
      "if (typeof value !== 'number' || !Number.isFinite(value)) throw invalidSchema(at, 'must be a number');",
      "if (typeof pattern !== 'string') throw invalidSchema(at, 'must be a string');",
      'throw invalidSchema(at, `not a valid regular expression: ${pattern}`, { cause });',
      "return new HearthNetLocalError('invalid_schema', `invalid schema at ${pointer}: ${reason}`, {",
      'for (const keyword of Object.keys(schema)) {',
      'function onlyAnnotationsBeside(schema: JsonSchema, keyword: string, at: string): void {',
      'for (const other of Object.keys(schema)) {',
      'function invalidSchema(pointer: string, reason: string, options?: ErrorOptions): HearthNetLocalError {',
    ],
  ),
  {
    pairs: ['capability-schemas'],
    file: VALIDATORS,
    span: { from: 'function regexOf(', until: 'function codePointLength(' },
    code: '} catch (cause) {',
    exact: true,
    mutators: ['BlockStatement'],
    reason:
      "the compiler's refusal of a pattern that is no regular expression: the catalogue's patterns are well-formed, and a custom descriptor's reaches it through CapabilityRegistry.register, which compile-schema.test.ts drives",
  },
  ...sameReason(
    {
      pairs: ['capability-schemas'],
      file: VALIDATORS,
      mutators: [...CONDITION_MUTATORS, 'MethodExpression'],
      reason:
        'schema shapes no catalogue schema has (one with no type and no const, enum or anyOf; an array with no items; a required property it does not declare): the suite checks values against the catalogue, and compile-schema.test.ts the compiler on such schemas',
    },
    [
      'if (schema.type === undefined) return z.json();',
      'let result = z.array(schema.items === undefined ? z.json() : compileAt(schema.items, `${at}/items`));',
      'for (const name of required) {',
    ],
  ),
  {
    pairs: ['capability-schemas'],
    file: VALIDATORS,
    code: "return new RegExp(pattern, 'u');",
    exact: true,
    mutators: ['StringLiteral'],
    reason:
      "the catalogue's patterns are ASCII classes, literals and anchors, which match the same strings with and without the u flag",
  },
  {
    pairs: ['capability-schemas'],
    file: 'packages/hearthnet/src/capabilities/json-schema.ts',
    code: "'description',",
    exact: true,
    mutators: ['StringLiteral'],
    reason:
      'no catalogue schema has a description, so leaving it out of the supported keywords refuses none of them; compile-schema.test.ts compiles annotated schemas',
  },
  {
    pairs: ['capability-schemas'],
    file: VALIDATORS,
    code: 'if (cached !== undefined) return cached;',
    exact: true,
    mutators: ['ConditionalExpression'],
    reason: 'a cache: compiling the same descriptor again gives validators that answer the same',
  },
  {
    pairs: ['capability-schemas'],
    file: VALIDATORS,
    span: { from: 'const check = (value: unknown): ValidationResult<unknown> => {', until: '    schema,' },
    code: 'return {',
    exact: true,
    mutators: ['ObjectLiteral'],
    column: 12,
    reason:
      'the result of a refused value: an empty one is not ok either, and its issues are not part of CapabilityValidationVerdict',
  },
  {
    pairs: ['capability-schemas'],
    file: VALIDATORS,
    span: { from: '    parse(value) {', until: 'const knownKeywords' },
    reason:
      "parse and its schema_validation error, the throwing form of check: the suite asks check whether a value is accepted, and a node answers the refusal as bad_request (the node suite's)",
  },
  {
    pairs: ['capability-schemas'],
    file: CAPABILITY_NAME,
    span: {
      from: 'export function assertRegistrableCapabilityName(',
      until: 'export interface CapabilityVersion {',
    },
    mutators: ['StringLiteral'],
    reason:
      "the registrable rule's refusals, which CapabilityRegistry applies and satisfies does not reach (capability-name.test.ts runs the fixture's parse cases against both)",
  },
  ...sameReason(
    {
      pairs: ['capability-schemas'],
      file: VALIDATORS,
      mutators: ['StringLiteral'],
      reason:
        'where a refused value or schema is pointed at and what its issue says (JSON paths, JSON Pointers, messages), which the contract leaves to the implementation: the suite checks whether a value is accepted',
    },
    [
      "return compileAt(schema, '#');",
      'return z.literal(literalOf(schema.const, `${at}/const`));',
      'return z.literal(schema.enum.map((value, i) => literalOf(value, `${at}/enum/${i}`)));',
      'return unionOf(schema.anyOf.map((branch, i) => compileAt(branch, `${at}/anyOf/${i}`)));',
      'const capability = `${descriptor.name}@${descriptor.version}`;',
      "request: validatorOf(descriptor.requestSchema, capability, 'request'),",
      ": validatorOf(descriptor.responseSchema, capability, 'response'),",
      "descriptor.streamSchema === null ? null : validatorOf(descriptor.streamSchema, capability, 'stream'),",
      'const min = count(minLength, `${at}/minLength`);',
      'result = result.refine((s) => codePointLength(s) >= min, `must be at least ${min} characters long`);',
      'const max = count(maxLength, `${at}/maxLength`);',
      'result = result.refine((s) => codePointLength(s) <= max, `must be at most ${max} characters long`);',
      'result = result.regex(regexOf(pattern, `${at}/pattern`));',
      'result = result.min(finite(schema.minimum, `${at}/minimum`));',
      'result = result.max(finite(schema.maximum, `${at}/maximum`));',
      'let result = z.array(schema.items === undefined ? z.json() : compileAt(schema.items, `${at}/items`));',
      'result = result.min(count(schema.minItems, `${at}/minItems`));',
      'result = result.max(count(schema.maxItems, `${at}/maxItems`));',
      'const contains = compileAt(schema.contains, `${at}/contains`);',
      '\'must contain at least one item matching "contains"\',',
      'const compiled = compileAt(property, `${at}/properties/${name}`);',
      'return z.object(shape).catchall(compileAt(extra, `${at}/additionalProperties`));',
    ],
  ),
  // hearthnet.signatures × Ed25519 payload signatures and node ids
  {
    pairs: ['signatures'],
    file: PAYLOAD_SIGNATURE,
    code: "if (key === '__proto__') {",
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason:
      'defining every key as an enumerable, writable, configurable data property is what assignment does for every key but __proto__',
  },
  ...sameReason(
    {
      pairs: ['signatures'],
      file: PAYLOAD_SIGNATURE,
      mutators: ['StringLiteral'],
      reason:
        'the detail text of a failed verification, which the contract leaves to the implementation (the suite checks valid and the reason)',
    },
    [
      "return failure('not_an_object', 'a signed payload must be a JSON object');",
      '`a public key has ${KEY_BYTES} bytes, got ${publicKeyOrNodeId.length}`,',
      "return failure('missing_signature', 'the payload has no signature field');",
      "return failure('malformed_signature', `the signature is a ${typeof field}`);",
      "? failure('unsupported_algorithm', `signature algorithm ${JSON.stringify(field.split(':')[0])}`)",
      ": failure('malformed_signature', \"the signature does not start with 'ed25519:'\");",
      '`a signature has ${SIGNATURE_BYTES} bytes, got ${signature.length}`,',
      "return failure('signature_mismatch', 'the signature does not match the payload and key', lossyNumbers);",
    ],
  ),
  ...sameReason(
    {
      pairs: ['signatures'],
      file: PAYLOAD_SIGNATURE,
      mutators: [...CONDITION_MUTATORS, 'ObjectLiteral', 'BooleanLiteral'],
      reason:
        "lossyNumbers is a diagnostic the verdict may leave out (the suite checks it when present), and which Ed25519 backend verifies is the SDK's choice: both backends give the same verdicts, and the suite runs on each",
    },
    [
      'return lossyNumbers.length > 0 ? { valid: true, lossyNumbers } : { valid: true };',
      'return lossyNumbers.length > 0',
      'const verifyOptions = options.backend === undefined ? {} : { backend: options.backend };',
    ],
  ),
  ...sameReason(
    {
      pairs: ['signatures'],
      file: PAYLOAD_SIGNATURE,
      mutators: [...CONDITION_MUTATORS, 'StringLiteral', 'ObjectLiteral'],
      reason:
        "the SDK's guards for JavaScript callers of signPayload (a payload that is not an object, a key that is neither a KeyPair nor a seed): the suite signs objects with 32-byte seeds",
    },
    [
      'if (!isJsonObject(payload))',
      "throw new HearthNetLocalError('invalid_payload', 'a signed payload must be a JSON object');",
      'if (key instanceof Uint8Array) {',
      "assertKeyBytes(key, 'a signing seed');",
      "if (typeof key !== 'object' || key === null)",
      "throw new HearthNetLocalError('invalid_key', 'a signing key must be a KeyPair or a seed');",
      'assertKeyBytes(key.secretKey, "a key pair\'s secretKey");',
    ],
  ),
  ...sameReason(
    {
      pairs: ['signatures'],
      file: KEY_PAIR,
      mutators: [...CONDITION_MUTATORS, 'StringLiteral', 'ObjectLiteral', 'MethodExpression'],
      reason:
        'what a refused node id says besides its code (the message, the quoted id, details.reason), and the guard for a non-string id: the suite passes strings and checks invalid_node_id',
    },
    [
      "assertKeyBytes(publicKey, 'a public key');",
      "if (typeof nodeId !== 'string') {",
      "throw new HearthNetLocalError('invalid_node_id', `a node id must be a string, got ${typeof nodeId}`, {",
      "details: { reason: 'not_a_string', value: nodeId },",
      "`node id ${quote(nodeId)} does not start with 'ed25519:'`,",
      '`${quote(nodeId)} is a short node id; it holds no full key`,',
      '`node id ${quote(nodeId)} is not base64url`',
      '`node id ${quote(nodeId)} holds ${publicKey.length} bytes, not ${KEY_BYTES}`,',
      'function quote(text: string): string {',
      'return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);',
    ],
  ),
  ...sameReason(
    {
      pairs: ['signatures'],
      file: ED25519_FILE,
      mutators: ['LogicalOperator', 'OptionalChaining', 'StringLiteral'],
      reason: WHICH_BACKEND,
    },
    [
      'return nodeCryptoBackend() ?? nobleBackend;',
      'return (options.backend ?? defaultEd25519Backend()).sign(message, seed);',
      'return (options.backend ?? defaultEd25519Backend()).verify(signature, message, publicKey) === true;',
      "return globalThis.process?.getBuiltinModule?.('node:crypto');",
    ],
  ),
  {
    pairs: ['signatures'],
    file: ED25519_FILE,
    code: "'0000000000000000000000000000000000000000000000000000000000000000', // y = 0",
    exact: true,
    mutators: ['StringLiteral'],
    reason:
      'an empty blocklist entry compares as all zeros (its missing bytes read as undefined, which XOR takes as 0): it still refuses the y = 0 encoding it replaced (verify-rule-small-order-key-y-0)',
  },
  ...sameReason(
    {
      pairs: ['signatures'],
      file: ED25519_FILE,
      mutators: ['StringLiteral'],
      reason:
        'the two non-canonical encodings of the blocklist (y = p, y = p + 1): the canonical-A test refuses them too (node:crypto would accept them, which verify-rule-small-order-key-p-non-canonical and -p-plus-1-non-canonical check)',
    },
    [
      "'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // y = p, non-canonical 0",
      "'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // y = p + 1, non-canonical 1",
    ],
  ),
  {
    pairs: ['signatures'],
    file: ED25519_FILE,
    span: { from: 'export function isCanonicalScalar(', until: '/**' },
    reason:
      'the pre-check S < L, which both backends make again (the noble backend in verifyCofactorless, node:crypto in OpenSSL): removing one of the two leaves the other (verify-rule-non-canonical-s checks the rule)',
  },
  ...sameReason(
    {
      pairs: ['signatures'],
      file: ED25519_FILE,
      mutators: [...CONDITION_MUTATORS, 'BooleanLiteral'],
      reason:
        'the S < L test of the noble backend, which the pre-check makes before it (and node:crypto again): removing one of the two leaves the other',
    },
    ['if (s >= GROUP_ORDER) return false;', 'if (!isCanonicalScalar(signature, KEY_BYTES)) return false;'],
  ),
  {
    pairs: ['signatures'],
    file: ED25519_FILE,
    span: { from: 'export function isCanonicalPointEncoding(', until: '/**' },
    reason:
      'the canonical-encoding test of R and A: a non-canonical R never equals the canonical encoding the equation is compared with, and no one can sign for a non-canonical A outside the blocklist (its discrete log is unknown); the blocklist refuses the two small-order ones',
  },
  ...sameReason(
    {
      pairs: ['signatures'],
      file: ED25519_FILE,
      mutators: [...CONDITION_MUTATORS, 'BooleanLiteral'],
      reason:
        'the canonical-encoding test of R and A: a non-canonical R never equals the canonical encoding the equation is compared with, and no one can sign for a non-canonical A outside the blocklist (its discrete log is unknown); the blocklist refuses the two small-order ones',
    },
    [
      'if (!isCanonicalPointEncoding(signature, 0)) return false;',
      'if (!isCanonicalPointEncoding(publicKey, 0)) return false;',
    ],
  ),
  {
    pairs: ['signatures'],
    file: ED25519_FILE,
    span: { from: 'export function assertKeyBytes(', until: '/**' },
    reason:
      "the SDK's guard of key arguments for JavaScript callers: the suite signs with 32-byte seeds, and a verified key's length is checked before it (the payload's public key, the node id's bytes)",
  },
  ...sameReason(
    {
      pairs: ['signatures'],
      file: ED25519_FILE,
      reason:
        "the SDK's guards for JavaScript callers of ed25519Verify (arguments that are no Uint8Array, a backend that throws on a key it cannot import): the payload layer hands it byte arrays, and the pre-checks refuse every key a backend could throw on",
    },
    [
      '!(signature instanceof Uint8Array && message instanceof Uint8Array && publicKey instanceof Uint8Array)',
    ],
  ),
  {
    pairs: ['signatures'],
    file: ED25519_FILE,
    span: { from: 'export function ed25519Verify(', until: '/**' },
    code: '} catch {',
    exact: true,
    reason:
      'a backend that throws: the pre-checks refuse every key node:crypto could not import, and the noble backend catches its own decoding errors',
  },
  {
    pairs: ['signatures'],
    file: ED25519_FILE,
    span: { from: 'export function ed25519Verify(', until: '/**' },
    code: ') {',
    exact: true,
    mutators: ['BlockStatement'],
    reason:
      "the SDK's guard for JavaScript callers of ed25519Verify (arguments that are no Uint8Array): the payload layer hands it byte arrays",
  },

  {
    pairs: ['signatures'],
    file: ED25519_FILE,
    span: { from: 'export function ed25519Verify(', until: '/**' },
    code: 'return false;',
    exact: true,
    mutators: ['BooleanLiteral'],
    reason:
      "the SDK's guards for JavaScript callers of ed25519Verify and a backend that throws: the payload layer hands it byte arrays, and the pre-checks refuse every key a backend could throw on",
  },
  ...sameReason(
    {
      pairs: ['signatures'],
      file: ED25519_FILE,
      mutators: ['ConditionalExpression', 'LogicalOperator', 'EqualityOperator', 'BooleanLiteral'],
      reason:
        'a length test made again: the payload layer checks 64 signature bytes and 32 key bytes first, and both encodings compared are 32 bytes (a read past the end gives undefined, which XOR takes as 0)',
    },
    [
      'if (a.length !== b.length) return false;',
      'for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;',
      'if (signature.length !== 64 || publicKey.length !== 32) return false;',
      'if (signature.length !== SIGNATURE_BYTES || publicKey.length !== KEY_BYTES) return false;',
    ],
  ),
  {
    pairs: ['signatures'],
    file: ED25519_FILE,
    span: { from: 'function verifyCofactorless(', until: '/**' },
    code: '} catch {',
    exact: true,
    mutators: ['BlockStatement'],
    reason:
      'an empty catch leaves the key undecoded, and the equation then throws, which ed25519Verify turns into false as this catch does (verify-rule-key-off-curve checks the false)',
  },
  {
    pairs: ['signatures'],
    file: ED25519_FILE,
    code: 'const expectedR = ed.Point.BASE.multiply(s, false).subtract(a.multiply(k, false));',
    exact: true,
    mutators: ['BooleanLiteral'],
    reason: "noble's multiply flag chooses a code path (checked or unchecked scalar), not the product",
  },
  {
    pairs: ['signatures'],
    file: ED25519_FILE,
    span: {
      from: '  publicKeyFromSeed(seed: Uint8Array): Uint8Array {',
      until: '  sign(message: Uint8Array, seed: Uint8Array): Uint8Array {',
    },
    mutators: ['BlockStatement'],
    reason:
      "the noble backend's public key of a seed, which the suite's cases never ask for (they give public keys or node ids)",
  },
  {
    pairs: ['signatures'],
    file: ED25519_FILE,
    code: "assertBytes(message, 'ed25519Sign');",
    exact: true,
    mutators: ['StringLiteral'],
    reason: WORDING,
  },
  ...sameReason(
    {
      pairs: ['signatures'],
      file: PAYLOAD_SIGNATURE,
      mutators: ['BooleanLiteral'],
      reason:
        'the copy without the signature is only read (canonicalised), so whether its own __proto__ property is writable or configurable changes nothing',
    },
    ['writable: true,', 'configurable: true,'],
  ),
  {
    pairs: ['signatures'],
    file: ED25519_FILE,
    code: 'for (let i = 0; i < 31 && difference === 0; i++) difference |= bytes[offset + i]! ^ encoding[i]!;',
    exact: true,
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason:
      'comparing the remaining bytes after a difference is found: the difference only grows, so the answer is the same',
  },
  ...sameReason(
    {
      pairs: ['signatures'],
      file: PAYLOAD_SIGNATURE,
      mutators: ['ConditionalExpression', 'BlockStatement'],
      reason:
        'refusing a signature that is no string or no base64url by throwing instead of answering malformed_signature: the suite counts a throw as a refusal, as the Python reference raises',
    },
    [
      "if (typeof field !== 'string') return failure('malformed_signature', `the signature is a ${typeof field}`);",
    ],
  ),
  {
    pairs: ['signatures'],
    file: PAYLOAD_SIGNATURE,
    span: { from: '  let signature: Uint8Array;', until: '  if (signature.length !== SIGNATURE_BYTES) {' },
    code: '} catch (error) {',
    exact: true,
    mutators: ['BlockStatement'],
    reason:
      'refusing a signature that is no base64url by throwing instead of answering malformed_signature: the suite counts a throw as a refusal, as the Python reference raises',
  },
  {
    pairs: ['signatures'],
    file: ED25519_FILE,
    span: { from: 'export function nodeCryptoBackend()', until: '/**' },
    reason: WHICH_BACKEND,
  },
  {
    pairs: ['signatures'],
    file: ED25519_FILE,
    span: { from: 'export class LruCache<K, V>' },
    reason: KEY_CACHES,
  },
  ...sameReason({ pairs: ['signatures'], file: ED25519_FILE, reason: KEY_CACHES }, [
    'if (cached?.seed.every((byte, i) => byte === seed[i])) return cached.key;',
    'privateKeys.set(seed, { seed: new Uint8Array(seed), key });',
    'if (key === undefined) {',
  ]),
  {
    pairs: ['signatures'],
    file: ED25519_FILE,
    code: 'if (ed.hashes.sha512 === undefined) ed.hashes.sha512 = (message) => sha512(message);',
    exact: true,
    reason:
      "installing noble's SHA-512 once: installing it again installs the same function (and an application's own is a SHA-512 too)",
  },
  ...sameReason({ pairs: ['signatures'], file: ED25519_FILE, mutators: ['StringLiteral'], reason: WORDING }, [
    "assertKeyBytes(seed, 'an Ed25519 seed');",
  ]),
  // hearthnet.event-store × InMemoryEventStore
  {
    pairs: ['event-store'],
    file: EVENT_STORE,
    code: 'if (compareEvents(events[middle]!, event) < 0) low = middle + 1;',
    mutators: ['EqualityOperator'],
    reason:
      'compareEvents is 0 only for the same (lamport, event_id), and an event_id already stored is never inserted again',
  },
  {
    pairs: ['event-store'],
    file: EVENT_STORE,
    code: 'if (a.lamport !== b.lamport) return a.lamport < b.lamport ? -1 : 1;',
    mutators: ['EqualityOperator'],
    replacement: '<=',
    reason: 'the comparison runs only when the two lamports differ, where < and <= agree',
  },
  {
    pairs: ['event-store'],
    file: EVENT_STORE,
    code: 'if (a.event_id === b.event_id) return 0;',
    mutators: ['ConditionalExpression'],
    reason:
      'the store never compares an event with one of the same event_id (a duplicate returns before insertion)',
  },
  {
    pairs: ['event-store'],
    file: EVENT_STORE,
    code: 'return a.event_id < b.event_id ? -1 : 1;',
    mutators: ['EqualityOperator'],
    reason: 'reached only for two different event_ids, where < and <= agree',
  },
  {
    pairs: ['event-store'],
    file: EVENT_STORE,
    code: "if (key === '__proto__') {",
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason:
      'every key defined as the "__proto__" key is: an own, enumerable, writable data property, which is what assigning any other key makes',
  },
  {
    pairs: ['event-store'],
    file: EVENT_STORE,
    code: 'Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });',
    mutators: ['BooleanLiteral'],
    reason:
      'writable and configurable of a property of an object frozen on the next line, which makes both false anyway',
  },
  {
    pairs: ['event-store'],
    file: EVENT_STORE,
    code: 'if (!sealed) {',
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason:
      'checking and copying an event createEvent made again: it was checked before it was signed and is frozen, so nothing is refused and the copy holds the same',
  },
  {
    pairs: ['event-store'],
    file: EVENT_STORE,
    code: 'if (existing !== event && canonicalJsonString(existing) !== canonicalJsonString(event))',
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason:
      'the shortcut for the very object stored: its canonical JSON is its own, so comparing it says duplicate as the shortcut does',
  },
  {
    pairs: ['event-store'],
    file: EVENT_STORE,
    code: "assertLamport(counter, 'counter');",
    mutators: ['StringLiteral'],
    reason:
      "the store's own counter is always a Lamport value: this refusal cannot be reached through the store",
  },
  {
    pairs: ['event-store'],
    file: EVENT_STORE,
    code: "assertLamport(received, 'received lamport');",
    mutators: ['StringLiteral'],
    reason:
      'the event was validated first (its lamport is a non-negative safe integer): this refusal cannot be reached through the store',
  },
  {
    pairs: ['event-store'],
    file: EVENT_STORE,
    code: "if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {",
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason:
      'dropping the typeof test changes nothing: Number.isSafeInteger already refuses every non-number (the whole condition made false is killed by list-refusals)',
  },
  // relay-runtime.bus × InMemoryRelayBus
  {
    pairs: ['relay-bus'],
    file: BUS,
    code: 'const targets = [...(this.#tenants.get(checkedTenant) ?? [])];',
    mutators: ['ArrayDeclaration'],
    reason:
      'a placeholder target for a tenant nobody subscribed to has no `active` flag and is skipped: publish still resolves 0',
  },
  {
    pairs: ['relay-bus'],
    file: BUS,
    code: 'if (!registration.active) continue;',
    mutators: ['ConditionalExpression'],
    reason:
      'targets are taken when publish is called; an inactive one is only met for a message published before its unsubscribe or close resolved, which the contract lets arrive',
  },
  {
    pairs: ['relay-bus'],
    file: BUS,
    code: 'registration.active = false',
    mutators: ['BooleanLiteral', 'BlockStatement'],
    reason:
      'the flag only stops messages published before unsubscribe or close resolved, which the contract lets arrive; later publishes no longer find the registration',
  },
  {
    pairs: ['relay-bus'],
    file: BUS,
    code: 'for (const registrations of this.#tenants.values()) {',
    mutators: ['BlockStatement'],
    reason:
      'close also clears the registrations; the flags only stop messages published before close resolved, which the contract lets arrive',
  },
  {
    pairs: ['relay-bus'],
    file: BUS,
    code: 'current?.',
    mutators: ['OptionalChaining'],
    reason:
      "the tenant's set is gone only after its last unsubscribe or close, and both leave the registration inactive, so unsubscribe returns before reading it",
  },
  {
    pairs: ['relay-bus'],
    file: BUS,
    code: 'if (!registration.active) return;',
    mutators: ['ConditionalExpression'],
    reason: 'a second unsubscribe deletes a registration that is no longer in the set: nothing changes',
  },
  {
    pairs: ['relay-bus'],
    file: BUS,
    code: 'if (current?.size === 0) this.#tenants.delete(checkedTenant);',
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason:
      'keeping an empty set for a tenant nobody subscribes to any more changes no answer (publish counts 0 either way); only memory, which the interface does not show',
  },
  {
    pairs: ['relay-bus'],
    file: BUS,
    code: 'this.#onListenerError = options.onListenerError ?? logRelayBusListenerError;',
    mutators: ['LogicalOperator'],
    reason:
      "the in-memory bus's own option for reporting a listener's throw, not part of the RelayBus interface (the suite only checks that delivery goes on)",
  },
  {
    pairs: ['relay-bus'],
    file: BUS,
    code: 'constructor(options: InMemoryRelayBusOptions = {}) {',
    mutators: ['BlockStatement'],
    reason:
      "the constructor only takes the in-memory bus's own onListenerError option, not part of the RelayBus interface",
  },
  {
    pairs: ['relay-bus'],
    file: BUS,
    code: 'export const logRelayBusListenerError: RelayBusErrorHandler = (error, tenant) => {',
    mutators: ['BlockStatement'],
    reason: "the default report of a listener's throw (a log line), not part of the RelayBus interface",
  },
  {
    pairs: ['relay-bus'],
    file: BUS,
    code: 'console.error(`relay bus listener for tenant',
    mutators: ['StringLiteral'],
    reason: "the default report of a listener's throw (a log line), not part of the RelayBus interface",
  },
  {
    pairs: ['relay-bus'],
    file: BUS,
    code: '} catch (error) {',
    mutators: ['BlockStatement'],
    reason:
      "emptying the catch only stops the report of a listener's throw to onListenerError, the in-memory bus's own option; delivery goes on either way",
  },
  {
    pairs: ['relay-bus'],
    file: BUS,
    code: '    try {',
    mutators: ['BlockStatement'],
    reason:
      "emptying it only stops the report of a listener's throw to onListenerError, the in-memory bus's own option; delivery goes on either way",
  },
  // relay-runtime.vault × InMemoryCapabilityVault
  {
    pairs: ['capability-vault'],
    file: VAULT,
    code: "if (!(typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0)) {",
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason: 'dropping the typeof test changes nothing: Number.isFinite already refuses every non-number',
  },
  {
    pairs: ['capability-vault'],
    file: VAULT,
    code: 'must be a positive finite number of milliseconds, got',
    mutators: ['StringLiteral', 'ConditionalExpression', 'EqualityOperator'],
    reason: WORDING,
  },
  {
    pairs: ['capability-vault'],
    file: VAULT,
    code: 'if (holders.size === 0) this.#bindings.delete(key);',
    mutators: ['ConditionalExpression'],
    reason:
      'an empty holder map left behind reads as absent anyway (#liveHolders drops it on the next read); only memory, which the interface does not show',
  },
  {
    pairs: ['capability-vault'],
    file: VAULT,
    code: "if (typeof now !== 'function') {",
    mutators: ['ConditionalExpression', 'BlockStatement', 'EqualityOperator'],
    reason: "the check of the in-memory vault's own clock option, not part of the CapabilityVault interface",
  },
  {
    pairs: ['capability-vault'],
    file: VAULT,
    code: "throw new RelayError('invalid_vault_argument', 'options.now must be a function', {",
    mutators: ['StringLiteral', 'ObjectLiteral'],
    reason:
      "the refusal of the in-memory vault's own clock option, not part of the CapabilityVault interface",
  },
  {
    pairs: ['capability-vault'],
    file: VAULT,
    code: "path: 'options.now',",
    mutators: ['StringLiteral'],
    reason:
      "the refusal of the in-memory vault's own clock option, not part of the CapabilityVault interface",
  },
  {
    pairs: ['capability-vault'],
    file: VAULT,
    code: '#sweepNow(now: number): void {',
    mutators: ['BlockStatement'],
    reason:
      'the sweep only frees expired bindings nobody reads again; every read drops expired ones itself, so no answer changes (only memory, which the interface does not show)',
  },
  {
    pairs: ['capability-vault'],
    file: VAULT,
    code: 'this.#bindsSinceSweep += 1;',
    mutators: ['AssignmentOperator'],
    reason:
      'how often the sweep runs changes no answer (reads drop expired bindings themselves); only memory',
  },
  {
    pairs: ['capability-vault'],
    file: VAULT,
    code: 'if (this.#bindsSinceSweep < Math.max(MIN_BINDS_BETWEEN_SWEEPS, this.#bindings.size)) return;',
    mutators: ['ConditionalExpression', 'EqualityOperator', 'MethodExpression'],
    reason:
      'how often the sweep runs changes no answer (reads drop expired bindings themselves); only memory',
  },
  {
    pairs: ['capability-vault'],
    file: VAULT,
    code: 'for (const [key, holders] of this.#bindings) {',
    mutators: ['BlockStatement'],
    reason: 'the sweep changes no answer (reads drop expired bindings themselves); only memory',
  },
  {
    pairs: ['capability-vault'],
    file: VAULT,
    code: 'if (holders.size === 0) this.#bindings.delete(key);',
    mutators: ['EqualityOperator'],
    reason: 'the sweep changes no answer (reads drop expired bindings themselves); only memory',
  },
  {
    pairs: ['capability-vault'],
    file: VAULT,
    code: 'if (now >= stored.expiresAt) holders.delete(tenant);',
    mutators: ['EqualityOperator'],
    replacement: '>',
    reason:
      'the contract does not fix the instant a TTL ends to the millisecond (expired at ttl_ms or one millisecond after); the suite lets time pass until the binding is gone',
  },
  // relay-runtime.buffer × InMemoryInboundBuffer
  {
    pairs: ['inbound-buffer'],
    file: BUFFER,
    code: "if (typeof value !== 'string') return value === null ? 'null' : typeof value;",
    mutators: ['ConditionalExpression', 'EqualityOperator', 'StringLiteral', 'BlockStatement'],
    reason: WORDING,
  },
  {
    pairs: ['inbound-buffer'],
    file: BUFFER,
    code: "return value === '' ? 'an empty string' : 'a string with a lone surrogate';",
    mutators: ['ConditionalExpression', 'EqualityOperator', 'StringLiteral'],
    reason: WORDING,
  },
  {
    pairs: ['inbound-buffer'],
    file: BUFFER,
    code: 'export function describeKeyString(value: unknown): string {',
    mutators: ['BlockStatement'],
    reason: WORDING,
  },
  {
    pairs: ['inbound-buffer'],
    file: BUFFER,
    code: 'limit must be a positive integer, got',
    mutators: ['ConditionalExpression', 'EqualityOperator', 'StringLiteral'],
    reason: WORDING,
  },
  {
    pairs: ['inbound-buffer'],
    file: BUFFER,
    code: 'frame has no key',
    mutators: ['StringLiteral'],
    replacement: '""',
    reason: WORDING,
  },
  {
    pairs: ['inbound-buffer'],
    file: BUFFER,
    code: "if (typeof limit === 'number' && Number.isSafeInteger(limit) && limit > 0) return limit;",
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason: 'dropping the typeof test changes nothing: Number.isSafeInteger already refuses every non-number',
  },
  {
    pairs: ['inbound-buffer'],
    file: BUFFER,
    code: '#order: number[] = [];',
    mutators: ['ArrayDeclaration'],
    reason: 'a placeholder first position holds no frame: reads skip it and acks never find it',
  },
  {
    pairs: ['inbound-buffer'],
    file: BUFFER,
    code: 'for (let i = this.#firstAbove(after); i < order.length && entries.length < limit; i++) {',
    mutators: ['EqualityOperator'],
    replacement: 'i <= order.length',
    reason: 'the position past the end holds no frame: the read skips it',
  },
  {
    pairs: ['inbound-buffer'],
    file: BUFFER,
    code: 'while (this.#start < order.length && !this.#texts.has(order[this.#start] as number)) this.#start += 1;',
    mutators: ['ConditionalExpression', 'EqualityOperator'],
    reason:
      'where the first pending position is kept only saves work: reads and acks skip acknowledged positions themselves (and an emptied queue is dropped)',
  },
  {
    pairs: ['inbound-buffer'],
    file: BUFFER,
    code: 'if (this.#start > 64 && this.#start * 2 > order.length) {',
    mutators: CONDITION_MUTATORS,
    reason:
      'when the queue drops its acknowledged prefix changes no answer (reads skip acknowledged positions); only memory, which the interface does not show',
  },
  {
    pairs: ['inbound-buffer'],
    file: BUFFER,
    code: 'this.#order = order.slice(this.#start);',
    mutators: ['MethodExpression'],
    reason:
      'keeping the acknowledged prefix changes no answer (reads skip acknowledged positions); only memory',
  },
  {
    pairs: ['inbound-buffer'],
    file: BUFFER,
    code: '} else if (order.length - this.#start > 64 && this.#texts.size * 2 < order.length - this.#start) {',
    mutators: CONDITION_MUTATORS,
    reason:
      'when the queue drops acknowledged positions from its middle changes no answer (reads skip them); only memory',
  },
  {
    pairs: ['inbound-buffer'],
    file: BUFFER,
    code: 'this.#order = order.slice(this.#start).filter((pending) => this.#texts.has(pending));',
    mutators: ['MethodExpression'],
    reason:
      'keeping acknowledged positions changes no answer (reads skip them); only memory (dropping pending ones is killed)',
  },
  {
    pairs: ['inbound-buffer'],
    file: BUFFER,
    code: 'if (queue.size === 0) this.#queues.delete(checkedTenant);',
    mutators: ['ConditionalExpression', 'EqualityOperator'],
    reason: "keeping a tenant's emptied queue changes no answer (it reads empty, size 0); only memory",
  },
  // relay-runtime.secrets × InMemoryGatewaySecretStore
  {
    pairs: ['gateway-secrets'],
    file: SECRETS,
    code: 'if (record === null || record.revoked || record.secrets.length === 0) return null;',
    mutators: ['ConditionalExpression'],
    reason: 'a record without secrets is always a revoked one, which the test before already answers null',
  },
  {
    pairs: ['gateway-secrets'],
    file: SECRETS,
    code: "if (typeof graceMs !== 'number' || !Number.isFinite(graceMs) || graceMs < 0) {",
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason: 'dropping the typeof test changes nothing: Number.isFinite already refuses every non-number',
  },
  {
    pairs: ['gateway-secrets'],
    file: SECRETS,
    code: 'options.graceMs must be a finite number of milliseconds ≥ 0, got',
    mutators: ['ConditionalExpression', 'EqualityOperator', 'StringLiteral'],
    reason: WORDING,
  },
  {
    pairs: ['gateway-secrets'],
    file: SECRETS,
    code: 'if (now === undefined) return Date.now;',
    mutators: ['ConditionalExpression'],
    reason: "the in-memory store's own clock option, not part of the GatewaySecretStore interface",
  },
  {
    pairs: ['gateway-secrets'],
    file: SECRETS,
    code: "if (typeof now === 'function') return now as () => number;",
    mutators: ['ConditionalExpression'],
    reason: "the in-memory store's own clock option, not part of the GatewaySecretStore interface",
  },
  {
    pairs: ['gateway-secrets'],
    file: SECRETS,
    code: "throw new RelayError('invalid_gateway_secret_argument', 'options.now must be a function', {",
    mutators: ['StringLiteral', 'ObjectLiteral'],
    reason:
      "the refusal of the in-memory store's own clock option, not part of the GatewaySecretStore interface",
  },
  {
    pairs: ['gateway-secrets'],
    file: SECRETS,
    code: "path: 'options.now',",
    mutators: ['StringLiteral'],
    reason:
      "the refusal of the in-memory store's own clock option, not part of the GatewaySecretStore interface",
  },
  {
    pairs: ['gateway-secrets'],
    file: SECRETS,
    code: "const INSPECT = Symbol.for('nodejs.util.inspect.custom');",
    mutators: ['StringLiteral'],
    reason:
      "without the custom inspect hook Node shows the record's public fields only (secrets and delivery key are private fields): nothing leaks, only the layout of the output changes",
  },
  {
    pairs: ['gateway-secrets'],
    file: SECRETS,
    code: '[INSPECT](): RedactedGatewaySecretRecord {',
    mutators: ['BlockStatement'],
    reason: 'an empty inspect output leaks nothing; its layout is wording',
  },
  {
    pairs: ['gateway-secrets'],
    file: SECRETS,
    code: 'toString(): string {',
    mutators: ['BlockStatement'],
    reason: "String(record) then reads 'undefined': it leaks nothing, and its text is wording",
  },
  {
    pairs: ['gateway-secrets'],
    file: SECRETS,
    code: "const state = this.revoked ? 'revoked' :",
    mutators: ['StringLiteral'],
    reason: 'the text of String(record) is wording (the suite checks that it shows no secret)',
  },
  {
    pairs: ['gateway-secrets'],
    file: SECRETS,
    code: 'return `GatewaySecretRecord(',
    mutators: ['StringLiteral'],
    reason: 'the text of String(record) is wording (the suite checks that it shows no secret)',
  },
  {
    pairs: ['gateway-secrets'],
    file: SECRETS,
    code: 'const windowOpen = previous !== null && rotationEndsAt !== null && now < rotationEndsAt;',
    mutators: ['ConditionalExpression', 'LogicalOperator'],
    reason:
      'a store holds previous and rotationEndsAt both set or both null, so testing one of them is testing both',
  },
  {
    pairs: ['gateway-secrets'],
    file: SECRETS,
    code: 'graceMs > 0',
    mutators: ['ConditionalExpression', 'EqualityOperator'],
    reason:
      'a window of 0 ms ends the instant it opens (now < now is false): the records read exactly as with no window',
  },
  {
    pairs: ['gateway-secrets'],
    file: SECRETS,
    code: "primary: '',",
    mutators: ['StringLiteral'],
    reason: 'a revoked record shows no secret whatever is stored as its primary (revoked wins everywhere)',
  },
  // agent-connector.addresses × the address functions
  {
    pairs: ['agent-address'],
    file: ADDRESS,
    code: "return session === undefined || session === '' ? undefined : session;",
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason: 'without the undefined test an undefined session still comes back undefined',
  },
  // agent-connector.contract + agent-connector.file-drop × FileDropAgentConnector
  ...[
    'const dir: unknown = options?.dir;',
    "if (typeof dir !== 'string' || dir === '' || dir.includes('\\u0000')) {",
    "'invalid_file_drop_config',",
    "'FileDropAgentConnector: dir must be a non-empty path string',",
    "{ path: 'dir' },",
    'if (!Array.isArray(agents)) {',
    "'FileDropAgentConnector: agents must be an array of strings',",
    "{ path: 'agents' },",
    "if (typeof id !== 'string') {",
    "const unsafe = unsafeSegmentReason(id) ?? (id.includes('@') ? \"contains '@'\" : undefined);",
    'FileDropAgentConnector: agent id ${JSON.stringify(id)} ${unsafe}; it must be a folder name',
    'if (!ids.includes(id)) ids.push(id);',
  ].map((code) => ({
    pairs: ['file-drop-connector'],
    file: FILE_DROP,
    code,
    mutators: [...CONDITION_MUTATORS, 'StringLiteral', 'ObjectLiteral', 'OptionalChaining'],
    reason: OWN_OPTIONS,
  })),
  {
    pairs: ['file-drop-connector'],
    file: FILE_DROP,
    code: 'if (unsafe !== undefined) {',
    mutators: [...CONDITION_MUTATORS],
    reason: OWN_OPTIONS,
  },
  ...[
    'throw refusal(agent_id, `dispatch_id ${JSON.stringify(dispatch_id)} ${unsafe}`);',
    "const outcome = await this.#publish(agent_id, agent, name, content, 'deliver');",
    '? { warnings: [`duplicate dispatch_id: ${agent}/${name} already holds this delivery; not rewritten`] }',
    "? { warnings: ['scheduled wake not supported by file-drop: written immediately'] }",
    "throw new NotImplementedError('request_response', 'FileDropAgentConnector');",
    'throw refusal(agent_id, `agent folder name ${JSON.stringify(agent)} ${unsafe}`);',
    "const wired = this.#agents.length === 0 ? '(none)' : this.#agents.join(', ');",
    "throw refusal(agent_id, `Agent '${agent}' is not configured. Wired agents: ${wired}.`);",
    'throw refusal(agent_id, `drop directory ${this.dir} does not exist`, error);',
    'throw deliveryFault(error, agent_id, `file-drop ${action}`);',
    "'file_drop_directory_unreadable',",
    '`cannot list agent folders in ${this.dir}`,',
    "throw refusal(agent_id, 'the payload cannot be written as JSON', error);",
    '`a different dispatch file already exists at ${target}`,',
    "if (name === '') return 'is empty';",
    "if (name === '.' || name === '..') return `is '${name}'`;",
    "return 'contains a path separator';",
    "return 'contains a control character';",
    'return `is longer than ${maxBytes} UTF-8 bytes`;',
    'return new DeliveryFailedError(`${action} refused: ${error.message}`, {',
    'return new DeliveryFailedError(`${action} failed${code === undefined',
  ].map((code) => ({
    pairs: ['file-drop-connector'],
    file: FILE_DROP,
    code,
    mutators: ['StringLiteral'],
    reason: WORDING,
  })),
  ...[
    "const wired = this.#agents.length === 0 ? '(none)' : this.#agents.join(', ');",
    'return new DeliveryFailedError(`${action} failed${code === undefined',
  ].map((code) => ({
    pairs: ['file-drop-connector'],
    file: FILE_DROP,
    code,
    mutators: ['ConditionalExpression', 'EqualityOperator'],
    reason: WORDING,
  })),
  {
    pairs: ['file-drop-connector'],
    file: FILE_DROP,
    code: '...(session_id === undefined ? {} : { session_id }),',
    mutators: ['ConditionalExpression'],
    reason: 'JSON.stringify leaves an undefined member out, so the drop document is the same',
  },
  {
    pairs: ['file-drop-connector'],
    file: FILE_DROP,
    code: '...(context === undefined ? {} : { context }),',
    mutators: ['ConditionalExpression'],
    reason: 'JSON.stringify leaves an undefined member out, so the drop document is the same',
  },
  {
    pairs: ['file-drop-connector'],
    file: FILE_DROP,
    code: '...(when === undefined ? {} : { when }),',
    mutators: ['ConditionalExpression'],
    reason: 'JSON.stringify leaves an undefined member out, so the drop document is the same',
  },
  {
    pairs: ['file-drop-connector'],
    file: FILE_DROP,
    code: '...(cause === undefined ? {} : { cause }),',
    mutators: ['ConditionalExpression', 'EqualityOperator', 'ObjectLiteral'],
    reason: "the refusal's `cause` chain is diagnostics, which the contract does not fix",
  },
  {
    pairs: ['file-drop-connector'],
    file: FILE_DROP,
    code: 'details: { file: this.dir },',
    mutators: ['ObjectLiteral'],
    reason: 'the `details` of a refusal that the contract does not fix (diagnostics)',
  },
  {
    pairs: ['file-drop-connector'],
    file: FILE_DROP,
    code: 'details: { file: target },',
    mutators: ['ObjectLiteral'],
    reason:
      'the conflict becomes a DeliveryFailedError whose fields the suites check; this inner detail is only its cause',
  },
  {
    pairs: ['file-drop-connector'],
    file: FILE_DROP,
    code: "return 'written';",
    mutators: ['StringLiteral'],
    reason: "the caller only tells 'unchanged' from anything else",
  },
  {
    pairs: ['file-drop-connector'],
    file: FILE_DROP,
    code: "if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;",
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason:
      'a read error other than a missing file (EISDIR, EACCES) then surfaces at the write instead: deliver still rejects as a network fault',
  },
  {
    pairs: ['file-drop-connector'],
    file: FILE_DROP,
    code: '} catch (error) {',
    mutators: ['BlockStatement'],
    reason:
      'a read error other than a missing file then surfaces at the write instead: deliver still rejects as a network fault',
  },
  {
    pairs: ['file-drop-connector'],
    file: FILE_DROP,
    code: 'if (!(await stat(this.dir)).isDirectory()) return false;',
    mutators: ['ConditionalExpression'],
    reason:
      "a file in the folder's place fails the access check that follows anyway (a file without an execute bit cannot be searched, even by root)",
  },
  {
    pairs: ['file-drop-connector'],
    file: FILE_DROP,
    code: "if (code !== 'EEXIST') throw deliveryFault(error, agent_id, `file-drop ${action}`);",
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason: 'any other mkdir failure makes the write that follows fail too, as the same network fault',
  },
  {
    pairs: ['file-drop-connector'],
    file: FILE_DROP,
    code: "await this.#publish(agent_id, agent, `wake-${randomUUID()}.json`, content, 'wake');",
    mutators: ['StringLiteral'],
    replacement: '""',
    reason: "the action's name only words the message of a fault",
  },
  {
    pairs: ['file-drop-connector'],
    file: FILE_DROP,
    code: '{',
    exact: true,
    mutators: ['ObjectLiteral'],
    reason: 'the options of an internal error (its details), diagnostics the contract does not fix',
  },
  {
    pairs: ['file-drop-connector'],
    file: FILE_DROP,
    code: 'const code = (error as NodeJS.ErrnoException | undefined)?.code;',
    mutators: ['OptionalChaining'],
    reason: 'what reaches deliveryFault is always an error object, never undefined',
  },
  {
    pairs: ['file-drop-connector'],
    file: FILE_DROP,
    code: 'return entries',
    mutators: ['MethodExpression'],
    reason:
      "Node's readdir already lists names sorted (libuv sorts what scandir returns), so dropping the sort changes no listing of ASCII names",
  },
  {
    pairs: ['file-drop-connector'],
    file: FILE_DROP,
    code: "if (error instanceof AgentConnectorError && error.code === 'dispatch_id_conflict') {",
    mutators: ['LogicalOperator', 'ConditionalExpression'],
    reason:
      'the only AgentConnectorError that reaches deliveryFault is the dispatch_id conflict, so testing either half is testing both',
  },
  // hearthnet.hashing × the hashing functions
  ...[
    "if (typeof hasher?.algorithm !== 'string' || !algorithmName.test(hasher.algorithm)) {",
    "'invalid_hasher',",
    '`hasher algorithm must be a lowercase name matching ${algorithmName}, got',
    'if (!(digest instanceof Uint8Array) || digest.length !== DIGEST_BYTES) {',
    '`hasher "${hasher.algorithm}" must return a ${DIGEST_BYTES}-byte Uint8Array digest`,',
    'const algorithmName = /^[a-z0-9][a-z0-9-]*$/;',
    'export const sha256Hasher: Hasher = Object.freeze({',
    "algorithm: 'sha256',",
    'digest: (data: Uint8Array): Uint8Array => nobleSha256(data),',
  ].map((code) => ({
    pairs: ['hashing'],
    file: HASHING,
    code,
    mutators: [
      ...CONDITION_MUTATORS,
      'StringLiteral',
      'ObjectLiteral',
      'OptionalChaining',
      'Regex',
      'ArrowFunction',
    ],
    reason: OWN_HASHER,
  })),
  ...[
    'const loneSurrogate = /[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]/;',
    "'invalid_hash_input',",
    "'cannot hash a string with a lone surrogate: it has no UTF-8 form',",
    '`data to hash must be a Uint8Array or a string, got ${typeName(data)}`,',
    'function typeName(value: unknown): string {',
    "if (value === null) return 'null';",
    "if (typeof value !== 'object') return typeof value;",
    "return Object.getPrototypeOf(value)?.constructor?.name ?? 'an object';",
    "if (typeof data === 'string') {",
    'if (loneSurrogate.test(data)) {',
    'if (!(data instanceof Uint8Array))',
    'if (!Array.isArray(chunkCids))',
  ].map((code) => ({
    pairs: ['hashing'],
    file: HASHING,
    code,
    mutators: [
      ...CONDITION_MUTATORS,
      'StringLiteral',
      'ObjectLiteral',
      'OptionalChaining',
      'Regex',
      'BooleanLiteral',
    ],
    reason: HASHING_UNREACHED,
  })),
  {
    pairs: ['hashing'],
    file: HASHING,
    code: 'export function shortContentId(cid: string): string {',
    mutators: ['BlockStatement'],
    reason: "the SDK's display helper (a shortened id), which the hashing contract does not define",
  },
  {
    pairs: ['hashing'],
    file: HASHING,
    code: 'return `${algorithm}:${hex.slice(0, SHORT_HEX_CHARS)}`;',
    mutators: ['StringLiteral', 'MethodExpression'],
    reason: "the SDK's display helper (a shortened id), which the hashing contract does not define",
  },
  ...[
    "if (typeof cid !== 'string') throw invalidContentId(cid, 'not a string');",
    "if (!digestHex.test(cid)) throw invalidContentId(cid, 'a bare id must be 64 lowercase hex characters');",
    'throw invalidContentId(cid, `unknown algorithm "${algorithm}" (expected blake3 or sha256)`);',
    "if (!digestHex.test(hex)) throw invalidContentId(cid, 'the digest must be 64 lowercase hex characters');",
    "throw invalidContentId(cid, 'a chunk id must be <algorithm>:<64 lowercase hex>');",
  ].map((code) => ({
    pairs: ['hashing'],
    file: HASHING,
    code,
    mutators: ['StringLiteral'],
    reason: WORDING,
  })),
  {
    pairs: ['hashing'],
    file: HASHING,
    code: "return typeof value === 'string' && prefixedId.test(value);",
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason: 'the pattern test already fails for anything that is not a string',
  },
  {
    pairs: ['hashing'],
    file: HASHING,
    code: 'const sorted = [...chunkCids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));',
    mutators: ['EqualityOperator', 'ConditionalExpression'],
    reason:
      "V8's sort only asks whether a comparison is negative, and for distinct ids (equal ones are the same text) these variants answer that the same way",
  },
  ...['details: { value },', "{ path: 'chunkSizeBytes', details: { value: chunkSizeBytes } },", '{'].map(
    (code) => ({
      pairs: ['hashing'],
      file: HASHING,
      code,
      exact: true,
      mutators: ['ObjectLiteral', 'StringLiteral'],
      reason:
        'the `details` and `path` of a hashing refusal, which the language-neutral fixture does not fix (argument names differ between languages)',
    }),
  ),
  // agent-connector.contract (with and without a wake URL) + agent-connector.webhook-wire × HttpWebhookAgentConnector
  ...[
    '): HttpWebhookAgentConnector {',
    'return new HttpWebhookAgentConnector({ ...extra, ...webhookOptionsFromEnv(env) });',
    'function processEnv(): WebhookEnv {',
    'const env = (globalThis as { readonly process?: { readonly env?: WebhookEnv } }).process?.env;',
    'return env ?? {};',
  ].map((code) => ({
    pairs: ['webhook-connector'],
    file: WEBHOOK,
    code,
    exact: true,
    mutators: ['BlockStatement', 'ObjectLiteral', 'OptionalChaining', 'LogicalOperator'],
    reason: `${OWN_OPTIONS}: fromEnv() reads the connector's settings from environment variables`,
  })),
  ...[
    'for (let attempt = 1; ; attempt += 1) {',
    'if (attempt >= attempts || !(error instanceof DeliveryFailedError) || !error.retryable) throw error;',
    'await sleep(Math.min(max_delay_ms, initial_delay_ms * 2 ** (attempt - 1)));',
    'function sleep(ms: number): Promise<void> {',
    'return new Promise((resolve) => setTimeout(resolve, ms));',
  ].map((code) => ({
    pairs: ['webhook-connector'],
    file: WEBHOOK,
    code,
    exact: true,
    mutators: [
      ...CONDITION_MUTATORS,
      'AssignmentOperator',
      'BooleanLiteral',
      'MethodExpression',
      'ArrowFunction',
    ],
    reason: `${OWN_OPTIONS}: retries are opt-in (one attempt by default), with the connector's own backoff`,
  })),
  ...[
    "`Agent '${agent_id}' is not configured. Wired agents: ${this.#wired()}.`,",
    "`wake('${agent_id}'): agent not configured. Wired agents: ${this.#wired()}.`,",
    "discardBody(await this.#postWithRetries(agent_id, config.wake_url, body, `wake('${agent_id}')`));",
    'throw new DeliveryFailedError(`${cause_kind} error: ${messageOf(error)}`, {',
    'throw new DeliveryFailedError(label === undefined ? refused : `${label}: ${refused}`, {',
    'label === undefined',
    '? `HTTP ${response.status} from ${redactUrl(followed.url)}`',
    ': `${label}: HTTP ${response.status}`;',
    '#wired(): string {',
    "return [...this.#options.agents.keys()].join(', ') || '(none)';",
    '`agent_id must be a string, got ${describeType(agent_id)}`,',
  ].map((code) => ({
    pairs: ['webhook-connector'],
    file: WEBHOOK,
    code,
    exact: true,
    mutators: [...CONDITION_MUTATORS, 'StringLiteral', 'ArrayDeclaration'],
    reason: WORDING,
  })),
  {
    pairs: ['webhook-connector'],
    file: WEBHOOK,
    code: "if (typeof agent_id !== 'string') {",
    exact: true,
    mutators: ['ConditionalExpression', 'BlockStatement'],
    reason:
      'the contract asks only that deliver() of a non-string agent id be refused; without the check it is an unknown agent, refused with DeliveryFailedError all the same',
  },
  ...["'invalid_agent_address',", "path: 'agent_id',"].map((code) => ({
    pairs: ['webhook-connector'],
    file: WEBHOOK,
    code,
    exact: true,
    mutators: ['StringLiteral', 'ObjectLiteral'],
    reason: SDK_AGENT_ID_REFUSAL,
  })),
  ...[
    "warnings: ['no wake_url configured and no context given: nothing delivered'],",
    "warnings: ['no wake_url configured: context delivered instead', ...(receipt.warnings ?? [])],",
  ].map((code) => ({
    pairs: ['webhook-connector'],
    file: WEBHOOK,
    code,
    exact: true,
    mutators: ['ArrayDeclaration', 'StringLiteral'],
    reason:
      "a receipt's warnings, which the contract calls advisory commentary (the call succeeded either way): their presence and words are the implementation's",
  })),
  {
    pairs: ['webhook-connector'],
    file: WEBHOOK,
    code: '{ now: this.#options.now, newDispatchId: this.#options.newDispatchId },',
    exact: true,
    mutators: ['ObjectLiteral'],
    reason: `${OWN_OPTIONS}: the clock and dispatch-id generator of a degraded wake's meta (the defaults make meta of the same kind)`,
  },
  {
    pairs: ['webhook-connector'],
    file: WEBHOOK,
    code: "throw new NotImplementedError('request_response', 'HttpWebhookAgentConnector');",
    exact: true,
    mutators: ['StringLiteral'],
    reason:
      "the method and implementation fields of the SDK's NotImplementedError; the contract names only the error",
  },
  {
    pairs: ['webhook-connector'],
    file: WEBHOOK,
    code: "const text = (await readReceiptText(response).catch(() => undefined)) ?? '';",
    exact: true,
    mutators: ['StringLiteral'],
    reason: 'an unreadable answer and any text that is not JSON make the same receipt (`{}`)',
  },
  ...['...(context === undefined ? {} : { context }),', '...(when === undefined ? {} : { when }),'].map(
    (code) => ({
      pairs: ['webhook-connector'],
      file: WEBHOOK,
      code,
      exact: true,
      mutators: ['ConditionalExpression'],
      replacement: 'false',
      reason: 'JSON drops a member whose value is undefined, so the body is the same bytes',
    }),
  ),
  ...[
    { mutators: ['ConditionalExpression'], replacement: 'false' },
    { mutators: ['StringLiteral'], replacement: '""' },
  ].map((which) => ({
    pairs: ['webhook-connector'],
    file: WEBHOOK,
    code: "return name === 'TimeoutError' || name === 'AbortError';",
    exact: true,
    ...which,
    reason:
      "only a browser's older fetch names a timeout AbortError; Node's AbortSignal.timeout() rejects with TimeoutError, so the second test never decides",
  })),

  {
    pairs: ['webhook-connector'],
    file: WEBHOOK,
    code: "cause_kind: status === null ? 'malformed_response' : 'http_status',",
    exact: true,
    mutators: ['ConditionalExpression', 'StringLiteral'],
    reason:
      'an opaque redirect (status null) comes only from a browser fetch; a transport the suites can hand the connector answers with a status',
  },
  ...[
    "if (response.body === null) return '';",
    "const declared = Number(response.headers.get('Content-Length') ?? '0');",
    'if (declared > MAX_RECEIPT_BYTES) {',
    'total += value.byteLength;',
    'if (total > MAX_RECEIPT_BYTES) {',
    'function discardBody(response: Response): void {',
  ].map((code) => ({
    pairs: ['webhook-connector'],
    file: WEBHOOK,
    code,
    exact: true,
    mutators: [...CONDITION_MUTATORS, 'StringLiteral', 'AssignmentOperator'],
    reason:
      "the connector's own bound on the answer it reads (memory a receiver cannot exhaust) and the release of bodies it does not read: an answer of any length still makes a receipt, and no caller sees the release",
  })),
  ...[
    "if (body === null || typeof body !== 'object') return { delivered_at: now };",
    'if (text.length === 0) return {};',
    "return typeof value === 'number' && Number.isFinite(value) && value >= 0;",
  ].map((code) => ({
    pairs: ['webhook-connector'],
    file: WEBHOOK,
    code,
    exact: true,
    mutators: ['ConditionalExpression'],
    reason:
      'a guard the next step repeats: fields of a JSON number, string or boolean read as absent, as on {}; JSON.parse of empty text fails into {}; Number.isFinite is false for a non-number',
  })),
  // relay-edge.enrollment-tokens × InMemoryEnrollmentTokenStore
  ...[
    "if (typeof now !== 'function') {",
    "throw new RelayError('invalid_enrollment_argument', 'options.now must be a function', {",
    "path: 'options.now',",
  ].map((code) => ({
    pairs: ['enrollment-stores'],
    file: EDGE_STORES,
    code,
    exact: true,
    mutators: [...CONDITION_MUTATORS, 'StringLiteral', 'ObjectLiteral'],
    reason: "the in-memory store's own clock option, which the EnrollmentTokenStore interface does not have",
  })),
  {
    pairs: ['enrollment-stores'],
    file: EDGE_STORES,
    code: "if (typeof ttlMs !== 'number' || !Number.isFinite(ttlMs) || ttlMs <= 0) {",
    exact: true,
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason: 'Number.isFinite is false for anything but a number, so the typeof test never decides alone',
  },
  {
    pairs: ['enrollment-stores'],
    file: EDGE_STORES,
    code: 'if (this.#now() >= stored.expiresAt) {',
    exact: true,
    mutators: ['EqualityOperator'],
    reason:
      'the millisecond a TTL ends, which the interface leaves to the implementation (a token is live before it, expired well after it)',
  },
  ...[
    { code: '#sweep(now: number): void {', mutators: ['BlockStatement'] },
    { code: SWEEP, mutators: ['ConditionalExpression'], replacement: 'false' },
    { code: SWEEP, mutators: ['EqualityOperator'], replacement: 'now > ' },
  ].map((which) => ({
    pairs: ['enrollment-stores'],
    file: EDGE_STORES,
    exact: true,
    ...which,
    reason:
      'the sweep frees memory only: redeem checks expiry itself, so an expired token kept longer reads the same (a sweep that drops live tokens fails issue.keeps-live-tokens)',
  })),
  // relay-edge.provision-registry × InMemoryProvisionRegistry
  {
    pairs: ['provision-registry'],
    file: EDGE_STORES,
    code: 'for (const key of previous?.routeKeys ?? []) {',
    exact: true,
    mutators: ['ArrayDeclaration'],
    reason: 'without a previous registration the gateway holds no route, so a stray key deletes nothing',
  },
  // agent-connector.contract × NoOpAgentConnector
  {
    pairs: ['noop-connector'],
    file: NOOP,
    code: 'this.#log = options.log === undefined ? (line) => console.error(line) : options.log;',
    exact: true,
    mutators: [...CONDITION_MUTATORS, 'ArrowFunction'],
    reason: `${OWN_OPTIONS}: its log line sink`,
  },
  ...[
    '`[NoOpAgentConnector] deliver(${agent_id}, kind=${kind}, dispatch_id=${meta.dispatch_id}) — no substrate wired; payload discarded.`,',
    'this.#log?.(`[NoOpAgentConnector] wake(${agent_id}) — no substrate wired; wake skipped.`);',
    "`agent_id must be a string, got ${agent_id === null ? 'null' : typeof agent_id}`,",
  ].map((code) => ({
    pairs: ['noop-connector'],
    file: NOOP,
    code,
    exact: true,
    mutators: [...CONDITION_MUTATORS, 'StringLiteral'],
    reason: `${WORDING}; or of a log line`,
  })),
  ...["'invalid_agent_address',", "{ path: 'agent_id' },"].map((code) => ({
    pairs: ['noop-connector'],
    file: NOOP,
    code,
    exact: true,
    mutators: ['StringLiteral', 'ObjectLiteral'],
    reason: SDK_AGENT_ID_REFUSAL,
  })),
  ...[
    ['wake', 40, 'its wake wakes nothing (woken: false)'],
    ['agent_status', 79, "its agent_status answers 'unknown' for everyone"],
    [
      'health_check',
      99,
      'health_check is true for every connector that answers, and features-honest leaves it out',
    ],
  ].map(([feature, column, why]) => ({
    pairs: ['noop-connector'],
    file: NOOP,
    code: 'features: { deliver: true, wake: true, list_agents: true, agent_status: true, health_check: true },',
    column: Number(column),
    mutators: ['BooleanLiteral'],
    reason: `the no-op connector declaring ${feature} off reads the same to a caller: ${why}`,
  })),
  {
    pairs: ['noop-connector'],
    file: NOOP,
    code: 'return { woken_at: this.#now(), woken: false };',
    exact: true,
    mutators: ['BooleanLiteral'],
    reason:
      'the no-op has no substrate to observe, so no case can see that a woken: true interrupted nobody; its run is reduced (unobserved) and the verdict says so',
  },
  {
    pairs: ['noop-connector'],
    file: NOOP,
    code: "throw new NotImplementedError('request_response', 'NoOpAgentConnector');",
    exact: true,
    mutators: ['StringLiteral'],
    reason:
      "the method and implementation fields of the SDK's NotImplementedError; the contract names only the error",
  },
  // hearthnet.blob-store × InMemoryBlobStore
  ...[
    'for (const chunk of state.chunks) {',
    'this.#chunks.set(chunk.hex, { size: chunk.size_bytes, cid: undefined });',
    'this.#usedBytes += chunk.size_bytes;',
    'for (const manifest of state.manifests) {',
    'for (const chunk of manifest.chunks) {',
    'if (entry !== undefined) entry.cid = chunk.cid;',
    "if (read.state === 'corrupt')",
    "'corrupt_chunk',",
    '`stored chunk ${cid} is corrupt: its bytes hash to ${read.actualCid}`,',
    '{ details: { cid, actualCid: read.actualCid } },',
    '`stored chunk ${chunk.cid} is corrupt: its bytes hash to ${read.actualCid}`,',
    '{ details: { cid: chunk.cid, actualCid: read.actualCid } },',
    "if (!this.#backend.rehashReads) return { state: 'intact', bytes };",
    "if (actualCid !== cid) return { state: 'corrupt', actualCid };",
    "return { state: 'intact', bytes };",
    'if (this.#backend.rehashReads) {',
    "return read.state === 'intact' ? read.bytes.length : undefined;",
    'if (!this.#backend.rehashReads) return;',
    "if ((await this.#readChunk(cid, parseStoreContentId(cid, 'cid'))).state === 'intact') return;",
    'readonly rehashReads = false;',
    'return this.#chunks.get(hex)?.slice();',
    "const ABSENT: ChunkRead = Object.freeze({ state: 'absent' });",
    "if (read.state === 'absent' || read.bytes.length !== chunk.size_bytes) return undefined;",
    'if (entry === undefined || (entry.cid !== undefined && entry.cid !== cid)) return ABSENT;',
    'if (bytes === undefined) return ABSENT;',
    'return entry === undefined || (entry.cid !== undefined && entry.cid !== cid) ? undefined : entry.size;',
  ].map((code) => ({
    pairs: ['blob-store'],
    file: BLOB_STORE,
    code,
    exact: true,
    mutators: [
      ...CONDITION_MUTATORS,
      'BooleanLiteral',
      'StringLiteral',
      'ObjectLiteral',
      'AssignmentOperator',
      'OptionalChaining',
    ],
    reason:
      'unreachable with the memory backend: it starts empty (no state to restore), never hashes a read again (rehashReads is false), so no chunk reads as corrupt, and it reads only chunks the index holds, under the full CID it stored them with (another CID with the same digits would take a hash collision); the same suite runs against FilesystemBlobStore, whose backend does all of these, in its package tests',
  })),
  {
    pairs: ['blob-store'],
    file: BLOB_STORE,
    code: "return read.state === 'intact' ? read.bytes : undefined;",
    exact: true,
    mutators: ['ConditionalExpression'],
    reason:
      'an absent read has no bytes, so it gives undefined either way (a corrupt one cannot happen here, as above)',
  },
  {
    pairs: ['blob-store'],
    file: BLOB_STORE,
    code: 'return cids.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));',
    exact: true,
    mutators: ['EqualityOperator', 'ConditionalExpression'],
    reason:
      "V8's sort only asks whether a comparison is negative, and for distinct CIDs (a list holds each once) these variants answer that the same way",
  },
  {
    pairs: ['blob-store'],
    file: BLOB_STORE,
    code: 'if (existing !== undefined && (existing.cid === undefined || existing.cid === cid)) {',
    exact: true,
    mutators: CONDITION_MUTATORS,
    reason:
      'storing again a chunk the memory store holds: going on writes the same bytes and counts no new ones (the size it replaces is its own), so returning early or not reads the same; a chunk held under another CID with the same digits would take a hash collision',
  },
  ...sameReason(
    {
      pairs: ['blob-store'],
      file: BLOB_STORE,
      mutators: ['ArithmeticOperator'],
      reason:
        'the memory store writes only chunks it does not hold (one it holds returns above), so the held size these subtract is 0 and adding it instead is the same',
    },
    [
      'await this.#makeRoom(bytes.length - (existing?.size ?? 0), bytes.length, hex, events);',
      'this.#usedBytes += bytes.length - (this.#chunks.get(hex)?.size ?? 0);',
    ],
  ),
  {
    pairs: ['blob-store'],
    file: BLOB_STORE,
    code: 'if (!held.has(chunk.cid)) held.set(chunk.cid, await this.#intactChunkSize(chunk.cid));',
    exact: true,
    mutators: ['ConditionalExpression'],
    reason:
      'a memo of chunk sizes within one missingChunks call: asking again for a repeated chunk gives the same size',
  },
  {
    pairs: ['blob-store'],
    file: BLOB_STORE,
    code: "const read = await this.#readChunk(chunk.cid, parseStoreContentId(chunk.cid, 'cid'));",
    exact: true,
    mutators: ['StringLiteral'],
    reason:
      "the argument name of a check that cannot fail: a stored manifest's chunk CIDs were checked when it was stored",
  },
  {
    pairs: ['blob-store'],
    file: BLOB_STORE,
    span: { from: 'async #intactChunkSize(cid: string)', until: '#indexedChunkSize(cid: string)' },
    code: "const id = parseStoreContentId(cid, 'cid');",
    exact: true,
    mutators: ['StringLiteral'],
    reason:
      "the argument name of a check that cannot fail: missingChunks checked the manifest's chunk CIDs first",
  },
  {
    pairs: ['blob-store'],
    file: BLOB_STORE,
    code: 'const pin = options?.pin ?? false;',
    exact: true,
    mutators: ['OptionalChaining'],
    reason: 'a null options object, which the interface does not allow (an absent one takes the defaults)',
  },
  ...sameReasonSpans(
    {
      pairs: ['blob-store'],
      file: BLOB_STORE,
      mutators: ['BlockStatement'],
      reason:
        "handing the pins to the backend to persist (and undoing the change when that fails): the memory backend keeps no pins (they live in the store's own index) and never fails; FilesystemBlobStore persists them, in its package tests",
    },
    [
      { from: 'async unpin(blobCid: string)', until: 'async isPinned(blobCid: string)' },
      { from: 'async #addPin(blobCid: string)', until: '#sortedPins(): string[] {' },
    ],
  ),
  {
    pairs: ['blob-store'],
    file: BLOB_STORE,
    span: { from: 'async #addPin(blobCid: string)', until: '#sortedPins(): string[] {' },
    code: 'if (this.#pins.has(blobCid)) return;',
    exact: true,
    mutators: ['ConditionalExpression'],
    reason:
      'pinning a pinned blob again: adding it to the set changes nothing, and the memory backend persists no pins',
  },
  {
    pairs: ['blob-store'],
    file: BLOB_STORE,
    code: 'this.#emit(events, false);',
    exact: true,
    mutators: ['BooleanLiteral'],
    reason:
      "a change that fails in the memory store has gathered no event (each refusal comes before the change's first event, and the backend never fails), so no hook error could stand in for the failure",
  },
  {
    pairs: ['blob-store'],
    file: BLOB_STORE,
    code: 'if (this.#pins.has(manifest.cid)) continue;',
    exact: true,
    mutators: ['ConditionalExpression'],
    reason:
      'a second guard of pinned blobs: their chunks are kept already, so collection would skip them (every chunk kept) and count none of their chunks as freeable',
  },
  {
    pairs: ['blob-store'],
    file: BLOB_STORE,
    code: 'for (const hex of freeable) bytes += this.#chunks.get(hex)?.size ?? 0;',
    exact: true,
    mutators: ['OptionalChaining'],
    reason:
      'every chunk of a stored manifest is held: a manifest is stored only with all its chunks, and collection removes a manifest before its chunks',
  },
  {
    pairs: ['blob-store'],
    file: BLOB_STORE,
    code: 'if (this.#usedBytes <= targetBytes) return { removedBlobs, freedBytes };',
    exact: true,
    mutators: ['ConditionalExpression', 'EqualityOperator'],
    reason:
      'a shortcut: the loop below stops at the same test before removing anything (gc-under-target checks the answer it gives)',
  },
  {
    pairs: ['blob-store'],
    file: BLOB_STORE,
    code: 'if (remaining > 0 || kept.has(hex) || entry === undefined) continue;',
    exact: true,
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    column: 47,
    reason:
      'a kept chunk that collection reaches is still used by the pinned blob that keeps it (remaining > 0 already); the chunk being written is in no stored manifest',
  },
  ...sameReason(
    {
      pairs: ['blob-store'],
      file: BLOB_STORE,
      span: { from: 'function sameChunkOrder(', until: 'function wrongChunkSize(' },
      mutators: ['ConditionalExpression', 'LogicalOperator'],
      reason: SAME_BLOB_CID,
    },
    ['a.chunk_size_bytes === b.chunk_size_bytes &&', 'a.chunks.length === b.chunks.length &&'],
  ),
  {
    pairs: ['blob-store'],
    file: BLOB_STORE,
    code: 'if (capacity === undefined || extraBytes <= 0 || this.#usedBytes + extraBytes <= capacity) return;',
    exact: true,
    mutators: ['ConditionalExpression', 'EqualityOperator'],
    reason:
      'shortcuts when the bytes fit: the store never holds more than its capacity, so going on finds a target at or above the bytes held, refuses nothing and collects nothing',
  },
  {
    pairs: ['blob-store'],
    file: BLOB_STORE,
    code: 'const keep = new Set([keepHex]);',
    exact: true,
    mutators: ['ArrayDeclaration'],
    reason:
      'the chunk being written, kept from collection: in the memory store it is one the store does not hold, so no stored manifest names it and collection could not reach it anyway',
  },
  {
    pairs: ['blob-store'],
    file: BLOB_STORE,
    code: 'if (target < 0 || this.#usedBytes - this.#collectableBytes(keep) > target) {',
    exact: true,
    mutators: ['ConditionalExpression'],
    column: 9,
    reason: 'a negative target is below every count of bytes held, so the second test refuses it too',
  },
  {
    pairs: ['blob-store'],
    file: BLOB_STORE,
    code: "return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;",
    exact: true,
    mutators: ['ConditionalExpression'],
    column: 10,
    reason: 'Number.isSafeInteger is false for every non-number, so the type test decides nothing',
  },
  {
    pairs: ['blob-store'],
    file: BLOB_STORE,
    code: 'a.chunks.every((chunk, i) => chunk.cid === b.chunks[i]?.cid)',
    exact: true,
    mutators: ['OptionalChaining'],
    reason: SAME_BLOB_CID,
  },
  {
    pairs: ['blob-store'],
    file: BLOB_STORE,
    code: 'super(new MemoryBackend(), { chunks: [], manifests: [], pins: [] }, options);',
    exact: true,
    mutators: ['ArrayDeclaration'],
    column: 67,
    reason:
      'a pin on a text that is no CID: no blob has it as its CID, and the memory store persists no pins',
  },
  // data-store.contract × SqliteDataStore
  ...sameReason(
    {
      pairs: ['sqlite-data-store'],
      file: SQLITE_DATA_STORE,
      mutators: ['BooleanLiteral'],
      reason:
        'features the DataStore interface has no operation for (pinning, a decay model of scores): declaring them changes no call a consumer can make',
    },
    ['supports_pinning: false,', 'supports_decay_model: false,'],
  ),
  ...sameReason(
    {
      pairs: ['sqlite-data-store'],
      file: SQLITE_DATA_STORE,
      reason:
        "the store's own constructor options (a file path or an open database) and closing a database it opened when a migration fails (one holding a newer schema, which no case can make): the DataStore contract has no constructor",
    },
    ["const { database, owned } = openDatabase(options, 'options');", 'if (owned) database.close();'],
  ),
  {
    pairs: ['sqlite-data-store'],
    file: SQLITE_DATA_STORE,
    span: { from: '  constructor(options: SqliteDataStoreOptions)', until: '  /**' },
    code: '} catch (error) {',
    exact: true,
    mutators: ['BlockStatement'],
    reason:
      'closing a database the store opened when a migration fails (one holding a newer schema, which no case can make): the DataStore contract has no constructor',
  },
  {
    pairs: ['sqlite-data-store'],
    file: SQLITE_DATA_STORE,
    code: 'valid.recipients === undefined ? null : JSON.stringify(valid.recipients),',
    exact: true,
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason: 'JSON.stringify(undefined) is undefined, which SQLite binds as NULL, the null it replaces',
  },
  ...[
    ["if (typeof id !== 'string') throw storageValidationError('must be a string', 'id');", 62],
    ["if (typeof query !== 'string') throw storageValidationError('must be a string', 'filters.query');", 63],
    ["throw storageValidationError('must be a positive finite number', 'filters.limit');", 34],
    ["if (typeof mode !== 'string') throw storageValidationError('must be a string', 'filters.mode');", 62],
    ["throw storageValidationError('must be a tag or an array of tags', 'filters.domain_tags');", 32],
    ["'is a curated field: it belongs at the top level, not in metadata',", 9],
  ].map(([code, column]) => ({
    pairs: ['sqlite-data-store'],
    file: SQLITE_DATA_STORE,
    code: String(code),
    exact: true,
    mutators: ['StringLiteral'],
    column: Number(column),
    reason: WORDING,
  })),
  {
    pairs: ['sqlite-data-store'],
    file: SQLITE_DATA_STORE,
    code: 'if (!SUPPORTED_MODES.includes(mode)) throw unsupportedQueryModeError(mode, SUPPORTED_MODES);',
    exact: true,
    mutators: ['ConditionalExpression'],
    reason:
      'a mode the store does not declare: the contract leaves a store free to refuse it or to search its own way (the suite runs the modes a store declares)',
  },
  {
    pairs: ['sqlite-data-store'],
    file: SQLITE_DATA_STORE,
    code: '...(tags === undefined ? {} : { tags: JSON.stringify(tags) }),',
    exact: true,
    mutators: ['ConditionalExpression'],
    reason: 'binding a $tags parameter the statement does not use when no tag filter is given',
  },
  ...sameReason({ pairs: ['sqlite-data-store'], file: SQLITE_DATA_STORE, reason: EMPTY_QUERY }, [
    "if (search.kind === 'recent') {",
    '`SELECT ${ENTRY_COLUMNS} FROM data_entries e WHERE ${LIVE}${tagClause}',
    "if (tokens.length === 0) return { kind: 'recent' };",
  ]),
  ...sameReason({ pairs: ['sqlite-data-store'], file: SQLITE_DATA_STORE, reason: RAW_FTS }, [
    'if (search.raw) checkRawExpression(database, search.expression);',
    'if (query.startsWith(RAW_FTS_PREFIX)) {',
  ]),
  ...sameReasonSpans({ pairs: ['sqlite-data-store'], file: SQLITE_DATA_STORE, reason: RAW_FTS }, [
    { from: 'function checkRawExpression(', until: '/** The tags a `domain_tags` filter value selects' },
    { from: 'if (query.startsWith(RAW_FTS_PREFIX)) {', until: '  const tokens = query.split' },
  ]),
  {
    pairs: ['sqlite-data-store'],
    file: SQLITE_DATA_STORE,
    code: "return { kind: 'match', expression, raw: false };",
    exact: true,
    mutators: ['BooleanLiteral', 'StringLiteral'],
    reason:
      "checking a quoted expression with FTS5 before the search (every quoted phrase parses), and the kind of a match, which query() tells only from 'recent'",
  },
  {
    pairs: ['sqlite-data-store'],
    file: SQLITE_DATA_STORE,
    code: "const tokens = query.split(/\\s+/).filter((token) => token !== '');",
    exact: true,
    mutators: ['MethodExpression', 'Regex', 'ConditionalExpression', 'StringLiteral'],
    reason:
      'an empty token becomes the phrase "", which FTS5 ignores, so keeping or dropping empty tokens (or splitting on single spaces) finds the same entries',
  },
  {
    pairs: ['sqlite-data-store'],
    file: SQLITE_DATA_STORE,
    span: { from: '  async manifest(): Promise', until: '  /**' },
    mutators: ['StringLiteral'],
    reason:
      "the manifest's descriptive text (score_range, fts_query_semantic, tag_filter_semantic) and its capabilities_version, which consumers may show but the contract gives no values for; the modes and filters it lists are checked",
  },
  {
    pairs: ['sqlite-data-store'],
    file: SQLITE_DATA_STORE,
    span: { from: '  close(): void {', until: '  #nowSeconds(): number {' },
    reason:
      "close() and the store_closed refusal after it: the SQLite store's own lifecycle, which the DataStore contract does not have (its package tests check it)",
  },
  {
    pairs: ['sqlite-data-store'],
    file: SQLITE_DATA_STORE,
    code: "if (typeof limit !== 'number' || !Number.isFinite(limit) || limit <= 0) {",
    exact: true,
    mutators: ['ConditionalExpression'],
    column: 7,
    reason: 'Number.isFinite is false for every non-number, so the type test decides nothing',
  },
  {
    pairs: ['sqlite-data-store'],
    file: SQLITE_DATA_STORE,
    code: 'return value.length === 0 ? undefined : value;',
    exact: true,
    mutators: ['ConditionalExpression'],
    reason:
      'an empty domain_tags list, which the contract does not define: this store reads it as no filter, as its manifest says',
  },
  {
    pairs: ['sqlite-data-store'],
    file: SQLITE_DATA_STORE,
    span: { from: 'function metadataToJson(', until: 'function toPortableData(' },
    code: '} catch (error) {',
    exact: true,
    mutators: ['BlockStatement', 'StringLiteral'],
    reason:
      "metadata JSON cannot carry (a bigint, a cycle): JavaScript-only values outside the contract's JSON, which a fixture-driven case cannot write",
  },
  {
    pairs: ['sqlite-data-store'],
    file: SQLITE_DATA_STORE,
    code: "throw storageValidationError('must be serialisable as JSON', 'entry.metadata', error);",
    exact: true,
    reason:
      "metadata JSON cannot carry (a bigint, a cycle): JavaScript-only values outside the contract's JSON, which a fixture-driven case cannot write",
  },
  {
    pairs: ['sqlite-data-store'],
    file: SQLITE_DATA_STORE,
    code: '...(row.score === undefined ? {} : { score: row.score + 0 }),',
    exact: true,
    mutators: ['ArithmeticOperator'],
    reason: 'the score is 0.0 − bm25, never −0, so adding or subtracting 0 gives the same number',
  },
  {
    pairs: ['sqlite-data-store'],
    file: SQLITE_DATA_STORE,
    code: '...(tags.length === 0 ? {} : { domain_tags: tags }),',
    exact: true,
    mutators: ['ConditionalExpression'],
    reason:
      'an empty domain_tags list and no domain_tags read the same to a consumer (PortableData allows either)',
  },
  {
    pairs: ['sqlite-data-store'],
    file: SQLITE_DATA_STORE,
    code: "name: 'data_store',",
    exact: true,
    mutators: ['StringLiteral'],
    reason:
      "the name the schema's migrations are recorded under inside the database file, which no consumer reads",
  },
  // skill-store.contract × FilesystemSkillStore
  {
    pairs: ['filesystem-skill-store'],
    file: FS_SKILL_STORE,
    span: { from: '  constructor(options: FilesystemSkillStoreOptions)', until: '  async manifest()' },
    reason:
      "the folder store's own constructor options (its folder, clock and default author), which the SkillStore contract does not have",
  },
  {
    pairs: ['filesystem-skill-store'],
    file: FS_SKILL_STORE,
    span: { from: 'function osUserName()', until: 'export const SKILL_NAME_PATTERN' },
    reason:
      "the folder store's default author, read from the operating system: its own option, which the SkillStore contract does not have",
  },
  {
    pairs: ['filesystem-skill-store'],
    file: FS_SKILL_STORE,
    code: "return { capabilities_version: '1', manifest: { kind: 'filesystem', root_dir: this.dir } };",
    exact: true,
    mutators: ['StringLiteral'],
    reason:
      "the manifest's capabilities_version, whose value the contract does not fix (the suite reads kind)",
  },
  ...sameReason({ pairs: ['filesystem-skill-store'], file: FS_SKILL_STORE, reason: EDITED_OUTSIDE }, [
    "if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];",
    'if (logDescribesFile(entries, meta.content_hash)) return [...entries];',
    'const current: VersionInfo = {',
    'return [...entries, current];',
    "export const VERSION_LOG_SUFFIX = '.versions.jsonl';",
    'created_at: entries[0]?.changed_at ?? file.modifiedAt,',
    'updated_at: current && last !== undefined ? last.changed_at : file.modifiedAt,',
    'const last = entries.at(-1);',
    'return entries.at(-1)?.content_hash === contentHash;',
  ]),
  ...sameReasonSpans(
    {
      pairs: ['filesystem-skill-store'],
      file: FS_SKILL_STORE,
      reason: EDITED_OUTSIDE,
    },
    [
      { from: 'export async function readSkillFile(', until: 'export async function skillFileExists(' },
      { from: 'export async function skillFileExists(', until: 'const SPACE = ' },
      { from: 'export async function readVersionLog(', until: 'export async function appendVersionEntry(' },
      { from: 'export async function readLastLogLine(', until: '/**' },
      { from: 'export async function folderChangeToken(' },
      { from: 'export function logDescribesFile(', until: 'function statusChangedAt(' },
    ],
  ),
  ...sameReason({ pairs: ['filesystem-skill-store'], file: FS_SKILL_STORE, reason: FOLDER_NAME_RULE }, [
    "'name contains characters unsafe for filesystem path',",
    'if (!isStorableSkillName(name)) throw new SkillNotFoundError(name, IMPLEMENTATION);',
  ]),
  ...sameReason({ pairs: ['filesystem-skill-store'], file: FS_SKILL_STORE, reason: BODY_PROJECTION }, [
    "const SPACE = '[^\\\\S\\\\n\\\\r\\\\u2028\\\\u2029]';",
    "const DESCRIPTION_LINE = new RegExp(`^#${SPACE}*Description${SPACE}*:${SPACE}*(.+?)${SPACE}*$`, 'm');",
    'if (description !== undefined) meta.description = description;',
  ]),
  ...sameReasonSpans(
    {
      pairs: ['filesystem-skill-store'],
      file: FS_SKILL_STORE,
      code: '} catch (error) {',
      exact: true,
      reason: EDITED_OUTSIDE,
    },
    [
      { from: '  async query(filter?: SkillFilter)', until: '  async versions(name: string)' },
      { from: 'async function unlinkIfPresent(', until: 'function osUserName()' },
    ],
  ),
  ...sameReason({ pairs: ['filesystem-skill-store'], file: FS_SKILL_STORE, reason: EDITED_OUTSIDE }, [
    "if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;",
    'if (read !== undefined) metas.push(read.meta);',
  ]),
  {
    pairs: ['filesystem-skill-store'],
    file: FS_SKILL_STORE,
    code: 'const selected = metas',
    exact: true,
    mutators: ['MethodExpression'],
    reason:
      'the order query() lists skills in (this mutant drops the sort), which the contract leaves to the store: the suite asks for one order that paging keeps, and readdir gives one',
  },

  {
    pairs: ['filesystem-skill-store'],
    file: FS_SKILL_STORE,
    code: 'const log = existing === undefined ? EMPTY_VERSION_LOG : await readVersionLog(paths.log);',
    exact: true,
    mutators: ['ConditionalExpression'],
    reason:
      'reading the log of a skill that has no file yet finds none (ENOENT), the empty log this shortcut gives',
  },
  {
    pairs: ['filesystem-skill-store'],
    file: FS_SKILL_STORE,
    code: "export const EMPTY_VERSION_LOG: VersionLog = Object.freeze({ entries: Object.freeze([]), completeText: '' });",
    exact: true,
    mutators: ['ArrayDeclaration'],
    reason:
      "the entries of an absent log while a first write is judged: the write appends to the log's complete text (empty), and a first write has no earlier author or status to read from them",
  },
  ...sameReason(
    {
      pairs: ['filesystem-skill-store'],
      file: FS_SKILL_STORE,
      reason:
        "previous_status and changed_by on the version entries store() writes: the contract's audit trail is update_status()'s previous_status (update-status.previous-status); these are extra",
    },
    [
      '...(previousStatus === undefined ? {} : { previous_status: previousStatus }),',
      '...(author === undefined ? {} : { changed_by: author }),',
    ],
  ),
  {
    pairs: ['filesystem-skill-store'],
    file: FS_SKILL_STORE,
    span: { from: 'function statusChangedAt(', until: 'export function buildSkillMeta(' },
    reason:
      'status_changed_at, an optional field: the suite checks its unit; which write changed the status would take writes a second apart to tell (timestamps are whole seconds)',
  },
  {
    pairs: ['filesystem-skill-store'],
    file: FS_SKILL_STORE,
    code: 'if (statusSince !== undefined) meta.status_changed_at = statusSince;',
    exact: true,
    reason: 'status_changed_at, an optional field of SkillMeta (the suite checks its unit when present)',
  },
  {
    pairs: ['filesystem-skill-store'],
    file: FS_SKILL_STORE,
    code: 'if (author !== undefined) meta.author = author;',
    exact: true,
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason: 'an author key holding undefined, which reads as no author (JSON drops it)',
  },
  ...sameReason(
    {
      pairs: ['filesystem-skill-store'],
      file: FS_SKILL_STORE,
      mutators: ['ConditionalExpression'],
      reason:
        'an absent filter key spread as undefined (or a pattern compiled from undefined, which matches every name) reads as absent',
    },
    [
      '...(parsed.name_pattern === undefined ? {} : { namePattern: compileNamePattern(parsed.name_pattern) }),',
      '...(parsed.since === undefined ? {} : { since: parsed.since }),',
      '...(parsed.limit === undefined ? {} : { limit: parsed.limit }),',
    ],
  ),
  {
    pairs: ['filesystem-skill-store'],
    file: FS_SKILL_STORE,
    code: '(author === undefined || meta.author === author),',
    exact: true,
    reason:
      'the author filter, which the contract lets a store honour exactly or ignore (query.author fails a looser match)',
  },
  ...sameReasonSpans(
    {
      pairs: ['filesystem-skill-store'],
      file: FS_SKILL_STORE,
      mutators: ['BlockStatement', 'UnaryOperator'],
      reason:
        'the order query() lists skills in, which the contract leaves to the store: the suite asks for one order that paging keeps, and readdir gives one',
    },
    [{ from: 'export function compareNames(', until: 'export function selectSkills(' }],
  ),
  {
    pairs: ['filesystem-skill-store'],
    file: FS_SKILL_STORE,
    code: '.sort((left, right) => compareNames(left.name, right.name));',
    exact: true,
    mutators: ['ArrowFunction', 'MethodExpression'],
    reason:
      'the order query() lists skills in, which the contract leaves to the store: the suite asks for one order that paging keeps, and readdir gives one',
  },
  ...[
    ["throw storageValidationError('must be a string', 'version');", 36],
    ["if (typeof source !== 'string') throw storageValidationError('must be a string', 'source');", 66],
    ["if (typeof name !== 'string') throw storageValidationError('must be a string', 'name');", 62],
    ['`is not a valid regular expression: ${(error as Error).message}`,', 7],
  ].map(([code, column]) => ({
    pairs: ['filesystem-skill-store'],
    file: FS_SKILL_STORE,
    code: String(code),
    exact: true,
    mutators: ['StringLiteral'],
    column: Number(column),
    reason: WORDING,
  })),
  {
    pairs: ['filesystem-skill-store'],
    file: FS_SKILL_STORE,
    code: 'supports_atomic_status_transitions: false,',
    exact: true,
    mutators: ['BooleanLiteral'],
    reason: 'a feature no case can observe: whether two concurrent status changes are applied atomically',
  },
  {
    pairs: ['filesystem-skill-store'],
    file: FS_SKILL_STORE,
    code: 'if (lockedAuthor !== undefined && input.author !== undefined && input.author !== lockedAuthor) {',
    exact: true,
    reason:
      "an overwrite naming another author: the contract keeps the first writer's author (store.overwrite-keeps-author) and leaves a store free to refuse the overwrite or to keep the author silently",
  },
  {
    pairs: ['filesystem-skill-store'],
    file: FS_SKILL_STORE,
    code: "`the author is locked by the first write ('${lockedAuthor}'), the write names '${input.author}'`,",
    exact: true,
    reason: WORDING,
  },
  {
    pairs: ['filesystem-skill-store'],
    file: FS_SKILL_STORE,
    code: '...(parsed.author === undefined ? {} : { author: parsed.author }),',
    exact: true,
    reason:
      'the author filter, which the contract lets a store honour exactly or ignore (query.author fails a looser match)',
  },
  ...sameReason(
    {
      pairs: ['filesystem-skill-store'],
      file: FS_SKILL_STORE,
      mutators: ['ConditionalExpression', 'EqualityOperator'],
      reason:
        'comparing two names of a list: the names of one folder are distinct, so the equal case never decides and < and <= order them alike',
    },
    ['if (left === right) return 0;', 'return left < right ? -1 : 1;'],
  ),
  // agent-connector.contract + webhook-wire × HttpWebhookAgentConnector
  {
    pairs: ['webhook-connector'],
    file: WEBHOOK,
    span: {
      from: '  async deliver(agent_id: string, payload: DeliveryPayload)',
      until: '    parseDeliveryPayload(payload);',
    },
    code: '{',
    exact: true,
    mutators: ['ObjectLiteral'],
    reason: SDK_AGENT_ID_REFUSAL,
  },
  {
    pairs: ['webhook-connector'],
    file: WEBHOOK,
    code: "if (wakeOpts.context === undefined || wakeOpts.context === '') {",
    exact: true,
    mutators: ['ConditionalExpression', 'StringLiteral'],
    reason:
      'an empty context on a wake without wake_url: delivering an empty augment or nothing both answer woken: false, and the contract says nothing of an empty context',
  },
  {
    pairs: ['webhook-connector'],
    file: WEBHOOK,
    span: { from: 'function encodeBody(', until: 'function isTimeout(' },
    reason:
      "a request body JSON cannot carry (a bigint or a cycle in meta): JavaScript-only values, which a delivery checked against the contract's schemas never holds",
  },
  {
    pairs: ['webhook-connector'],
    file: WEBHOOK,
    span: { from: 'function isTimeout(', until: '/**' },
    mutators: ['OptionalChaining', 'ConditionalExpression', 'EqualityOperator'],
    reason:
      "an AbortError or a thrown null, which fetch gives only for an abort signal other than the connector's own timeout (a TimeoutError, which substrate-stalled checks)",
  },
  {
    pairs: ['webhook-connector'],
    file: WEBHOOK,
    code: 'features: { deliver: true, wake: true, list_agents: true, health_check: true },',
    exact: true,
    mutators: ['BooleanLiteral'],
    column: 79,
    reason:
      'health_check is a method every connector answers, so the cases run whatever the flag says; the flag only advertises it',
  },
  // skill-store.contract × SqliteSkillStore
  {
    pairs: ['sqlite-skill-store'],
    file: SQLITE_SKILL_STORE,
    span: { from: '  constructor(options: SqliteSkillStoreOptions)', until: '  /**' },
    reason:
      "the SQLite skill store's own constructor options (a file or a database, secured mode and its signature test) and closing a database it opened when a migration fails: the SkillStore contract has no constructor",
  },
  ...sameReason({ pairs: ['sqlite-skill-store'], file: SQLITE_SKILL_STORE, reason: SECURED_MODE }, [
    "if (this.#secured && target === 'Approved') {",
    'if (!this.#isSigned(row.source)) throw approvalRequiredError(name, IMPLEMENTATION);',
    "if (this.#secured && requested === 'Approved' && !this.#isSigned(body)) {",
    "return { status: 'Draft', body: withStatusHeader(body, 'Draft') };",
  ]),
  {
    pairs: ['sqlite-skill-store'],
    file: SQLITE_SKILL_STORE,
    span: { from: 'export function hasApprovalSignature(' },
    reason: SECURED_MODE,
  },
  {
    pairs: ['sqlite-skill-store'],
    file: SQLITE_SKILL_STORE,
    span: { from: 'const DESCRIPTION_LINE =', until: 'export function hasApprovalSignature(' },
    reason: BODY_PROJECTION,
  },
  {
    pairs: ['sqlite-skill-store'],
    file: SQLITE_SKILL_STORE,
    code: 'description: input.description ?? descriptionOfSkill(body) ?? null,',
    exact: true,
    reason: BODY_PROJECTION,
  },
  {
    pairs: ['sqlite-skill-store'],
    file: SQLITE_SKILL_STORE,
    span: { from: '  close(): void {', until: '  /** The status and body a write persists' },
    reason:
      "close() and the store_closed refusal after it: the SQLite store's own lifecycle, which the SkillStore contract does not have (its package tests check it)",
  },
  {
    pairs: ['sqlite-skill-store'],
    file: SQLITE_SKILL_STORE,
    code: 'if (this.#closed || !this.#database.open) throw storeClosedError(IMPLEMENTATION);',
    exact: true,
    reason:
      "close() and the store_closed refusal after it: the SQLite store's own lifecycle, which the SkillStore contract does not have (its package tests check it)",
  },
  {
    pairs: ['sqlite-skill-store'],
    file: SQLITE_SKILL_STORE,
    span: { from: '  async manifest()', until: '  close(): void {' },
    mutators: ['StringLiteral'],
    reason:
      "the manifest's descriptive text (tag_filter_semantic) and its capabilities_version, which the contract gives no values for; the filters it lists are checked",
  },
  ...sameReason(
    {
      pairs: ['sqlite-skill-store'],
      file: SQLITE_SKILL_STORE,
      reason:
        "an overwrite naming another author: the contract keeps the first writer's author (store.overwrite-keeps-author) and leaves a store free to refuse the overwrite or to keep the author silently",
    },
    [
      'if (existing?.author != null && input.author !== undefined && input.author !== existing.author) {',
      "`author is locked at '${existing.author}'; refusing '${input.author}'`,",
    ],
  ),
  {
    pairs: ['sqlite-skill-store'],
    file: SQLITE_SKILL_STORE,
    code: 'if (valid.author !== undefined) {',
    exact: true,
    reason:
      'the author filter, which the contract lets a store honour exactly or ignore (query.author fails a looser match)',
  },
  {
    pairs: ['sqlite-skill-store'],
    file: SQLITE_SKILL_STORE,
    code: 'const pattern = valid.name_pattern === undefined ? undefined : compilePattern(valid.name_pattern);',
    exact: true,
    mutators: ['ConditionalExpression'],
    reason: 'a pattern compiled from an absent name_pattern matches every name, as no pattern does',
  },
  {
    pairs: ['sqlite-skill-store'],
    file: SQLITE_SKILL_STORE,
    code: 'pattern === undefined && (valid.limit !== undefined || offset > 0)',
    exact: true,
    reason:
      'where a page is cut, in SQL or after the name pattern in JavaScript: the same rows in the same order give the same page',
  },
  ...sameReason(
    {
      pairs: ['sqlite-skill-store'],
      file: SQLITE_SKILL_STORE,
      reason:
        "previous_status and changed_by on the revisions store() records: the contract's audit trail is update_status()'s previous_status (update-status.previous-status); these are extra",
    },
    ['changed_by: author ?? undefined,', 'revision.previous_status ?? null,', 'revision.changed_by ?? null,'],
  ),
  {
    pairs: ['sqlite-skill-store'],
    file: SQLITE_SKILL_STORE,
    code: 'existing !== undefined && existing.status === status ? existing.status_changed_at : changed_at,',
    exact: true,
    reason:
      'status_changed_at, an optional field: the suite checks its unit; which write changed the status would take writes a second apart to tell (timestamps are whole seconds)',
  },
  ...sameReason(
    {
      pairs: ['sqlite-skill-store'],
      file: SQLITE_SKILL_STORE,
      mutators: ['ConditionalExpression', 'ObjectLiteral'],
      reason:
        'author and changed_by left out: SkillMeta leaves author absent on substrates without authorship, and changed_by is an extra of the audit trail (update-status.previous-status checks its contract part)',
    },
    [
      '...(row.author === null ? {} : { author: row.author }),',
      '...(row.changed_by === null ? {} : { changed_by: row.changed_by }),',
    ],
  ),
  {
    pairs: ['sqlite-skill-store'],
    file: SQLITE_SKILL_STORE,
    code: '...(row.description === null ? {} : { description: row.description }),',
    exact: true,
    reason: BODY_PROJECTION,
  },
  ...sameReason(
    {
      pairs: ['sqlite-skill-store'],
      file: SQLITE_SKILL_STORE,
      mutators: ['ConditionalExpression', 'EqualityOperator'],
      reason:
        'the projections written with store() (vars, returns, requires, triggers, outputs, type) left out: the contract lets a store omit them (the runtime re-derives them), and metadata.round-trip fails a store that changes one',
    },
    [
      'projections: Object.keys(projections).length === 0 ? null : JSON.stringify(projections),',
      'for (const key of PROJECTION_KEYS) if (input[key] !== undefined) projections[key] = input[key];',
      'const projections = row.projections_json === null ? {} : (JSON.parse(row.projections_json) as Projections);',
    ],
  ),
  {
    pairs: ['sqlite-skill-store'],
    file: SQLITE_SKILL_STORE,
    code: '...(tags.length === 0 ? {} : { tags }),',
    exact: true,
    mutators: ['ConditionalExpression'],
    reason: 'an empty tags list and no tags read the same to a consumer (SkillMeta allows either)',
  },
  ...[
    [SQLITE_SKILL_STORE, 'sqlite-skill-store'],
    [FS_SKILL_STORE, 'filesystem-skill-store'],
  ].map(([file, pair]) => ({
    pairs: [pair],
    file,
    code: "if (typeof source !== 'string') throw storageValidationError('must be a string', 'source');",
    exact: true,
    mutators: ['ConditionalExpression'],
    reason:
      'a guard the storage kit repeats: hashing the source refuses a non-string with the same storage_validation at source',
  })),
  {
    pairs: ['sqlite-skill-store'],
    file: SQLITE_SKILL_STORE,
    code: "name: 'skill_store',",
    exact: true,
    mutators: ['StringLiteral'],
    reason:
      "the name the schema's migrations are recorded under inside the database file, which no consumer reads",
  },
  {
    pairs: ['sqlite-skill-store'],
    file: SQLITE_SKILL_STORE,
    code: 'supports_atomic_status_transitions: true,',
    exact: true,
    mutators: ['BooleanLiteral'],
    reason: 'a feature no case can observe: whether two concurrent status changes are applied atomically',
  },
  ...[
    ["if (typeof version !== 'string') throw storageValidationError('must be a string', 'version');", 67],
    ["if (typeof source !== 'string') throw storageValidationError('must be a string', 'source');", 66],
    ["if (typeof name !== 'string') throw storageValidationError('must be a string', 'name');", 62],
    ["if (typeof name !== 'string') throw storageValidationError('must be a string', 'name');", 64],
    ["throw storageValidationError('must be a valid regular expression', 'filter.name_pattern', error);", 34],
    ["if (name === '') reason = 'name must not be empty';", 29],
    ["else if (/[\\n\\r]/.test(name)) reason = 'name must not contain a line break';", 42],
    ["else if (/\\p{Cs}/u.test(name)) reason = 'name must not contain a lone UTF-16 surrogate';", 43],
  ].map(([code, column]) => ({
    pairs: ['sqlite-skill-store'],
    file: SQLITE_SKILL_STORE,
    code: String(code),
    exact: true,
    mutators: ['StringLiteral'],
    column: Number(column),
    reason: WORDING,
  })),
  ...[
    '#sortedPins(): string[] {',
    'return [...this.#pins].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));',
  ].map((code) => ({
    pairs: ['blob-store'],
    file: BLOB_STORE,
    code,
    exact: true,
    mutators: [
      ...CONDITION_MUTATORS,
      'ArrayDeclaration',
      'MethodExpression',
      'ArrowFunction',
      'UnaryOperator',
    ],
    reason:
      'the pins handed to the backend to persist, which the memory backend does not keep (pins live in the store’s own index); FilesystemBlobStore persists them, in its package tests',
  })),
  ...[
    "'capacityBytes must be a non-negative safe integer',",
    "throw new HearthNetLocalError('invalid_blob_store_options', 'hasher must be a blake3 or sha256 Hasher');",
    "'chunkSizeBytes must be a positive safe integer',",
    "throw new HearthNetLocalError('invalid_blob_store_options', 'onEvent must be a function');",
  ].map((code) => ({
    pairs: ['blob-store'],
    file: BLOB_STORE,
    code,
    exact: true,
    mutators: ['StringLiteral'],
    reason: WORDING,
  })),
  ...["typeof hasher !== 'object' ||", 'hasher === null ||', "typeof hasher.digest !== 'function'"].map(
    (code) => ({
      pairs: ['blob-store'],
      file: BLOB_STORE,
      code,
      exact: true,
      mutators: ['ConditionalExpression', 'LogicalOperator'],
      reason: OWN_HASHER,
    }),
  ),
  ...[
    "throw new HearthNetLocalError('invalid_blob_store_input', `invalid bytes: must be a Uint8Array`, {",
    "throw new HearthNetLocalError('chunk_mismatch', `chunk bytes hash to ${actual}, not ${cid}`, {",
    "throw new HearthNetLocalError('invalid_blob_store_input', `invalid options.pin: must be a boolean`, {",
    "throw new HearthNetLocalError('invalid_blob_store_input', `invalid prefix: must be a string`, {",
    '`invalid targetBytes: must be a non-negative safe integer`,',
    '`invalid blob manifest at chunks: a manifest with this blob cid and another chunk order is stored`,',
    '`invalid blob manifest at chunks[${index}].size_bytes: the chunk with this cid is held with ${heldSize} bytes`,',
    "`blob ${manifest.cid} is missing ${missing.length} chunk(s): ${missing.slice(0, 10).join(', ')}`,",
    '`blob store is full: ${requestedBytes} more bytes do not fit in ${capacity} ` +',
    '`(${this.#usedBytes} held) even after collecting every unpinned blob`,',
  ].map((code) => ({
    pairs: ['blob-store'],
    file: BLOB_STORE,
    code,
    exact: true,
    mutators: ['StringLiteral', 'MethodExpression'],
    replacement: '`',
    reason: WORDING,
  })),
  {
    pairs: ['blob-store'],
    file: BLOB_STORE,
    code: "`blob ${manifest.cid} is missing ${missing.length} chunk(s): ${missing.slice(0, 10).join(', ')}`,",
    exact: true,
    mutators: ['StringLiteral', 'MethodExpression'],
    reason: `${WORDING} (the missing chunks it lists; details.missing carries them all)`,
  },
  {
    pairs: ['webhook-connector'],
    file: WEBHOOK,
    code: 'return followed.response.status >= 200 && followed.response.status < 300;',
    exact: true,
    mutators: ['ConditionalExpression', 'EqualityOperator'],
    reason:
      'fetch never answers with a status below 200, and a 300 never gets here (a 3xx is a redirect, followed or refused before): only the test of < 300 against 2xx and 4xx/5xx decides',
  },
  {
    pairs: ['webhook-connector'],
    file: WEBHOOK,
    code: "if ('refused' in followed) return false;",
    exact: true,
    mutators: ['ConditionalExpression', 'StringLiteral'],
    reason:
      'without the test, a refused redirect reaches response.body of nothing and throws, and a probe that throws reads as unhealthy too: false either way',
  },
  {
    pairs: ['webhook-connector'],
    file: WEBHOOK,
    span: { from: 'function parseBody(', until: 'function isTimestamp(' },
    code: '} catch {',
    mutators: ['BlockStatement'],
    reason:
      'a body that is not JSON read as undefined instead of {}: both make the bare receipt (neither is an object with receipt fields), as the non-json-body and truncated-json cases check',
  },
  {
    pairs: ['blob-store'],
    file: BLOB_STORE,
    code: 'async deleteChunk(hex: string): Promise<void> {',
    exact: true,
    mutators: ['BlockStatement'],
    reason:
      "the memory backend's delete frees memory only: the store's own index forgets the collected chunk, and reads, lists and sizes go by the index",
  },
  // relay.tokens × the token functions
  ...[
    '{ path },',
    "{ path: 'now' },",
    "assertString(message, 'message');",
    "assertString(secret, 'secret');",
    "return bytesToHex(hmacSha256(utf8Strict(secret, 'secret'), utf8Strict(message, 'message')));",
    "assertString(payload, 'payload');",
    "assertSafeInteger(ttlSeconds, 'ttlSeconds');",
    "utf8Strict(payload, 'payload');",
    "utf8Strict(secret, 'secret');",
    "{ path: 'ttlSeconds' },",
    "return encodeBase64Url(utf8Strict(`${signed}:${relaySign(signed, secret)}`, 'payload'));",
    "assertString(gatewayId, 'gatewayId');",
    "path: 'secret',",
    "path: 'token',",
    "{ path: 'token' },",
    "{ path: 'token.exp' },",
    "path: 'token.signature',",
    "assertSafeInteger(skew, 'skewSeconds', 0);",
    "{ path: 'secrets' },",
    'const path = `secrets[${i}]`;',
  ].map((code) => ({
    pairs: ['relay-tokens'],
    file: AUTH,
    code,
    exact: true,
    mutators: ['StringLiteral', 'ObjectLiteral'],
    reason:
      'the `path` of a refusal, which the language-neutral tokens fixture does not fix (argument names differ between languages); the fixture fixes the error code',
  })),
  ...[
    '`${path} must be a string, got ${describeType(value)}`,',
    "const range = min === undefined ? 'a safe integer' : `a safe integer \u2265 ${min}`;",
    "`${path} must be ${range}, got ${typeof value === 'number' ? value : describeType(value)}`,",
    "`now must be a finite, non-negative number of unix seconds, got ${typeof now === 'number' ? now : describeType(now)}`,",
    '`${path} holds an unpaired surrogate at index ${match.index}, which has no UTF-8 form`,',
    '`now + ttlSeconds (${exp}) is beyond the safe integer range`,',
    "'the decoded token has fewer than three `:`-separated parts',",
    '`exp ${JSON.stringify(expText)} is not a canonical decimal number of unix seconds`,',
    "return rejected('missing', 'no token was presented');",
    "return rejected('no_usable_secret', 'the verify list holds no non-empty secret');",
    "if (secretIndex < 0) return rejected('bad_signature', 'no secret in the verify list signed this token');",
    "return rejected('expired', `the token expired at ${parsed.expiresAt}; now is ${now}`);",
    '`secrets must be an array of strings, got ${describeType(secrets)}`,',
    '`${path} must be a string, got ${describeType(secret)}`,',
  ].map((code) => ({
    pairs: ['relay-tokens'],
    file: AUTH,
    code,
    exact: true,
    mutators: [...CONDITION_MUTATORS, 'StringLiteral'],
    reason: `${WORDING}; or of a verdict's detail, which the fixture does not fix (it fixes valid, reason and the close)`,
  })),
  ...[
    "throw new RelayError('relay_token_malformed', 'a token must be a string', { path: 'token' });",
    "'relay_token_invalid_argument',",
    'export function assertString(value: unknown, path: string): asserts value is string {',
    "if (typeof value !== 'string') {",
    'if (now === undefined) return Math.floor(Date.now() / 1000);',
    "if (typeof token !== 'string')",
    'if (!Array.isArray(secrets)) {',
    "if (typeof secret !== 'string') {",
  ].map((code) => ({
    pairs: ['relay-tokens'],
    file: AUTH,
    code,
    exact: true,
    mutators: [...CONDITION_MUTATORS, 'StringLiteral', 'ObjectLiteral'],
    reason:
      "unreachable through the tokens suite: its fixture hands strings, string lists and a clock to every call; these are the SDK's guards for JavaScript callers",
  })),
  {
    pairs: ['relay-tokens'],
    file: AUTH,
    span: {
      from: 'export function assertString(',
      until: 'Throws a `RelayError` `relay_token_invalid_argument` unless `value` is a safe',
    },
    code: '{',
    exact: true,
    mutators: ['ObjectLiteral'],
    reason:
      "the path of the refusal of a non-string argument: unreachable through the tokens suite, whose fixture hands strings to every call (the SDK's guard for JavaScript callers)",
  },
  {
    pairs: ['relay-tokens'],
    file: AUTH,
    code: "if (typeof value !== 'number' || !Number.isSafeInteger(value) || (min !== undefined && value < min)) {",
    exact: true,
    mutators: ['ConditionalExpression', 'EqualityOperator'],
    reason:
      'Number.isSafeInteger is false for every non-number (the type test decides nothing); the lower bound is that of skewSeconds, and a negative skew, which the reference takes as an earlier expiry and this SDK refuses as an argument, has no verdict in the contract',
  },
  {
    pairs: ['relay-tokens'],
    file: AUTH,
    code: "if (typeof now !== 'number' || !Number.isFinite(now) || now < 0 || now > Number.MAX_SAFE_INTEGER) {",
    exact: true,
    mutators: ['ConditionalExpression', 'LogicalOperator', 'EqualityOperator'],
    reason:
      'a clock that is not a finite number (which JSON cannot hold) or past 2^53 − 1 seconds, 285 million years from now: the contract has no verdict for it, and the SDK refuses it as an argument (make-upgrade-token-negative-clock-refused checks the refusal a real clock can reach)',
  },
  ...sameReason(
    {
      pairs: ['relay-tokens'],
      file: AUTH,
      mutators: ['StringLiteral', 'ObjectLiteral'],
      reason: `${WORDING}; and its path, which the language-neutral fixture does not fix (it fixes the code)`,
    },
    [
      "throw new RelayError('relay_secret_empty', 'secret is empty; no verifier accepts such a token', {",
      "throw new RelayError('relay_token_malformed', `the token is not unpadded base64url: ${bytes.refused}`, {",
      "throw new RelayError('relay_token_malformed', 'the decoded token is not valid UTF-8', {",
      "throw new RelayError('relay_token_malformed', 'the signature is not 64 lowercase hex characters', {",
    ],
  ),
  {
    pairs: ['relay-tokens'],
    file: AUTH,
    code: "if (token === undefined || token === null || token === '') {",
    exact: true,
    mutators: ['ConditionalExpression', 'LogicalOperator'],
    reason:
      "no token given as undefined or null (an absent header), which a JSON fixture's string token cannot express; the empty-token verify cases check the missing verdict",
  },
  ...[
    "if (token === '') throw new RelayError('relay_token_malformed', 'the token is empty', { path: 'token' });",
    'if (!(bytes instanceof Uint8Array)) {',
    "const expColon = sigColon > 0 ? text.lastIndexOf(':', sigColon - 1) : -1;",
    'if (expColon < 0) {',
    "if (error instanceof RelayError && error.code === 'relay_token_malformed')",
  ].map((code) => ({
    pairs: ['relay-tokens'],
    file: AUTH,
    code,
    exact: true,
    mutators: [...CONDITION_MUTATORS, 'StringLiteral', 'ObjectLiteral', 'UnaryOperator'],
    reason:
      'a guard a later check repeats: an empty, non-base64url or two-part token is still refused as relay_token_malformed (by the UTF-8, part or exp check), so only the detail changes',
  })),
  ...[
    'if (a.length !== b.length) return false;',
    'for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;',
  ].map((code) => ({
    pairs: ['relay-tokens'],
    file: AUTH,
    code,
    exact: true,
    mutators: ['ConditionalExpression', 'BooleanLiteral', 'EqualityOperator'],
    reason:
      'the two sides are always 32-byte HMAC-SHA-256 digests, so their lengths never differ and index 32 of both is undefined',
  })),
  // Skill stores, after the overwrite-status and built-in-name cases (suite 1.1.0)
  {
    pairs: ['filesystem-skill-store'],
    file: FS_SKILL_STORE,
    code: 'return entries.find((entry) => entry.changed_by !== undefined)?.changed_by;',
    exact: true,
    mutators: ['ConditionalExpression'],
    reason:
      'a version log whose first entry has no author: the store writes one on every entry unless it is built with defaultAuthor: null, a constructor option the SkillStore contract does not have (the bundled run uses the default, the OS user)',
  },
  ...[
    ['ConditionalExpression', 7],
    ['StringLiteral', 18],
  ].map(([mutator, column]) => ({
    pairs: ['filesystem-skill-store'],
    file: FS_SKILL_STORE,
    code: "if (status === 'Approved' || statusOfSkill(source) !== status) return withStatusHeader(source, status);",
    exact: true,
    mutators: [mutator],
    column,
    reason:
      'whether an Approved body whose header already reads as Approved (`# Status: approved`, a header with a token after it) is written with the bare `# Status: Approved` header or as given: it reads as Approved either way, and the contract fixes no header form beyond the status it reads as',
  })),
  {
    pairs: ['sqlite-skill-store'],
    file: SQLITE_SKILL_STORE,
    span: { from: 'function tagsOfBag(' },
    reason:
      "tags read from metadata_bag.tags when a write gives no tags of its own, the shape callers of the reference store used: the SkillStore contract's tags are SkillMetaInput.tags, and the suite writes them there",
  },
];
