import { isJsonObject, isPythonTruthy, pythonStr } from '@agentwire/internal';
import * as z from 'zod/mini';
import { RelayError } from './errors.js';
import { safeParseInEnglish } from './internal.js';
import { isJsonValue, type JsonValue, jsonValueSchema, type NotJsonValue, toJsonValue } from './json.js';
import { PYTHON_WHITESPACE_CLASS, pythonStrip } from './python.js';
import {
  BUILTIN_PLATFORMS,
  FALLBACK_PLATFORM,
  isKnownPlatform,
  PLUGIN_PLATFORMS,
  type SessionSource,
  sessionSourceFromOwnedWire,
  sessionSourceFromWire,
  sessionSourceToWire,
} from './session-source.js';

/** The first line of every rendered `channel_context`. */
export const CHANNEL_CONTEXT_HEADER = '[Recent channel messages]\n';

/** The message types the gateway knows; any other wire value reads as `text`. */
export const MESSAGE_TYPES = [
  'text',
  'location',
  'photo',
  'video',
  'audio',
  'voice',
  'document',
  'sticker',
  'command',
] as const;

/** One of {@link MESSAGE_TYPES}. */
export type MessageType = (typeof MESSAGE_TYPES)[number];

const KNOWN: ReadonlySet<unknown> = /* @__PURE__ */ new Set(MESSAGE_TYPES);

/** `MessageType(value)` with the gateway's fallback: exact known value, else `text`. */
export function readMessageType(value: unknown): MessageType {
  return KNOWN.has(value) ? (value as MessageType) : 'text';
}

const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
// Chained schemas are built inside pure-annotated arrows: a bundler can then drop them, and zod with
// them, from a bundle that never uses them (an annotation on `z.string()` does not cover its `.check()`).
const text = /* @__PURE__ */ (() =>
  z.string().check(z.refine((s) => !LONE_SURROGATE.test(s), 'must be well-formed Unicode')))();
const id = /* @__PURE__ */ (() => text.check(z.minLength(1)))();
const optionalId = /* @__PURE__ */ z.optional(/* @__PURE__ */ z.nullable(id));
const optionalText = /* @__PURE__ */ z.optional(text);
const optionalNullableText = /* @__PURE__ */ z.optional(/* @__PURE__ */ z.nullable(text));
const optionalBoolean = /* @__PURE__ */ z.optional(/* @__PURE__ */ z.boolean());

/**
 * Why a `source.platform` is refused: the gateway reads a name it does not know as `"relay"`, so a
 * connector writes one of its names, spelled exactly (both lists are exported).
 */
const UNKNOWN_PLATFORM_MESSAGE = /* @__PURE__ */ (() =>
  `must be one of the gateway's platform names, spelled exactly (BUILTIN_PLATFORMS or PLUGIN_PLATFORMS: ${[...BUILTIN_PLATFORMS, ...PLUGIN_PLATFORMS].join(', ')}); the gateway reads any other name as "${FALLBACK_PLATFORM}" (FALLBACK_PLATFORM), which is a name you may write`)();

/** The chat types the gateway's session keys distinguish; anything else is keyed as a non-DM type. */
export const CHAT_TYPES = ['dm', 'group', 'channel', 'thread', 'forum'] as const;

const sessionSourceInitSchema = /* @__PURE__ */ (() =>
  /* @__PURE__ */ z.strictObject({
    platform: z.string().check(/* @__PURE__ */ z.refine(isKnownPlatform, UNKNOWN_PLATFORM_MESSAGE)),
    chat_id: id,
    chat_type: /* @__PURE__ */ z.enum(CHAT_TYPES),
    chat_name: optionalNullableText,
    user_id: optionalId,
    user_name: optionalNullableText,
    thread_id: optionalId,
    chat_topic: optionalNullableText,
    user_id_alt: optionalId,
    chat_id_alt: optionalId,
    scope_id: optionalId,
    parent_chat_id: optionalId,
    message_id: optionalId,
    profile: optionalId,
    auto_thread_created: optionalBoolean,
    auto_thread_initial_name: optionalNullableText,
    prospective_thread_id: optionalId,
    is_bot: optionalBoolean,
    message_is_edit: optionalBoolean,
    one_to_one_verified: optionalBoolean,
  }))();

