import { RelayError } from '../errors.js';
import { type JsonValue, toJsonValue } from '../json/index.js';
import { isPythonTruthy } from '../python/index.js';
import { sessionSourceToWire } from '../session-source/to-wire.js';
import { CHANNEL_CONTEXT_HEADER } from './channel-context.js';
import type { MessageEvent } from './message-event.js';
import type { MessageEventWire } from './schema.js';

/**
 * Turns a gateway-view event back into a wire `event` that the gateway reads as the same event:
 * keys `text`, `message_type`, `message_id`, `reply_to_message_id`, `reply_to` (`null` when the reply
 * fields are all empty), `media_urls`, then `media` (one `{url, mime}` per URL with a type),
 * `context` (the rendered `channel_context` lines as one item), `prompt_response` when set, and
 * `source` (`sessionSourceToWire`).
 *
 * Reading and writing a wire object twice reaches a fixed point (the first pass can still change it:
 * a falsy `user_name` or an empty `scope_id` is written as is but reads back as `null`).
 *
 * @throws {RelayError} `message_event_not_object`: the event or its source is not an object.
 * @throws {RelayError} `message_event_not_json`: a value plain JSON cannot carry.
 * @throws {RelayError} `session_source_invalid_field`: the source has no string `platform` or no `chat_id`.
 */
export function eventToWire(event: MessageEvent): MessageEventWire {
  const e = readEvent(event);
  const get = (key: string): JsonValue => (Object.hasOwn(e, key) ? (e[key] as JsonValue) : null);
  const wire: Record<string, JsonValue> = {
    text: Object.hasOwn(e, 'text') ? get('text') : '',
    message_type: get('message_type') ?? 'text',
    message_id: get('message_id'),
    reply_to_message_id: get('reply_to_message_id'),
    reply_to: replyTo(get('reply_to_text'), get('reply_to_author_name'), get('reply_to_is_own_message')),
    media_urls: isPythonTruthy(get('media_urls')) ? get('media_urls') : [],
  };
  const media = mediaFor(get('media_urls'), get('media_types'));
  if (media.length > 0) wire['media'] = media;
  const context = get('channel_context');
  if (isPythonTruthy(context)) {
    const text =
      typeof context === 'string' && context.startsWith(CHANNEL_CONTEXT_HEADER)
        ? context.slice(CHANNEL_CONTEXT_HEADER.length)
        : context;
    wire['context'] = [{ text }];
  }
  const promptResponse = get('prompt_response');
  if (promptResponse !== null) wire['prompt_response'] = promptResponse;
  const source = get('source');
  if (source === null || typeof source !== 'object' || Array.isArray(source)) {
    throw new RelayError('message_event_not_object', 'event.source must be an object', { path: 'source' });
  }
  wire['source'] = sessionSourceToWire(source as unknown as MessageEvent['source']);
  return wire;
}

function replyTo(text: JsonValue, author: JsonValue, isOwn: JsonValue): JsonValue {
  if (text === null && author === null && !isPythonTruthy(isOwn)) return null;
  return { text, author, is_own: isPythonTruthy(isOwn) };
}

function mediaFor(urls: JsonValue, types: JsonValue): JsonValue[] {
  if (!Array.isArray(urls) || !Array.isArray(types)) return [];
  const media: JsonValue[] = [];
  (urls as readonly JsonValue[]).forEach((url, i) => {
    const mime = (types as readonly JsonValue[])[i];
    if (typeof url === 'string' && url !== '' && mime !== undefined && isPythonTruthy(mime)) {
      media.push({ url, mime });
    }
  });
  return media;
}

function readEvent(event: unknown): { readonly [key: string]: JsonValue } {
  const value = toJsonValue(
    event,
    ({ message, path }) => new RelayError('message_event_not_json', `event: ${message}`, { path }),
  );
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new RelayError('message_event_not_object', 'event must be an object');
  }
  return value as { readonly [key: string]: JsonValue };
}
