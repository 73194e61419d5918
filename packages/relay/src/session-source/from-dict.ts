import { RelayError } from '../errors.js';
import { type JsonValue, toJsonValue } from '../json/index.js';
import { isPythonTruthy, pythonStr } from '../python/index.js';
import { copyNewerFields } from './newer-fields.js';
import { lookUpPlatform } from './platforms.js';
import type { SessionSource } from './schema.js';

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
