import { isPythonTruthy, pythonStr } from '@agentwire/internal';
import * as z from 'zod/mini';
import { RelayError } from './errors.js';
import { type JsonValue, jsonValueSchema, toJsonValue } from './json.js';
import { pythonStrip } from './python.js';

const NEWER_FLAGS = ['is_bot', 'message_is_edit', 'one_to_one_verified'] as const;

/**
 * Copies the `SessionSource` fields newer gateways added from a source object, the same way for every
 * reader of this SDK: `prospective_thread_id` as is, `is_bot`, `message_is_edit` and
 * `one_to_one_verified` as Python `bool()`, each only when present and not `null`. A baseline gateway
 * ignores all four.
 */
export function copyNewerFields(
  src: { readonly [key: string]: JsonValue },
  into: Record<string, JsonValue>,
): void {
  const prospective = src['prospective_thread_id'];
  if (Object.hasOwn(src, 'prospective_thread_id') && prospective !== null && prospective !== undefined) {
    into['prospective_thread_id'] = prospective;
  }
  for (const key of NEWER_FLAGS) {
    const flag = src[key];
    if (Object.hasOwn(src, key) && flag !== null && flag !== undefined) into[key] = isPythonTruthy(flag);
  }
}

/** The gateway's built-in platform names (`gateway.config.Platform` values). */
export const BUILTIN_PLATFORMS: readonly string[] = [
  'local',
  'telegram',
  'discord',
  'whatsapp',
  'whatsapp_cloud',
  'slack',
  'signal',
  'mattermost',
  'matrix',
  'homeassistant',
  'email',
  'sms',
  'dingtalk',
  'api_server',
  'webhook',
  'msgraph_webhook',
  'feishu',
  'wecom',
  'wecom_callback',
  'weixin',
  'bluebubbles',
  'qqbot',
  'yuanbao',
  'relay',
];

/** Platform names the gateway's bundled plugins register. */
export const PLUGIN_PLATFORMS: readonly string[] = [
  'google_chat',
  'irc',
  'line',
  'teams',
  'ntfy',
  'photon',
  'raft',
  'simplex',
];

/** The platform an unknown or non-string `source.platform` silently becomes. */
export const FALLBACK_PLATFORM = 'relay';

const KNOWN = /* @__PURE__ */ (() => new Set([...BUILTIN_PLATFORMS, ...PLUGIN_PLATFORMS]))();

/** Whether `name` is a platform name the gateway knows, spelled exactly (lowercase, no blanks). */
export function isKnownPlatform(name: string): boolean {
  return KNOWN.has(name);
}

/**
 * The platform the gateway's relay reader makes of a wire `source.platform` (`Platform(value)` with
 * its case- and blank-tolerant lookup): a known name in any case with surrounding whitespace gives
 * that name; anything else, including non-strings, gives `"relay"`. The session key uses the result.
 */
export function canonicalPlatform(value: unknown): string {
  return lookUpPlatform(value) ?? FALLBACK_PLATFORM;
}

/**
 * The gateway's `Platform(value)`: the known name `value` is, exactly or once Python-stripped and
 * lowercased; `undefined` where Python raises `ValueError` (unknown names, blank strings, non-strings).
 */
export function lookUpPlatform(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (KNOWN.has(value)) return value;
  const folded = pythonStrip(value).toLowerCase();
  return KNOWN.has(folded) ? folded : undefined;
}

/** Keys `from_dict` reads with `.get` (default `null`), in the dataclass's order, around the scope pair. */
const HEAD_KEYS = ['user_id', 'user_name', 'thread_id', 'chat_topic', 'user_id_alt', 'chat_id_alt'] as const;
const TAIL_KEYS = ['parent_chat_id', 'message_id', 'profile'] as const;