const mediaSchema = /* @__PURE__ */ (() =>
  /* @__PURE__ */ z.strictObject({
    url: id,
    kind: optionalText,
    mime: optionalText,
    size: /* @__PURE__ */ z.optional(
      /* @__PURE__ */ z.number().check(/* @__PURE__ */ z.int(), /* @__PURE__ */ z.nonnegative()),
    ),
    filename: optionalText,
    caption: optionalText,
  }))();

const contextSchema = /* @__PURE__ */ (() =>
  /* @__PURE__ */ z.strictObject({
    text: text.check(/* @__PURE__ */ z.minLength(1)),
    source: /* @__PURE__ */ z.optional(
      /* @__PURE__ */ z.strictObject({ user_name: optionalText, user_id: optionalText }),
    ),
  }))();

const promptResponseSchema = /* @__PURE__ */ z.strictObject({
  prompt_id: id,
  option_id: id,
  label: optionalText,
  prompt_message_id: /* @__PURE__ */ z.optional(id),
});

const messageEventInitSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      text: optionalText,
      message_type: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.enum(MESSAGE_TYPES)),
      message_id: optionalId,
      reply_to_message_id: optionalId,
      reply_to: /* @__PURE__ */ z.optional(
        /* @__PURE__ */ z.nullable(
          /* @__PURE__ */ z.strictObject({
            text: optionalNullableText,
            author: optionalNullableText,
            is_own: optionalBoolean,
          }),
        ),
      ),
      media_urls: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.array(id)),
      media: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.array(mediaSchema)),
      context: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.array(contextSchema)),
      prompt_response: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.nullable(promptResponseSchema)),
      source: sessionSourceInitSchema,
    })
    .check(
      /* @__PURE__ */ z.superRefine((event, ctx) => {
        const urls = new Set(event.media_urls ?? []);
        event.media?.forEach((item, i) => {
          if (!urls.has(item.url)) {
            ctx.addIssue({ code: 'custom', path: ['media', i, 'url'], message: 'must be one of media_urls' });
          }
        });
      }),
    ))();

/** What a connector states about an inbound message; see {@link createMessageEvent}. */
export type MessageEventInit = z.input<typeof messageEventInitSchema>;

/**
 * Builds the `event` object of an `inbound` frame the way a careful connector should send it, refusing
 * what the gateway would misread: an unknown or non-lowercase `platform` (silently becomes `relay`),
 * an unknown `chat_type` (it changes the session key), non-string ids, a `media[]` entry whose `url` is
 * not in `media_urls` (the gateway matches by URL), unknown keys (`guild_id`: send `scope_id`).
 *
 * Every always-read key is written: `text` (`""`), `message_type` (`"text"`), `message_id`,
 * `reply_to_message_id` and `reply_to` (`null`), `media_urls` (`[]`); then `media`, `context` and
 * `prompt_response` when given; then `source` in `to_dict` order with `is_bot` and `message_is_edit`
 * always present (default `false`: the newest gateways treat a missing classification as unknown
 * provenance and fail closed).
 *
 * @throws {RelayError} `message_event_invalid`: with `path` naming the first offending value.
 * @example
 * const event = createMessageEvent({
 *   text: 'hello',
 *   message_id: '1001',
 *   source: { platform: 'discord', chat_id: '111', chat_type: 'group', user_id: '9001', scope_id: 'G1' },
 * });
 * // event.source.is_bot === false, event.source.scope_id === event.source.guild_id === 'G1'
 */
export function createMessageEvent(init: MessageEventInit): MessageEventWire {
  const parsed = safeParseInEnglish(messageEventInitSchema, init);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.map(String).join('.') ?? '';
    throw new RelayError(
      'message_event_invalid',
      `invalid message event${path ? ` at ${path}` : ''}: ${issue?.message ?? ''}`,
      { path, cause: parsed.error },
    );
  }
  const event = parsed.data;
  const wire: Record<string, JsonValue> = {
    text: event.text ?? '',
    message_type: event.message_type ?? 'text',
    message_id: event.message_id ?? null,
    reply_to_message_id: event.reply_to_message_id ?? null,
    reply_to:
      event.reply_to == null
        ? null
        : {
            text: event.reply_to.text ?? null,
            author: event.reply_to.author ?? null,
            is_own: event.reply_to.is_own ?? false,
          },
    media_urls: [...(event.media_urls ?? [])],
  };
  if (event.media !== undefined) wire['media'] = plain(event.media);
  if (event.context !== undefined) wire['context'] = plain(event.context);
  if (event.prompt_response != null) wire['prompt_response'] = plain(event.prompt_response);
  const source = plain({
    ...event.source,
    is_bot: event.source.is_bot ?? false,
    message_is_edit: event.source.message_is_edit ?? false,
  });
  wire['source'] = sessionSourceToWire(source as unknown as SessionSource);
  return wire;
}

