import * as z from 'zod/mini';
import { MEDIA_KINDS, type OutboundOp, PROMPT_KINDS, PROMPT_OPTION_STYLES } from './ops.js';

/**
 * The `metadata` object of an action. Keys seen from the gateway: `scope_id` and `user_id` (tenant
 * resolution, re-attached from the last inbound of the chat), `thread_id`, `reply_to_message_id`,
 * `notify`, `slack_team_id`, and on newer gateways `format_hints`. Values are kept as sent.
 */
export const actionMetadataSchema = z.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  { error: 'expected an object' },
);
/** See {@link actionMetadataSchema}. */
export type ActionMetadata = z.output<typeof actionMetadataSchema>;

/** `metadata`: always sent by the baseline gateway (may be `{}`); filled with `{}` when absent. */
const metadata = z._default(actionMetadataSchema, () => ({}));
/** `reply_to`: always sent by the baseline gateway, `null` when there is nothing to reply to. */
const replyTo = z._default(z.nullable(z.string()), null);

/** `send`: post `content` to `chat_id`. Result: {@link SendResult}. */
export const sendActionSchema = z.looseObject({
  op: z.literal('send'),
  chat_id: z.string(),
  content: z.string(),
  reply_to: replyTo,
  metadata,
});

/** `edit`: replace the text of `message_id`. Result: {@link EditResult}. */
export const editActionSchema = z.looseObject({
  op: z.literal('edit'),
  chat_id: z.string(),
  message_id: z.string(),
  content: z.string(),
  metadata,
});

/**
 * `typing`: show the typing indicator (sent about every 2 s during a turn). Slack only: `content: ""`
 * at turn end clears the assistant status line. Result: ignored by the gateway; answer fast, the
 * gateway abandons each typing call after 1.5 s.
 */
export const typingActionSchema = z.looseObject({
  op: z.literal('typing'),
  chat_id: z.string(),
  content: z.optional(z.string()),
  metadata,
});

/**
 * `follow_up`: act on the shared-identity capability bound to `session_key` (e.g. `kind`
 * `"discord.interaction_token"`). Never carries a token and no scope metadata. Result:
 * {@link FollowUpResult}.
 */
export const followUpActionSchema = z.looseObject({
  op: z.literal('follow_up'),
  session_key: z.string(),
  kind: z.string(),
  content: z.string(),
  metadata,
});

/**
 * `get_chat_info`: look up a chat's name and type. Carries no metadata and the frame names no
 * platform: the connector must know which platform the chat belongs to. Result:
 * {@link GetChatInfoResult}.
 */
export const getChatInfoActionSchema = z.looseObject({
  op: z.literal('get_chat_info'),
  chat_id: z.string(),
});

/**
 * `send_media`: post the file at `source_url` (a public URL or the connector's own
 * `/relay/media/<id>`) with caption `content`. Result: {@link SendMediaResult}; on failure the
 * gateway falls back to a text `send`.
 */
export const sendMediaActionSchema = z.looseObject({
  op: z.literal('send_media'),
  chat_id: z.string(),
  media_kind: z.enum(MEDIA_KINDS),
  source_url: z.string(),
  content: z._default(z.string(), ''),
  reply_to: replyTo,
  metadata,
  filename: z.optional(z.string()),
});

/** One button of a `prompt` action; `id` matches `[A-Za-z0-9_.-]{1,32}`. */
export const promptOptionSchema = z.looseObject({
  id: z.string(),
  label: z.string(),
  style: z.optional(z.enum(PROMPT_OPTION_STYLES)),
});
/** See {@link promptOptionSchema}. */
export type PromptOption = z.output<typeof promptOptionSchema>;

/**
 * `prompt`: an interactive approval or clarify question with buttons. A press comes back as an
 * inbound event with `prompt_response` and text `/<option_id>`. Result: {@link PromptResult};
 * failure makes the gateway fall back to numbered text.
 */
export const promptActionSchema = z.looseObject({
  op: z.literal('prompt'),
  chat_id: z.string(),
  content: z.string(),
  prompt_kind: z.enum(PROMPT_KINDS),
  prompt_id: z.string(),
  options: z.array(promptOptionSchema),
  reply_to: replyTo,
  metadata,
  timeout_s: z.optional(z.int()),
});

/** `react`: add (or with `remove: true`, remove) `emoji` on `message_id`. Result: {@link ReactResult}. */
export const reactActionSchema = z.looseObject({
  op: z.literal('react'),
  chat_id: z.string(),
  message_id: z.string(),
  emoji: z.string(),
  remove: z._default(z.boolean(), false),
  metadata,
});

/**
 * `thread_create`: open a thread named `thread_name` under the parent `chat_id` (newest gateways may
 * add an anchor `message_id`). Result: {@link ThreadCreateResult}.
 */