/**
 * Reads a stored source the way the gateway's persistence reader `SessionSource.from_dict()` does —
 * not the relay wire path (`sessionSourceFromWire`), whose rules differ:
 *
 * - `platform` is required and must be a platform the gateway knows (exactly, or in any case with
 *   surrounding whitespace); an unknown name or a non-string is refused, never turned into `"relay"`;
 * - `chat_id` is required and becomes Python `str()` of its value: `123` → `"123"`, `1.5` → `"1.5"`,
 *   `true` → `"True"`, `null` → `"None"`, lists and objects in `repr` form (`"[1, 'a']"`);
 * - `chat_type` defaults to `"dm"` only when absent (an explicit `null` stays `null`);
 * - `scope_id` is `scope_id` when the key is present (even `null`), else `guild_id`; `guild_id`
 *   mirrors the result;
 * - `auto_thread_created` is Python `bool()`;
 * - `user_name` is `user_name` only (`user_display_name`, `user_handle` are not read); every other
 *   read key keeps its JSON value as it is, whatever its type (`user_name: 5` stays `5`), exactly as
 *   the gateway keeps it and as `sessionSourceFromWire` does; keys `from_dict` does not read
 *   (`role_authorized`, unknown keys) are dropped;
 * - newer fields (`prospective_thread_id`; `is_bot`, `message_is_edit`, `one_to_one_verified` as
 *   `bool()`) are carried when present and not `null`, as the wire reader carries them; a baseline
 *   gateway's `from_dict` ignores them.
 *
 * Every baseline key is present in the result, in the dataclass's order; `sessionSourceToWire` of it
 * is the gateway's `to_dict()`. A property whose value is `undefined` counts as absent. JavaScript has
 * one number type, so a `chat_id` float with an integral value reads as the Python `int` (`1.0` →
 * `"1"`, where Python writes `"1.0"`); the numbers whose `str()` cannot be known are refused.
 *
 * @throws {RelayError} `session_source_not_object`: `value` is not a JSON object (`undefined` included).
 * @throws {RelayError} `session_source_not_json`: `value` holds something plain JSON cannot carry.
 * @throws {RelayError} `session_source_missing_platform`: no `platform` key.
 * @throws {RelayError} `session_source_unknown_platform`: `platform` is not a known platform name.
 * @throws {RelayError} `session_source_missing_chat_id`: no `chat_id` key.
 * @throws {RelayError} `session_source_ambiguous_chat_id`: `chat_id` holds an integral number beyond ±(2^53 −
 * 1) or `-0`, anywhere inside it.
 * @example
 * sessionSourceFromDict({ platform: ' Telegram', chat_id: -100123, guild_id: 'G1' });
 * // { platform: 'telegram', chat_id: '-100123', chat_name: null, chat_type: 'dm', …,
 * //   scope_id: 'G1', guild_id: 'G1', …, auto_thread_created: false, auto_thread_initial_name: null }
 */
export function sessionSourceFromDict(value: unknown): SessionSource {
  const data = readObject(value);
  const get = (key: string): JsonValue => (Object.hasOwn(data, key) ? (data[key] as JsonValue) : null);
  if (!Object.hasOwn(data, 'platform')) {
    throw new RelayError('session_source_missing_platform', 'session source has no platform', {
      path: 'platform',
    });
  }
  const platform = lookUpPlatform(data['platform']);
  if (platform === undefined) {
    throw new RelayError(
      'session_source_unknown_platform',
      `session source platform ${JSON.stringify(get('platform'))} is not a known platform`,
      { path: 'platform' },
    );
  }
  if (!Object.hasOwn(data, 'chat_id')) {
    throw new RelayError('session_source_missing_chat_id', 'session source has no chat_id', {
      path: 'chat_id',
    });
  }
  const result: Record<string, JsonValue> = {
    platform,
    chat_id: chatIdStr(get('chat_id')),
    chat_name: get('chat_name'),
    chat_type: Object.hasOwn(data, 'chat_type') ? get('chat_type') : 'dm',
  };
  for (const key of HEAD_KEYS) result[key] = get(key);
  const scope = Object.hasOwn(data, 'scope_id') ? get('scope_id') : get('guild_id');
  result['scope_id'] = scope;
  result['guild_id'] = scope;
  for (const key of TAIL_KEYS) result[key] = get(key);
  result['auto_thread_created'] = isPythonTruthy(get('auto_thread_created'));
  result['auto_thread_initial_name'] = get('auto_thread_initial_name');
  copyNewerFields(data, result);
  return result as unknown as SessionSource;
}

