import * as z from 'zod/mini';
import { RelayError } from '../errors.js';
import { safeParseInEnglish } from '../internal/english-issues.js';
import { type JsonValue, toJsonValue } from '../json/index.js';
import { isKnownPlatform } from '../session-source/platforms.js';
import type { SessionSource } from '../session-source/schema.js';
import { sessionSourceToWire } from '../session-source/to-wire.js';
import { MESSAGE_TYPES } from './message-type.js';
import type { MessageEventWire } from './schema.js';

const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const text = z.string().check(z.refine((s) => !LONE_SURROGATE.test(s), 'must be well-formed Unicode'));
const id = text.check(z.minLength(1));
const optionalId = z.optional(z.nullable(id));
const optionalText = z.optional(text);
const optionalNullableText = z.optional(z.nullable(text));
const optionalBoolean = z.optional(z.boolean());

/** The chat types the gateway's session keys distinguish; anything else is keyed as a non-DM type. */
export const CHAT_TYPES = ['dm', 'group', 'channel', 'thread', 'forum'] as const;

const sessionSourceInitSchema = z.strictObject({
  platform: z
    .string()
    .check(z.refine(isKnownPlatform, 'must be a known lowercase platform name (others become "relay")')),
  chat_id: id,
  chat_type: z.enum(CHAT_TYPES),
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
});

const mediaSchema = z.strictObject({
  url: id,
  kind: optionalText,
  mime: optionalText,
  size: z.optional(z.number().check(z.int(), z.nonnegative())),
  filename: optionalText,
  caption: optionalText,
});

const contextSchema = z.strictObject({
  text: text.check(z.minLength(1)),
  source: z.optional(z.strictObject({ user_name: optionalText, user_id: optionalText })),
});

const promptResponseSchema = z.strictObject({
  prompt_id: id,
  option_id: id,
  label: optionalText,
  prompt_message_id: z.optional(id),
});

const messageEventInitSchema = z
  .strictObject({
    text: optionalText,
    message_type: z.optional(z.enum(MESSAGE_TYPES)),
    message_id: optionalId,
    reply_to_message_id: optionalId,
    reply_to: z.optional(
      z.nullable(
        z.strictObject({
          text: optionalNullableText,
          author: optionalNullableText,
          is_own: optionalBoolean,
        }),
      ),
    ),
    media_urls: z.optional(z.array(id)),
    media: z.optional(z.array(mediaSchema)),
    context: z.optional(z.array(contextSchema)),
    prompt_response: z.optional(z.nullable(promptResponseSchema)),
    source: sessionSourceInitSchema,
  })
  .check(
    z.superRefine((event, ctx) => {
      const urls = new Set(event.media_urls ?? []);
      event.media?.forEach((item, i) => {
        if (!urls.has(item.url)) {
          ctx.addIssue({ code: 'custom', path: ['media', i, 'url'], message: 'must be one of media_urls' });
        }
      });
    }),
  );

/** What a connector states about the author's side of an inbound message. */
export type SessionSourceInit = z.input<typeof sessionSourceInitSchema>;
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
