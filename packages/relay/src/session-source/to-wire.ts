import { RelayError } from '../errors.js';
import { type JsonValue, toJsonValue } from '../json/index.js';
import { isPythonTruthy } from '../python/index.js';
import type { SessionSource, SessionSourceWire } from './schema.js';

const ALWAYS_KEYS = ['chat_name', 'chat_type', 'user_id', 'user_name', 'thread_id', 'chat_topic'] as const;
const TRUTHY_KEYS = ['user_id_alt', 'chat_id_alt'] as const;
const TRUTHY_TAIL_KEYS = ['parent_chat_id', 'message_id', 'profile'] as const;
const NEWER_FLAGS = ['is_bot', 'message_is_edit', 'one_to_one_verified'] as const;

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
  const src = readJson(source);
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

function readJson(source: unknown): { readonly [key: string]: JsonValue } {
  const value = toJsonValue(
    source,
    ({ message, path }) => new RelayError('session_source_not_json', `session source: ${message}`, { path }),
  );
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new RelayError('session_source_invalid_field', 'session source must be an object');
  }
  return value as { readonly [key: string]: JsonValue };
}