/** Python's `str(chat_id)`, refusing the numbers whose Python type JavaScript cannot know. */
function chatIdStr(value: JsonValue): string {
  if (hasAmbiguousNumber(value)) {
    throw new RelayError(
      'session_source_ambiguous_chat_id',
      'session source chat_id holds an integral number beyond ±(2^53 − 1) or -0: store it as a string',
      { path: 'chat_id' },
    );
  }
  return pythonStr(value);
}

function hasAmbiguousNumber(value: JsonValue): boolean {
  if (typeof value === 'number') {
    return Number.isInteger(value) && (!Number.isSafeInteger(value) || Object.is(value, -0));
  }
  if (value === null || typeof value !== 'object') return false;
  return Object.values(value).some(hasAmbiguousNumber);
}

function readObject(value: unknown): { readonly [key: string]: JsonValue } {
  const data: JsonValue =
    value === undefined
      ? null
      : toJsonValue(
          value,
          ({ message, path }) =>
            new RelayError('session_source_not_json', `session source: ${message}`, { path }),
        );
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new RelayError('session_source_not_object', 'session source must be a JSON object');
  }
  return data as { readonly [key: string]: JsonValue };
}

/** Keys read verbatim with a `null` default, in the gateway dataclass's order (scope handled apart). */
const PLAIN_KEYS = ['thread_id', 'chat_topic', 'user_id_alt', 'chat_id_alt'] as const;

/**
 * Reads the `source` of an inbound event the way the gateway's relay reader does:
 *
 * - a missing or falsy source (`null`, `{}`, `""`, `0`) reads as `{}`;
 * - `platform` is canonicalised (known names in any case/blanks; anything else → `"relay"`);
 * - `chat_id` defaults to `""` and keeps its JSON type (no `str()`); `chat_type` defaults to `"dm"`
 *   only when absent (an explicit `null` stays `null`);
 * - `user_name` is the first truthy of `user_display_name`, `user_name`, `user_handle` (Python `or`:
 *   the last one when none is truthy);
 * - `guild_id` on the wire is ignored; `guild_id` mirrors `scope_id`;
 * - `auto_thread_created` is Python `bool()`;
 * - newer fields (`prospective_thread_id`; `is_bot`, `message_is_edit`, `one_to_one_verified` as
 *   `bool()`) are carried when present and not `null`; a baseline gateway ignores them.
 *
 * Every baseline key is present in the result.
 *
 * @throws {RelayError} `session_source_not_object`: a truthy non-object source (the gateway's reader
 * crashes).
 * @throws {RelayError} `session_source_not_json`: a value plain JSON cannot carry.
 * @example
 * sessionSourceFromWire({ platform: ' Slack ', chat_id: 'C1', guild_id: 'T1' });
 * // { platform: 'slack', chat_id: 'C1', chat_type: 'dm', scope_id: null, guild_id: null, … }
 */
export function sessionSourceFromWire(wire: unknown): SessionSource {
  return sessionSourceFromOwnedWire(readJson(wire));
}

/**
 * {@link sessionSourceFromWire} for a source that is already plain JSON data (or absent) and that
 * nothing else holds, such as the `source` of an event `decodeConnectorFrame` has just parsed: the
 * same result and errors, without the check and the copy.
 */
export function sessionSourceFromOwnedWire(wire: JsonValue | undefined): SessionSource {
  const value = wire === undefined ? null : wire;
  if (!isPythonTruthy(value)) return readSource({});
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RelayError('session_source_not_object', 'event source must be an object');
  }
  return readSource(value as { readonly [key: string]: JsonValue });
}

