import { RelayError } from '../errors.js';
import { isJsonValue, type JsonValue, type NotJsonValue, toJsonValue } from '../json/index.js';
import { isPythonTruthy, pythonStr } from '../python/index.js';
import { sessionSourceFromOwnedWire, sessionSourceFromWire } from '../session-source/from-wire.js';
import type { SessionSource } from '../session-source/schema.js';
import { CHANNEL_CONTEXT_HEADER } from './channel-context.js';
import type { MessageEvent } from './message-event.js';
import { readMessageType } from './message-type.js';
import { rewriteSlackParentCommand } from './slack-parent-command.js';

type JsonObject = { readonly [key: string]: JsonValue };

/**
 * Reads an inbound `event` object the way the gateway's relay reader (`_event_from_wire`) does:
 * `text` defaults to `""`, unknown `message_type` → `text`, ids default to `null`, `reply_to` is
 * flattened (`is_own` through Python `bool()`), a falsy `media_urls` becomes `[]`, `media_types` is
 * looked up in `media[]` by URL, `context` is rendered to `channel_context`, `prompt_response` is kept
 * only when it is an object, and `source` is read by `sessionSourceFromWire`.
 *
 * On Slack, a `/hermes <sub>` text is rewritten as the gateway does (`rewriteSlackParentCommand`,
 * with the baseline gateway's commands). Unread keys (`platform_update_id`, `metadata`,
 * `timestamp`…) are dropped.
 *
 * @throws {RelayError} `message_event_not_object`: the event, or a truthy `reply_to`, is not an
 *   object; on Slack, a `text` that is not a string (the gateway's `strip()` fails on it).
 * @throws {RelayError} `message_event_not_json`: a value plain JSON cannot carry.
 * @throws {RelayError} `session_source_not_object`: a truthy `source` that is not an object.
 * @example
 * const event = eventFromWire({ text: 'hi', source: { platform: 'telegram', chat_id: '42' } });
 * event.source.chat_type; // 'dm'
 */
export function eventFromWire(wire: unknown): MessageEvent {
  return readEvent(asObject(readJson(wire), ''), fresh, sessionSourceFromWire);
}

/**
 * {@link eventFromWire} for an event that is already plain JSON data and that nothing else holds: the
 * `event` of a frame that `decodeConnectorFrame` has just parsed and checked. Gives the same event
 * (and throws the same errors) without checking the value again or copying what it keeps of it.
 */
export function eventFromOwnedWire(wire: JsonValue): MessageEvent {
  return readEvent(asObject(wire, ''), keep, sessionSourceFromOwnedWire);
}

/** How a reader takes a value it keeps from the wire: a copy ({@link fresh}) or the value itself. */
type Take = (value: JsonValue) => JsonValue;

function readEvent(
  raw: JsonObject,
  take: Take,
  readSource: (wire: JsonValue | undefined) => SessionSource,
): MessageEvent {
  const get = (key: string): JsonValue => (Object.hasOwn(raw, key) ? take(raw[key] as JsonValue) : null);
  const source = readSource(Object.hasOwn(raw, 'source') ? raw['source'] : undefined);
  const replyValue = get('reply_to');
  const replyTo = isPythonTruthy(replyValue) ? asObject(replyValue, 'reply_to') : {};
  const replyGet = (key: string): JsonValue =>
    Object.hasOwn(replyTo, key) ? take(replyTo[key] as JsonValue) : null;
  const mediaUrls = get('media_urls');
  const promptResponse = get('prompt_response');
  let text = Object.hasOwn(raw, 'text') ? get('text') : '';
  let messageType = readMessageType(Object.hasOwn(raw, 'message_type') ? raw['message_type'] : 'text');
  if (source.platform === 'slack') {
    if (typeof text !== 'string') {
      throw new RelayError(
        'message_event_not_object',
        `text must be a string on Slack, got ${text === null ? 'null' : typeof text}`,
        { path: 'text' },
      );
    }
    [text, messageType] = rewriteSlackParentCommand(text, messageType);
  }
  return {
    text,
    message_type: messageType,
    source,
    message_id: get('message_id'),
    reply_to_message_id: get('reply_to_message_id'),
    reply_to_text: replyGet('text'),
    reply_to_author_name: replyGet('author'),
    reply_to_is_own_message: isPythonTruthy(replyGet('is_own')),
    media_urls: isPythonTruthy(mediaUrls) ? mediaUrls : [],
    media_types: mediaTypes(mediaUrls, get('media')),
    channel_context: renderChannelContext(get('context')),
    prompt_response: isObject(promptResponse) ? promptResponse : null,
  };
}

function mediaTypes(urls: JsonValue, media: JsonValue): readonly JsonValue[] {
  if (!Array.isArray(urls) || urls.length === 0) return [];
  const mimeByUrl = new Map<string, JsonValue>();
  for (const item of Array.isArray(media) ? (media as readonly JsonValue[]) : []) {
    if (!isObject(item)) continue;
    const url = item['url'];
    if (typeof url !== 'string' || url === '') continue;
    const mime = Object.hasOwn(item, 'mime') ? (item['mime'] as JsonValue) : null;
    mimeByUrl.set(url, isPythonTruthy(mime) ? mime : '');
  }
  return (urls as readonly JsonValue[]).map((url) =>
    typeof url === 'string' ? (mimeByUrl.get(url) ?? '') : '',
  );
}

function renderChannelContext(context: JsonValue): string | null {
  if (!Array.isArray(context)) return null;
  const lines: string[] = [];
  for (const item of context as readonly JsonValue[]) {
    if (!isObject(item)) continue;
    const text = Object.hasOwn(item, 'text') ? (item['text'] as JsonValue) : null;
    if (!isPythonTruthy(text)) continue;
    const src =
      Object.hasOwn(item, 'source') && isPythonTruthy(item['source'] as JsonValue) ? item['source'] : {};
    let author: JsonValue = '';
    if (isObject(src as JsonValue)) {
      const s = src as JsonObject;
      const name = Object.hasOwn(s, 'user_name') ? (s['user_name'] as JsonValue) : null;
      const id = Object.hasOwn(s, 'user_id') ? (s['user_id'] as JsonValue) : null;
      author = isPythonTruthy(name) ? name : isPythonTruthy(id) ? id : '';
    }
    lines.push(isPythonTruthy(author) ? `${pythonStr(author)}: ${pythonStr(text)}` : pythonStr(text));
  }
  return lines.length === 0 ? null : CHANNEL_CONTEXT_HEADER + lines.join('\n');
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function asObject(value: JsonValue, path: string): JsonObject {
  if (!isObject(value))
    throw new RelayError('message_event_not_object', `${path || 'event'} must be an object`, { path });
  return value;
}

/** `wire` when it is plain JSON data (then {@link fresh} copies what is kept of it), else a copy of it. */
function readJson(wire: unknown): JsonValue {
  if (isJsonValue(wire)) return wire;
  return toJsonValue(wire, notJson);
}

/** A copy of an object or array taken from the wire, so the event shares nothing with it. */
function fresh(value: JsonValue): JsonValue {
  return value !== null && typeof value === 'object' ? toJsonValue(value, notJson) : value;
}

/** `message_event_not_json`: the event holds a value plain JSON cannot carry. */
function notJson({ message, path }: NotJsonValue): RelayError {
  return new RelayError('message_event_not_json', `event: ${message}`, { path });
}

/** The value itself: the wire is owned by the event being read. */
function keep(value: JsonValue): JsonValue {
  return value;
}
