import { isPythonTruthy, pythonStr } from '@agentwire/internal';
import { RelayError } from './errors.js';
import { isJsonValue, type JsonValue } from './json.js';
import { pythonStrip } from './python.js';

/**
 * A value a source field can hold once the gateway has read it from JSON. `undefined` (absent)
 * behaves like `null` (Python `None`). A `number` stands for a Python `int` when it is an integer and
 * for a Python `float` otherwise; use `bigint` for integers beyond ±(2^53 − 1).
 */
export type SessionKeyScalar = string | number | bigint | boolean | null | undefined;

/** True for the values {@link keyPartStr} can render; the check callers run on untrusted input. */
export function isSessionKeyScalar(value: unknown): value is SessionKeyScalar {
  switch (typeof value) {
    case 'string':
    case 'bigint':
    case 'boolean':
    case 'undefined':
      return true;
    case 'number':
      return !Number.isInteger(value) || Number.isSafeInteger(value);
    default:
      return value === null;
  }
}

/**
 * What a source field the key reads can hold: a {@link SessionKeyScalar}, or JSON data (an array or
 * object, which the gateway renders with Python's `str()`, e.g. `['9001']`).
 */
export type SessionKeyValue = SessionKeyScalar | JsonValue;

/**
 * Python's `str()` of a source field, as the gateway's `":".join(str(part) ...)` renders it (arrays and
 * objects in `repr` form: `{'a': 1}`).
 *
 * @throws {RelayError} `invalid_session_source`: for an integral `number` beyond ±(2^53 − 1), also inside an
 * array or object: JavaScript cannot tell which Python `int` (or whether a `float` such as `1e+16`) it
 * came from.
 */
export function keyPartStr(value: SessionKeyValue, path: string): string {
  if (holdsUnsafeInteger(value)) {
    throw new RelayError(
      'invalid_session_source',
      `${path} is or holds an integral number beyond the safe integer range: pass a bigint or a string`,
      { path },
    );
  }
  return pythonStr(value);
}

function holdsUnsafeInteger(value: SessionKeyValue): boolean {
  if (typeof value === 'number') return Number.isInteger(value) && !Number.isSafeInteger(value);
  if (typeof value !== 'object' || value === null) return false;
  const members: readonly JsonValue[] = Array.isArray(value) ? value : Object.values(value);
  return members.some(holdsUnsafeInteger);
}

// The characters the gateway's LID-mapping walk accepts in an identifier; anything else is skipped,
// and an identifier whose only alias is skipped leaves the walk empty.
const RESOLVABLE_IDENTIFIER = /^[A-Za-z0-9@.+-]+$/;

/**
 * The gateway's WhatsApp normalisation: the text form of the value (falsy → `""`), stripped of
 * Python whitespace, the first `+` anywhere removed, then cut at the first `:` and at the first `@`.
 *
 * @example
 * normalizeWhatsAppIdentifier('+60123456789:47@s.whatsapp.net'); // '60123456789'
 */
export function normalizeWhatsAppIdentifier(value: SessionKeyValue, path = 'identifier'): string {
  const text = pythonStrip(isPythonTruthy(value) ? keyPartStr(value, path) : '').replace('+', '');
  return cutAtFirst(cutAtFirst(text, ':'), '@');
}

/**
 * The identity the gateway keys a WhatsApp DM chat or group participant under, assuming no
 * LID-mapping files exist on the gateway host (a fresh bridge). Those files live on the gateway and
 * can map a phone id and a LID onto each other; with them the gateway picks the shortest alias of the
 * mapped set, which no connector can know. `""` when the value normalises to nothing.
 *
 * The gateway normalises twice (once itself, once again inside its alias walk), so `"++60"` becomes
 * `"60"` and `" + 60"` becomes `"60"`.
 *
 * @throws {RelayError} `whatsapp_identifier_unresolvable`: where the gateway crashes: the second
 * normalisation is empty, or contains a character outside `[A-Za-z0-9@.+-]` (a space, `/`, `_`, non-ASCII).
 * @example
 * canonicalWhatsAppIdentifier('60123456789@s.whatsapp.net'); // '60123456789'
 * canonicalWhatsAppIdentifier('@lid'); // ''
 */