function readSource(src: { readonly [key: string]: JsonValue }): SessionSource {
  const get = (key: string): JsonValue => (Object.hasOwn(src, key) ? (src[key] as JsonValue) : null);
  const firstTruthy = (...keys: string[]): JsonValue => {
    let last: JsonValue = null;
    for (const key of keys) {
      last = get(key);
      if (isPythonTruthy(last)) return last;
    }
    return last;
  };
  const result: Record<string, JsonValue> = {
    platform: canonicalPlatform(Object.hasOwn(src, 'platform') ? src['platform'] : 'relay'),
    chat_id: Object.hasOwn(src, 'chat_id') ? get('chat_id') : '',
    chat_name: get('chat_name'),
    chat_type: Object.hasOwn(src, 'chat_type') ? get('chat_type') : 'dm',
    user_id: get('user_id'),
    user_name: firstTruthy('user_display_name', 'user_name', 'user_handle'),
  };
  for (const key of PLAIN_KEYS) result[key] = get(key);
  result['scope_id'] = get('scope_id');
  result['guild_id'] = get('scope_id');
  for (const key of TAIL_KEYS) result[key] = get(key);
  result['auto_thread_created'] = isPythonTruthy(get('auto_thread_created'));
  result['auto_thread_initial_name'] = get('auto_thread_initial_name');
  copyNewerFields(src, result);
  return result as unknown as SessionSource;
}

function readJson(wire: unknown): JsonValue {
  if (wire === undefined) return null;
  return toJsonValue(
    wire,
    ({ message, path }) => new RelayError('session_source_not_json', `event source: ${message}`, { path }),
  );
}

/**
 * A `SessionSource` as the gateway holds it. Keys are the snake_case wire names, in the TS type as on
 * the wire: one spelling everywhere, no mapping layer to get wrong.
 *
 * Value types are what the gateway keeps: on the relay path it stores wire values as sent, so an id can
 * be a number (`-100123`) and `chat_type` can be `null` (rendered `"None"` in session keys). An absent
 * optional key means the dataclass default (`null`; `chat_type` `"dm"`; booleans `false`).
 */
export interface SessionSource {
  /** A platform name; `sessionSourceFromWire` canonicalises it (unknown names become `"relay"`). */
  readonly platform: string;
  readonly chat_id: JsonValue;
  readonly chat_name?: JsonValue;
  /** `dm`, `group`, `channel`, `thread` or `forum`; other values are kept and keyed verbatim. */
  readonly chat_type?: JsonValue;
  readonly user_id?: JsonValue;
  readonly user_name?: JsonValue;
  readonly thread_id?: JsonValue;
  readonly chat_topic?: JsonValue;
  readonly user_id_alt?: JsonValue;
  readonly chat_id_alt?: JsonValue;
  /** Workspace/guild/server scope. Wins over `guild_id` whenever it is not `null`. */
  readonly scope_id?: JsonValue;
  /** Deprecated alias of `scope_id`; the relay reader ignores it on the wire. */
  readonly guild_id?: JsonValue;
  readonly parent_chat_id?: JsonValue;
  readonly message_id?: JsonValue;
  readonly profile?: JsonValue;
  readonly auto_thread_created?: boolean;
  readonly auto_thread_initial_name?: JsonValue;
  /** Newer gateways: the thread a channel message's reply will open (keys the session there). */
  readonly prospective_thread_id?: JsonValue;
  /** Newest gateways: author is a bot/webhook. Absent = provenance unknown (room controls fail closed). */
  readonly is_bot?: boolean;
  /** Newest gateways: the event is an edit of an earlier message. */
  readonly message_is_edit?: boolean;
  /** Newest gateways: the connector verified the chat is one-to-one (Slack/Matrix DMs). */
  readonly one_to_one_verified?: boolean;
}

/** The `source` object of an inbound event exactly as it travels: any JSON object. */
export type SessionSourceWire = { readonly [key: string]: JsonValue };

/**
 * Zod schema of the wire `source` object: any JSON object, unknown keys kept. Reading rules (defaults,
 * platform fallback) are applied by `sessionSourceFromWire`, not here. (Both calls are marked pure: a
 * bundle that imports only the channel-token functions from the root must be able to drop zod.)
 */
export const sessionSourceWireSchema: z.ZodMiniType<SessionSourceWire> = /* @__PURE__ */ z.record(
  /* @__PURE__ */ z.string(),
  jsonValueSchema,
);