/** A plain copy of a value the schema has checked, so JSON data (a refusal would be a bug). */
function plain(value: unknown): JsonValue {
  return toJsonValue(
    value,
    ({ message, path }) =>
      new RelayError('message_event_invalid', `invalid message event: ${message}`, { path }),
  );
}

/**
 * The gateway commands a Slack `/hermes <sub>` reaches, as the baseline gateway (2026-07-26) lists them
 * with its default configuration and no plugins (`slack_subcommand_map()`): every command that is not
 * CLI-only, and each alias, mapped to itself.
 */
const SLACK_GATEWAY_COMMANDS = [
  'start',
  'new',
  'reset',
  'topic',
  'retry',
  'undo',
  'title',
  'branch',
  'fork',
  'compress',
  'rollback',
  'stop',
  'approve',
  'deny',
  'background',
  'bg',
  'btw',
  'agents',
  'tasks',
  'queue',
  'q',
  'steer',
  'goal',
  'moa',
  'subgoal',
  'status',
  'egress',
  'whoami',
  'profile',
  'sethome',
  'set-home',
  'resume',
  'sessions',
  'model',
  'codex-runtime',
  'codex_runtime',
  'personality',
  'footer',
  'yolo',
  'reasoning',
  'fast',
  'voice',
  'memory',
  'bundles',
  'learn',
  'suggestions',
  'suggest',
  'blueprint',
  'bp',
  'curator',
  'kanban',
  'reload-mcp',
  'reload_mcp',
  'reload-skills',
  'reload_skills',
  'commands',
  'help',
  'restart',
  'usage',
  'topup',
  'insights',
  'platform',
  'update',
  'version',
  'v',
  'debug',
] as const;

/**
 * What `/hermes <sub>` becomes on Slack: `<sub>` → `/<sub>` for each gateway command and alias, except
 * `compact` → `/compress` (an override the gateway hard-codes).
 */
export const SLACK_SUBCOMMANDS: Readonly<Record<string, string>> = /* @__PURE__ */ Object.freeze(
  Object.assign(
    Object.create(null) as Record<string, string>,
    Object.fromEntries(SLACK_GATEWAY_COMMANDS.map((name) => [name, `/${name}`])),
    { compact: '/compress' },
  ),
);

/** A run of Python white space. */
const FIRST_WORD_SPLIT = /* @__PURE__ */ new RegExp(`${PYTHON_WHITESPACE_CLASS}+`);

/**
 * The gateway's Slack-only rewrite of a `/hermes` parent command (`_normalize_slack_parent_command`):
 * when the text's first word (after Python's `strip()`) is exactly `/hermes`, a known sub-command
 * becomes that command with its arguments (`/hermes new` → `/new`, `/hermes compact here 5` →
 * `/compress here 5`; the white space after the sub-command becomes one space, the rest is kept), a
 * bare `/hermes` becomes `/help`, and anything else is free text (`/hermes what is up` → `what is
 * up`); `message_type` is then `command` when the result starts with `/`, else `text`. Any other text
 * is returned as it came, with its message type. Sub-commands are case-sensitive, white space is
 * Python's.
 *
 * @example
 * rewriteSlackParentCommand('/hermes new', 'text'); // ['/new', 'command']
 */
export function rewriteSlackParentCommand(
  text: string,
  messageType: MessageType,
  subcommands: Readonly<Record<string, string>> = SLACK_SUBCOMMANDS,
): readonly [text: string, messageType: MessageType] {
  const [parent, remainder] = splitFirstWord(pythonStrip(text));
  if (parent !== '/hermes') return [text, messageType];
  const payload = pythonStrip(remainder);
  const [sub] = splitFirstWord(payload);
  let result: string;
  if (sub !== '' && Object.hasOwn(subcommands, sub)) {
    const rest = pythonStrip(payload.slice(sub.length));
    result = rest === '' ? (subcommands[sub] as string) : `${subcommands[sub]} ${rest}`;
  } else result = payload === '' ? '/help' : payload;
  return [result, result.startsWith('/') ? 'command' : 'text'];
}

