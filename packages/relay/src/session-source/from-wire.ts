import { RelayError } from '../errors.js';
import { type JsonValue, toJsonValue } from '../json/index.js';
import { isPythonTruthy } from '../python/index.js';
import { copyNewerFields } from './newer-fields.js';
import { canonicalPlatform } from './platforms.js';
import type { SessionSource } from './schema.js';

/** Keys read verbatim with a `null` default, in the gateway dataclass's order (scope handled apart). */
const PLAIN_KEYS = ['thread_id', 'chat_topic', 'user_id_alt', 'chat_id_alt'] as const;
const TAIL_KEYS = ['parent_chat_id', 'message_id', 'profile'] as const;

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