const ALWAYS_KEYS = ['chat_name', 'chat_type', 'user_id', 'user_name', 'thread_id', 'chat_topic'] as const;
const TRUTHY_KEYS = ['user_id_alt', 'chat_id_alt'] as const;
const TRUTHY_TAIL_KEYS = ['parent_chat_id', 'message_id', 'profile'] as const;

/**
 * Serialises a source exactly as the gateway's `SessionSource.to_dict()` does — same keys, same order
 * (JSON key order is part of the result):
 *
 * 1. always: `platform`, `chat_id`, `chat_name`, `chat_type` (absent → `"dm"`), `user_id`,
 *    `user_name`, `thread_id`, `chat_topic` (absent → `null`);
 * 2. only when truthy (Python truthiness): `user_id_alt`, `chat_id_alt`;
 * 3. scope = `scope_id` unless it is absent/`null`, else `guild_id`; when truthy it is written twice,
 *    as `scope_id` then `guild_id`;
 * 4. only when truthy: `parent_chat_id`, `message_id`, `profile`; `auto_thread_created: true`;
 *    `auto_thread_initial_name`;
 * 5. newer tail: `prospective_thread_id` when truthy, then `is_bot`, `message_is_edit`,
 *    `one_to_one_verified` whenever set (`false` included — newest gateways fail closed without them).
 *    A baseline gateway ignores all four.
 *
 * @throws {RelayError} `session_source_invalid_field`: no string `platform` or no `chat_id`.
 * @throws {RelayError} `session_source_not_json`: a value plain JSON cannot carry.
 * @example
 * sessionSourceToWire({ platform: 'slack', chat_id: 'C1', chat_type: 'channel', user_id: 'U1', scope_id: 'T1' });
 * // { platform, chat_id, chat_name: null, chat_type, user_id, user_name: null, thread_id: null,
 * //   chat_topic: null, scope_id: 'T1', guild_id: 'T1' }
 */
export function sessionSourceToWire(source: SessionSource): SessionSourceWire {
  const src = readJsonObject(source);
  if (typeof src['platform'] !== 'string') {
    throw new RelayError('session_source_invalid_field', 'source.platform must be a string', {
      path: 'platform',
    });
  }
  if (!Object.hasOwn(src, 'chat_id'))
    throw new RelayError('session_source_invalid_field', 'source.chat_id is required', { path: 'chat_id' });
  const get = (key: string): JsonValue => (Object.hasOwn(src, key) ? (src[key] as JsonValue) : null);

  const wire: Record<string, JsonValue> = { platform: src['platform'], chat_id: get('chat_id') };
  for (const key of ALWAYS_KEYS) {
    wire[key] = key === 'chat_type' && !Object.hasOwn(src, key) ? 'dm' : get(key);
  }
  for (const key of TRUTHY_KEYS) if (isPythonTruthy(get(key))) wire[key] = get(key);
  const scope = get('scope_id') !== null ? get('scope_id') : get('guild_id');
  if (isPythonTruthy(scope)) {
    wire['scope_id'] = scope;
    wire['guild_id'] = scope;
  }
  for (const key of TRUTHY_TAIL_KEYS) if (isPythonTruthy(get(key))) wire[key] = get(key);
  if (isPythonTruthy(get('auto_thread_created'))) wire['auto_thread_created'] = true;
  if (isPythonTruthy(get('auto_thread_initial_name')))
    wire['auto_thread_initial_name'] = get('auto_thread_initial_name');
  if (isPythonTruthy(get('prospective_thread_id')))
    wire['prospective_thread_id'] = get('prospective_thread_id');
  for (const key of NEWER_FLAGS) {
    if (Object.hasOwn(src, key) && src[key] !== null) wire[key] = isPythonTruthy(src[key]);
  }
  return wire;
}

function readJsonObject(source: unknown): { readonly [key: string]: JsonValue } {
  const value = toJsonValue(
    source,
    ({ message, path }) => new RelayError('session_source_not_json', `session source: ${message}`, { path }),
  );
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new RelayError('session_source_invalid_field', 'session source must be an object');
  }
  return value as { readonly [key: string]: JsonValue };
}