/** Python's `text.split(maxsplit=1)` of a stripped text: its first word and what follows the white space after it. */
function splitFirstWord(text: string): readonly [first: string, rest: string] {
  const match = FIRST_WORD_SPLIT.exec(text);
  if (match === null) return [text, ''];
  return [text.slice(0, match.index), text.slice(match.index + match[0].length)];
}

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
    prompt_response: isJsonObject<JsonObject>(promptResponse) ? promptResponse : null,
  };
}

function mediaTypes(urls: JsonValue, media: JsonValue): readonly JsonValue[] {
  if (!Array.isArray(urls) || urls.length === 0) return [];
  const mimeByUrl = new Map<string, JsonValue>();
  for (const item of Array.isArray(media) ? (media as readonly JsonValue[]) : []) {
    if (!isJsonObject<JsonObject>(item)) continue;
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
    if (!isJsonObject<JsonObject>(item)) continue;
    const text = Object.hasOwn(item, 'text') ? (item['text'] as JsonValue) : null;
    if (!isPythonTruthy(text)) continue;
    const src =
      Object.hasOwn(item, 'source') && isPythonTruthy(item['source'] as JsonValue) ? item['source'] : {};
    let author: JsonValue = '';
    if (isJsonObject<JsonObject>(src as JsonValue)) {
      const s = src as JsonObject;
      const name = Object.hasOwn(s, 'user_name') ? (s['user_name'] as JsonValue) : null;
      const id = Object.hasOwn(s, 'user_id') ? (s['user_id'] as JsonValue) : null;
      author = isPythonTruthy(name) ? name : isPythonTruthy(id) ? id : '';
    }
    lines.push(isPythonTruthy(author) ? `${pythonStr(author)}: ${pythonStr(text)}` : pythonStr(text));
  }
  return lines.length === 0 ? null : CHANNEL_CONTEXT_HEADER + lines.join('\n');
}

function asObject(value: JsonValue, path: string): JsonObject {
  if (!isJsonObject<JsonObject>(value))
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

/**
 * An inbound event as the gateway's relay reader builds it (`MessageEvent`). Values the gateway keeps
 * verbatim carry {@link JsonValue}; the reply and context objects are flattened the gateway's way.
 */
export interface MessageEvent {
  /** Wire `text` as sent; `""` when absent. */
  readonly text: JsonValue;
  readonly message_type: MessageType;
  readonly source: SessionSource;
  readonly message_id: JsonValue;
  readonly reply_to_message_id: JsonValue;
  /** `reply_to.text`. */
  readonly reply_to_text: JsonValue;
  /** `reply_to.author`. */
  readonly reply_to_author_name: JsonValue;
  /** Python `bool(reply_to.is_own)`. */
  readonly reply_to_is_own_message: boolean;
  /** Wire `media_urls` when truthy (kept as sent), else `[]`. */
  readonly media_urls: JsonValue;
  /**
   * Newer gateways: for each entry of a list `media_urls`, the `mime` (or `""`) of the `media[]` entry
   * with that exact `url`. Baseline gateways ignore `media[]`.
   */
  readonly media_types: readonly JsonValue[];
  /** The `context` list rendered as `"[Recent channel messages]\n" + lines`, or `null`. */
  readonly channel_context: string | null;
  /** A copy of `prompt_response` when it is an object, else `null`. */
  readonly prompt_response: { readonly [key: string]: JsonValue } | null;
}

/**
 * The inbound `event` object exactly as it travels in an `inbound` frame: any JSON object. The keys the
 * gateway reads are `text`, `message_type`, `message_id`, `reply_to_message_id`, `reply_to`,
 * `media_urls`, `media`, `context`, `prompt_response` and `source`; others are ignored (and kept here).
 */
export type MessageEventWire = { readonly [key: string]: JsonValue };

/**
 * Zod schema of the wire `event` object: any JSON object. The gateway's reading rules (defaults,
 * fallbacks, which malformed shapes crash it) are applied by `eventFromWire`.
 */
export const messageEventWireSchema: z.ZodMiniType<MessageEventWire> = /* @__PURE__ */ z.record(
  /* @__PURE__ */ z.string(),
  jsonValueSchema,
);

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
  const e = readEventObject(event);
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

function readEventObject(event: unknown): { readonly [key: string]: JsonValue } {
  const value = toJsonValue(
    event,
    ({ message, path }) => new RelayError('message_event_not_json', `event: ${message}`, { path }),
  );
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new RelayError('message_event_not_object', 'event must be an object');
  }
  return value as { readonly [key: string]: JsonValue };
}