export function canonicalWhatsAppIdentifier(value: SessionKeyValue, path = 'identifier'): string {
  const normalized = normalizeWhatsAppIdentifier(value, path);
  if (normalized === '') return '';
  const alias = normalizeWhatsAppIdentifier(normalized, path);
  if (!RESOLVABLE_IDENTIFIER.test(alias)) {
    throw new RelayError(
      'whatsapp_identifier_unresolvable',
      `WhatsApp identifier in ${path} normalises to ${JSON.stringify(normalized)}, which the gateway cannot resolve (it crashes on this source)`,
      { path, details: { normalized } },
    );
  }
  return alias;
}

function cutAtFirst(text: string, separator: string): string {
  const index = text.indexOf(separator);
  return index === -1 ? text : text.slice(0, index);
}

/**
 * Which gateway revision's `build_session_key` to reproduce.
 *
 * - `baseline-2026-07-26` (default): upstream `main` of 2026-07-26, the revision the reference
 *   vectors were produced by running.
 * - `upstream-2026-09-21`: the newer upstream body, confirmed upstream on 2026-09-21 but not run.
 *   It differs in exactly two ways: the profile `main` gets the namespace `agent:main~` (so it cannot
 *   share the default profile's `agent:main`), and a non-DM source with no `thread_id` but a
 *   `prospective_thread_id` is keyed on that thread with the chat-type slot `thread`.
 */
export type SessionKeyDialect = 'baseline-2026-07-26' | 'upstream-2026-09-21';

/** The dialects {@link buildSessionKey} accepts, default first. */
export const SESSION_KEY_DIALECTS: readonly SessionKeyDialect[] = [
  'baseline-2026-07-26',
  'upstream-2026-09-21',
];

/** Options of {@link buildSessionKey}; the defaults are the gateway's. */
export interface BuildSessionKeyOptions {
  /** Give each participant of a group chat a session of their own (default `true`). */
  readonly groupSessionsPerUser?: boolean;
  /** Give each participant of a thread a session of their own (default `false`: threads are shared). */
  readonly threadSessionsPerUser?: boolean;
  /**
   * The namespace profile (default none → `agent:main`; `"default"` and `""` too). Only the
   * gateway's session store passes one, and only when it multiplexes profiles; the adapter-level key
   * that `interrupt_inbound.session_key` must match never carries a profile.
   */
  readonly profile?: string | null;
  /** Default `baseline-2026-07-26`. */
  readonly dialect?: SessionKeyDialect;
}

/**
 * The session key the Hermes gateway's `build_session_key` gives a source, byte for byte.
 *
 * Layout: `<namespace>:<platform>:<chat_type>[:<slack workspace>]` followed, for DMs, by the chat id
 * (the sender id when there is none) and the thread id, and for every other chat type by the chat id,
 * the thread id and, when isolating per user, the sender id. Only truthy parts are written; nothing
 * is escaped, trimmed or lowercased, so ids containing `:` are joined as they are and keys cannot be
 * split back into fields. WhatsApp DM chat ids and participants are canonicalised as a gateway with
 * no LID-mapping files does (`canonicalWhatsAppIdentifier`).
 *
 * The contract text asks for Discord's `guild_id` as a discriminator; the gateway never puts it (or
 * any scope but Slack's) into the key, and this function follows the gateway.
 *
 * @throws {RelayError} `whatsapp_identifier_unresolvable`: for the sources the gateway itself crashes on.
 * @throws {RelayError} `invalid_session_source`: when the source is not an object, its `platform` is not a
 * non-empty string, a field it reads holds something other than a `SessionKeyValue` (a `Date`,
 * a function), or a part it writes is (or holds) an integral number beyond ±(2^53 − 1).
 * @throws {RelayError} `invalid_session_key_options`: for an option of the wrong type or an unknown dialect.
 * @example
 * buildSessionKey({ platform: 'slack', chat_type: 'channel', scope_id: 'T9', chat_id: 'C0123', user_id: 'U1' });
 * // 'agent:main:slack:channel:T9:C0123:U1'
 * buildSessionKey({ platform: 'telegram', chat_type: 'forum', chat_id: -1001234, thread_id: '5', user_id: '42' });
 * // 'agent:main:telegram:forum:-1001234:5' (threads are shared by default)
 */