export const threadCreateActionSchema = z.looseObject({
  op: z.literal('thread_create'),
  chat_id: z.string(),
  thread_name: z.string(),
  metadata,
  message_id: z.optional(z.string()),
});

/**
 * `thread_rename`: rename thread `message_id` (the thread id) under `chat_id`. With
 * `only_if_current_name` the connector renames only while the thread still has that name. Result:
 * {@link ThreadRenameResult}.
 */
export const threadRenameActionSchema = z.looseObject({
  op: z.literal('thread_rename'),
  chat_id: z.string(),
  message_id: z.string(),
  thread_name: z.string(),
  metadata,
  only_if_current_name: z.optional(z.string()),
});

/** The schema of each known op's action. */
export const opActionSchemas = {
  send: sendActionSchema,
  edit: editActionSchema,
  typing: typingActionSchema,
  follow_up: followUpActionSchema,
  get_chat_info: getChatInfoActionSchema,
  send_media: sendMediaActionSchema,
  prompt: promptActionSchema,
  react: reactActionSchema,
  thread_create: threadCreateActionSchema,
  thread_rename: threadRenameActionSchema,
} as const satisfies Record<OutboundOp, z.ZodMiniType>;

/** A decoded action per op (defaults filled): `OpParams['send']` is a {@link SendAction}. */
export type OpParams = { [Op in OutboundOp]: z.output<(typeof opActionSchemas)[Op]> };
/** What an action may omit when it is built to be encoded (defaults are filled on encode). */
export type OpParamsInput = { [Op in OutboundOp]: z.input<(typeof opActionSchemas)[Op]> };

/** A decoded `send` action: post `content` to a chat. */
export type SendAction = OpParams['send'];
/** A decoded `edit` action: replace the text of a message the connector sent. */
export type EditAction = OpParams['edit'];
/** A decoded `typing` action: show the typing indicator in a chat. */
export type TypingAction = OpParams['typing'];
/** A decoded `follow_up` action: answer through a capability the connector captured at the edge (no token on the wire). */
export type FollowUpAction = OpParams['follow_up'];
/** A decoded `get_chat_info` action: ask the connector for a chat's name and type. */
export type GetChatInfoAction = OpParams['get_chat_info'];
/** A decoded `send_media` action: post a file (image, audio, video, document) to a chat. */
export type SendMediaAction = OpParams['send_media'];
/** A decoded `prompt` action: post a message with choices (buttons or a select) the user answers. */
export type PromptAction = OpParams['prompt'];
/** A decoded `react` action: add or remove a reaction on a message. */
export type ReactAction = OpParams['react'];
/** A decoded `thread_create` action: open a thread in a chat. */
export type ThreadCreateAction = OpParams['thread_create'];
/** A decoded `thread_rename` action: rename a thread. */
export type ThreadRenameAction = OpParams['thread_rename'];

/**
 * An action whose `op` this SDK does not know (a newer gateway's `delete`, a typo, a missing `op`).
 * It is kept whole in `raw` and written back unchanged; a connector should answer it with a failed
 * `outbound_result` (`{ success: false, error }`) rather than leave the gateway waiting 30 s.
 */
export interface UnknownAction {
  readonly op: 'unknown';
  /** The `op` value as received (`undefined` when absent). */
  readonly rawOp: unknown;
  /** The action object as received. */
  readonly raw: Readonly<Record<string, unknown>>;
}

/** Any decoded outbound action, known or not: switch on `op`. */
export type OutboundAction = OpParams[OutboundOp] | UnknownAction;

/** Any outbound action as built for encoding. */
export type OutboundActionInput = OpParamsInput[OutboundOp] | UnknownAction;

/** Key order of each op's action as the gateway writes it; other keys follow in their own order. */
export const ACTION_KEY_ORDER: { readonly [Op in OutboundOp]: readonly string[] } = {
  send: ['op', 'chat_id', 'content', 'reply_to', 'metadata'],
  edit: ['op', 'chat_id', 'message_id', 'content', 'metadata'],
  typing: ['op', 'chat_id', 'content', 'metadata'],
  follow_up: ['op', 'session_key', 'kind', 'content', 'metadata'],
  get_chat_info: ['op', 'chat_id'],
  send_media: ['op', 'chat_id', 'media_kind', 'source_url', 'content', 'reply_to', 'metadata', 'filename'],
  prompt: [
    'op',
    'chat_id',
    'content',
    'prompt_kind',
    'prompt_id',
    'options',
    'reply_to',
    'metadata',
    'timeout_s',
  ],
  react: ['op', 'chat_id', 'message_id', 'emoji', 'remove', 'metadata'],
  thread_create: ['op', 'chat_id', 'thread_name', 'metadata', 'message_id'],
  thread_rename: ['op', 'chat_id', 'message_id', 'thread_name', 'metadata', 'only_if_current_name'],
};