export function buildSessionKey(source: SessionKeySource, options: BuildSessionKeyOptions = {}): string {
  const { groupSessionsPerUser, threadSessionsPerUser, profile, dialect } = readOptions(options);
  const fields = readSource(source, dialect);
  const { platform } = fields;
  // Each part is rendered as it is added, so that a refusal names the field it came from.
  const parts: string[] = [namespace(profile, dialect), platform];
  const add = (value: SessionKeyValue, field: string) => parts.push(keyPartStr(value, field));
  const slackScope = platform === 'slack' && isPythonTruthy(fields.scope_id) ? fields.scope_id : null;

  if (fields.chat_type === 'dm') {
    parts.push('dm');
    if (slackScope !== null) add(slackScope, 'scope_id');
    const chatId =
      platform === 'whatsapp' ? canonicalWhatsAppIdentifier(fields.chat_id, 'chat_id') : fields.chat_id;
    if (isPythonTruthy(chatId)) add(chatId, 'chat_id');
    else {
      const [sender, field] = participant(fields);
      if (isPythonTruthy(sender)) add(sender, field);
    }
    if (isPythonTruthy(fields.thread_id)) add(fields.thread_id, 'thread_id');
    return parts.join(':');
  }

  const [sender, senderField] = participant(fields);
  let threadId = fields.thread_id;
  let threadField = 'thread_id';
  let chatTypeSlot = fields.chat_type;
  if (
    dialect === 'upstream-2026-09-21' &&
    !isPythonTruthy(threadId) &&
    isPythonTruthy(fields.prospective_thread_id)
  ) {
    threadId = fields.prospective_thread_id;
    threadField = 'prospective_thread_id';
    chatTypeSlot = 'thread';
  }
  add(chatTypeSlot, 'chat_type');
  if (slackScope !== null) add(slackScope, 'scope_id');
  if (isPythonTruthy(fields.chat_id)) add(fields.chat_id, 'chat_id');
  if (isPythonTruthy(threadId)) add(threadId, threadField);
  const isolateSender = isPythonTruthy(threadId)
    ? threadSessionsPerUser && groupSessionsPerUser
    : groupSessionsPerUser;
  if (isolateSender && isPythonTruthy(sender)) add(sender, senderField);
  return parts.join(':');
}

interface SourceFields {
  readonly platform: string;
  readonly chat_type: SessionKeyValue;
  readonly chat_id: SessionKeyValue;
  readonly thread_id: SessionKeyValue;
  readonly user_id: SessionKeyValue;
  readonly user_id_alt: SessionKeyValue;
  readonly scope_id: SessionKeyValue;
  readonly prospective_thread_id: SessionKeyValue;
}

/**
 * The sender and the field it came from: `user_id_alt` when truthy, else `user_id`; on WhatsApp
 * canonicalised when possible.
 */
function participant(fields: SourceFields): readonly [SessionKeyValue, string] {
  const field = isPythonTruthy(fields.user_id_alt) ? 'user_id_alt' : 'user_id';
  const sender = fields[field];
  if (fields.platform !== 'whatsapp' || !isPythonTruthy(sender)) return [sender, field];
  const canonical = canonicalWhatsAppIdentifier(sender, field);
  return [canonical === '' ? sender : canonical, field];
}

function namespace(profile: string | null, dialect: SessionKeyDialect): string {
  if (profile === null || profile === '' || profile === 'default') return 'agent:main';
  if (profile === 'main' && dialect === 'upstream-2026-09-21') return 'agent:main~';
  return `agent:${profile}`;
}

function readSource(source: unknown, dialect: SessionKeyDialect): SourceFields {
  if (typeof source !== 'object' || source === null || Array.isArray(source)) {
    throw new RelayError('invalid_session_source', 'the session source must be an object');
  }
  const record = source as Readonly<Record<string, unknown>>;
  const { platform } = record;
  if (typeof platform !== 'string' || platform === '') {
    throw new RelayError('invalid_session_source', 'platform must be a non-empty string', {
      path: 'platform',
    });
  }
  const chatType = record.chat_type === undefined ? 'dm' : scalarField(record, 'chat_type');
  return {
    platform,
    chat_type: chatType,
    chat_id: scalarField(record, 'chat_id'),
    thread_id: scalarField(record, 'thread_id'),
    user_id: scalarField(record, 'user_id'),
    user_id_alt: scalarField(record, 'user_id_alt'),
    scope_id: scalarField(record, 'scope_id'),
    prospective_thread_id:
      dialect === 'upstream-2026-09-21' ? scalarField(record, 'prospective_thread_id') : undefined,
  };
}

/**
 * A field as the gateway holds it: a `SessionKeyValue`, or a JSON array or object (which the
 * gateway renders with Python's `str()`: `['9001']`, `{'a': 1}`). Integral numbers beyond the safe
 * range are refused only if the key writes them (see `keyPartStr`).
 */
function scalarField(record: Readonly<Record<string, unknown>>, name: string): SessionKeyValue {
  const value = record[name];
  if (isSessionKeyScalar(value) || isUnsafeInteger(value) || isJsonValue(value)) {
    return value as SessionKeyValue;
  }
  throw new RelayError(
    'invalid_session_source',
    `${name} must be a string, number, bigint, boolean, null or plain JSON data, not ${describe(value)}`,
    { path: name },
  );
}

function isUnsafeInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array holding something JSON cannot carry';
  if (typeof value === 'object') return 'an object that is not plain JSON data';
  return `a ${typeof value}`;
}

interface ResolvedOptions {
  readonly groupSessionsPerUser: boolean;
  readonly threadSessionsPerUser: boolean;
  readonly profile: string | null;
  readonly dialect: SessionKeyDialect;
}

function readOptions(options: unknown): ResolvedOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new RelayError('invalid_session_key_options', 'the options must be an object', { path: 'options' });
  }
  const record = options as Readonly<Record<string, unknown>>;
  const { profile = null, dialect = 'baseline-2026-07-26' } = record;
  if (profile !== null && typeof profile !== 'string') {
    throw new RelayError('invalid_session_key_options', 'profile must be a string or null', {
      path: 'options.profile',
    });
  }
  if (!SESSION_KEY_DIALECTS.includes(dialect as SessionKeyDialect)) {
    throw new RelayError(
      'invalid_session_key_options',
      `dialect must be one of ${SESSION_KEY_DIALECTS.join(', ')}`,
      { path: 'options.dialect' },
    );
  }
  return {
    groupSessionsPerUser: booleanOption(record, 'groupSessionsPerUser', true),
    threadSessionsPerUser: booleanOption(record, 'threadSessionsPerUser', false),
    profile,
    dialect: dialect as SessionKeyDialect,
  };
}

function booleanOption(record: Readonly<Record<string, unknown>>, name: string, fallback: boolean): boolean {
  const value = record[name];
  if (value === undefined) return fallback;
  if (typeof value === 'boolean') return value;
  throw new RelayError('invalid_session_key_options', `${name} must be a boolean`, {
    path: `options.${name}`,
  });
}

/**
 * The fields of a gateway `SessionSource` that the session key is built from, under their wire
 * names. Structural on purpose: any SessionSource-shaped object (a parsed wire source included) fits.
 *
 * The values are what the gateway holds after reading the wire, which does not stringify ids: a
 * numeric `chat_id` stays a number and is rendered as Python's `str()` would (`-100123`). Absent and
 * `null` are both Python `None`, except for `chat_type`, which defaults to `"dm"` when absent while an
 * explicit `null` stays `None` and lands in a non-DM key as the text `"None"`.
 *
 * Field types are `unknown` so that any source type fits, JSON-typed ones included; the values that
 * can be keyed are the `SessionKeyScalar`s and plain JSON arrays and objects, which are written as
 * Python's `str()` writes them (`['9001']`, `{'a': 1}`), as the gateway does with whatever its wire
 * reader kept. Anything else (a `Date`, a function) makes `buildSessionKey` throw
 * `RelayError` `invalid_session_source`, and so does an integral number beyond ±(2^53 − 1) the key writes.
 *
 * `guild_id` is deliberately not here: the gateway's relay path never reads it, so a source that
 * carries only the legacy alias is keyed as if it had no scope. Send `scope_id`.
 */
export interface SessionKeySource {
  /**
   * The resolved platform value (`discord`, `slack`, `whatsapp`, a plugin platform such as `irc`…),
   * written into the key verbatim. Only the exact values `slack` and `whatsapp` change the algorithm;
   * case folding and the unknown-name → `relay` fallback happen earlier, when the wire source is read.
   */
  readonly platform: string;
  /** `dm` (exact, lowercase) selects the DM rules; anything else, `null` included, is a group chat. */
  readonly chat_type?: unknown;
  readonly chat_id?: unknown;
  readonly thread_id?: unknown;
  readonly user_id?: unknown;
  /** Wins over `user_id` whenever truthy. */
  readonly user_id_alt?: unknown;
  /** Slack workspace; ignored on every other platform (Discord guilds never enter the key). */
  readonly scope_id?: unknown;
  /** Read only by the `upstream-2026-09-21` dialect: keys a channel message on the thread it opens. */
  readonly prospective_thread_id?: unknown;
}
