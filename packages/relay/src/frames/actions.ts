import { isJsonObject } from '@agentwire/internal';
import * as z from 'zod/mini';

import { safeParseInEnglish } from '../internal.js';

/**
 * Every outbound action `op` the baseline gateway emits, in the order of the contract's op table.
 * Newer gateways add more (`delete`, `draft`); those decode as an unknown action.
 */
export const OUTBOUND_OPS = [
  'send',
  'edit',
  'typing',
  'follow_up',
  'get_chat_info',
  'send_media',
  'prompt',
  'react',
  'thread_create',
  'thread_rename',
] as const;

/** An outbound action `op` this SDK knows. */
export type OutboundOp = (typeof OUTBOUND_OPS)[number];

const KNOWN_OPS: ReadonlySet<unknown> = /* @__PURE__ */ new Set(OUTBOUND_OPS);

/** Whether `op` is one of {@link OUTBOUND_OPS}. */
export function isOutboundOp(op: unknown): op is OutboundOp {
  return KNOWN_OPS.has(op);
}

/** `media_kind` values of a `send_media` action. */
export const MEDIA_KINDS = ['image', 'voice', 'audio', 'video', 'document'] as const;

/** `prompt_kind` values of a `prompt` action. */
export const PROMPT_KINDS = ['approval', 'clarify'] as const;

/** `style` values of a prompt option. */
export const PROMPT_OPTION_STYLES = ['success', 'primary', 'danger'] as const;

/**
 * The `metadata` object of an action. Keys seen from the gateway: `scope_id` and `user_id` (tenant
 * resolution, re-attached from the last inbound of the chat), `thread_id`, `reply_to_message_id`,
 * `notify`, `slack_team_id`, and on newer gateways `format_hints`. Values are kept as sent.
 */
export const actionMetadataSchema = /* @__PURE__ */ z.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  { error: 'expected an object' },
);

/** `metadata`: always sent by the baseline gateway (may be `{}`); filled with `{}` when absent. */
const metadata = /* @__PURE__ */ z._default(actionMetadataSchema, () => ({}));
/** `reply_to`: always sent by the baseline gateway, `null` when there is nothing to reply to. */
const replyTo = /* @__PURE__ */ z._default(/* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string()), null);

/** `send`: post `content` to `chat_id`. Result: `OpResult['send']`. */
export const sendActionSchema = /* @__PURE__ */ z.looseObject({
  op: /* @__PURE__ */ z.literal('send'),
  chat_id: /* @__PURE__ */ z.string(),
  content: /* @__PURE__ */ z.string(),
  reply_to: replyTo,
  metadata,
});

/** `edit`: replace the text of `message_id`. Result: `OpResult['edit']`. */
export const editActionSchema = /* @__PURE__ */ z.looseObject({
  op: /* @__PURE__ */ z.literal('edit'),
  chat_id: /* @__PURE__ */ z.string(),
  message_id: /* @__PURE__ */ z.string(),
  content: /* @__PURE__ */ z.string(),
  metadata,
});

/**
 * `typing`: show the typing indicator (sent about every 2 s during a turn). Slack only: `content: ""`
 * at turn end clears the assistant status line. Result: ignored by the gateway; answer fast, the
 * gateway abandons each typing call after 1.5 s.
 */
export const typingActionSchema = /* @__PURE__ */ z.looseObject({
  op: /* @__PURE__ */ z.literal('typing'),
  chat_id: /* @__PURE__ */ z.string(),
  content: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
  metadata,
});

/**
 * `follow_up`: act on the shared-identity capability bound to `session_key` (e.g. `kind`
 * `"discord.interaction_token"`). Never carries a token and no scope metadata. Result:
 * `OpResult['follow_up']`.
 */
export const followUpActionSchema = /* @__PURE__ */ z.looseObject({
  op: /* @__PURE__ */ z.literal('follow_up'),
  session_key: /* @__PURE__ */ z.string(),
  kind: /* @__PURE__ */ z.string(),
  content: /* @__PURE__ */ z.string(),
  metadata,
});

/**
 * `get_chat_info`: look up a chat's name and type. Carries no metadata and the frame names no
 * platform: the connector must know which platform the chat belongs to. Result:
 * `OpResult['get_chat_info']`.
 */
export const getChatInfoActionSchema = /* @__PURE__ */ z.looseObject({
  op: /* @__PURE__ */ z.literal('get_chat_info'),
  chat_id: /* @__PURE__ */ z.string(),
});

/**
 * `send_media`: post the file at `source_url` (a public URL or the connector's own
 * `/relay/media/<id>`) with caption `content`. Result: `OpResult['send_media']`; on failure the
 * gateway falls back to a text `send`.
 */
export const sendMediaActionSchema = /* @__PURE__ */ z.looseObject({
  op: /* @__PURE__ */ z.literal('send_media'),
  chat_id: /* @__PURE__ */ z.string(),
  media_kind: /* @__PURE__ */ z.enum(MEDIA_KINDS),
  source_url: /* @__PURE__ */ z.string(),
  content: /* @__PURE__ */ z._default(/* @__PURE__ */ z.string(), ''),
  reply_to: replyTo,
  metadata,
  filename: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
});

/** One button of a `prompt` action; `id` matches `[A-Za-z0-9_.-]{1,32}`. */
export const promptOptionSchema = /* @__PURE__ */ z.looseObject({
  id: /* @__PURE__ */ z.string(),
  label: /* @__PURE__ */ z.string(),
  style: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.enum(PROMPT_OPTION_STYLES)),
});

/**
 * `prompt`: an interactive approval or clarify question with buttons. A press comes back as an
 * inbound event with `prompt_response` and text `/<option_id>`. Result: `OpResult['prompt']`;
 * failure makes the gateway fall back to numbered text.
 */
export const promptActionSchema = /* @__PURE__ */ z.looseObject({
  op: /* @__PURE__ */ z.literal('prompt'),
  chat_id: /* @__PURE__ */ z.string(),
  content: /* @__PURE__ */ z.string(),
  prompt_kind: /* @__PURE__ */ z.enum(PROMPT_KINDS),
  prompt_id: /* @__PURE__ */ z.string(),
  options: /* @__PURE__ */ z.array(promptOptionSchema),
  reply_to: replyTo,
  metadata,
  timeout_s: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int()),
});

/** `react`: add (or with `remove: true`, remove) `emoji` on `message_id`. Result: `OpResult['react']`. */
export const reactActionSchema = /* @__PURE__ */ z.looseObject({
  op: /* @__PURE__ */ z.literal('react'),
  chat_id: /* @__PURE__ */ z.string(),
  message_id: /* @__PURE__ */ z.string(),
  emoji: /* @__PURE__ */ z.string(),
  remove: /* @__PURE__ */ z._default(/* @__PURE__ */ z.boolean(), false),
  metadata,
});

/**
 * `thread_create`: open a thread named `thread_name` under the parent `chat_id` (newest gateways may
 * add an anchor `message_id`). Result: `OpResult['thread_create']`.
 */
export const threadCreateActionSchema = /* @__PURE__ */ z.looseObject({
  op: /* @__PURE__ */ z.literal('thread_create'),
  chat_id: /* @__PURE__ */ z.string(),
  thread_name: /* @__PURE__ */ z.string(),
  metadata,
  message_id: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
});

/**
 * `thread_rename`: rename thread `message_id` (the thread id) under `chat_id`. With
 * `only_if_current_name` the connector renames only while the thread still has that name. Result:
 * `OpResult['thread_rename']`.
 */
export const threadRenameActionSchema = /* @__PURE__ */ z.looseObject({
  op: /* @__PURE__ */ z.literal('thread_rename'),
  chat_id: /* @__PURE__ */ z.string(),
  message_id: /* @__PURE__ */ z.string(),
  thread_name: /* @__PURE__ */ z.string(),
  metadata,
  only_if_current_name: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
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

/**
 * A decoded action per op (defaults filled), `OpParams[op]`:
 * - `send`: post `content` to a chat;
 * - `edit`: replace the text of a message the connector sent;
 * - `typing`: show the typing indicator in a chat;
 * - `follow_up`: answer through a capability the connector captured at the edge (no token on the wire);
 * - `get_chat_info`: ask the connector for a chat's name and type;
 * - `send_media`: post a file (image, audio, video, document) to a chat;
 * - `prompt`: post a message with choices (buttons or a select) the user answers;
 * - `react`: add or remove a reaction on a message;
 * - `thread_create`: open a thread in a chat;
 * - `thread_rename`: rename a thread.
 *
 * Each op's schema is `opActionSchemas[op]`; its result is `OpResult[op]`.
 */
export type OpParams = { [Op in OutboundOp]: z.output<(typeof opActionSchemas)[Op]> };
/** What an action may omit when it is built to be encoded (defaults are filled on encode). */
export type OpParamsInput = { [Op in OutboundOp]: z.input<(typeof opActionSchemas)[Op]> };

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

/**
 * The `action` of an `outbound` frame: a known op is checked against its schema (issues point into
 * `$.action`); any other `op` becomes an {@link UnknownAction} that keeps the object whole.
 */
export const outboundActionFieldSchema: z.ZodMiniType<
  OutboundAction,
  Record<string, unknown>
> = /* @__PURE__ */ z.pipe(
  /* @__PURE__ */ z.custom<Record<string, unknown>>(isJsonObject, { error: 'expected an object' }),
  /* @__PURE__ */ z.transform((raw: Record<string, unknown>, ctx): OutboundAction => {
    const op = raw['op'];
    if (!isOutboundOp(op)) return { op: 'unknown', rawOp: op, raw };
    const parsed = safeParseInEnglish(opActionSchemas[op], raw);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.issues.push({ ...issue, input: raw } as z.core.$ZodRawIssue);
    return z.NEVER;
  }),
);

/** The result `code` of a definite egress refusal. */
export const EGRESS_DECLINED_CODE = 'egress_declined';

/** A failed result that tells the gateway the connector refused to egress to that target. */
export interface EgressDeclinedResult {
  readonly success: false;
  readonly code: typeof EGRESS_DECLINED_CODE;
  readonly error: string;
}

/**
 * The uniform refusal result: `code: "egress_declined"` plus the text newer gateways also recognise,
 * `"<platform> egress declined: target is not an approved destination for this connection"`. It never
 * carries `ambiguous` (a decline is definite). Note that the baseline gateway still retries a refused
 * `send` once as plain text.
 *
 * @example
 * egressDeclinedResult('discord');
 * // { success: false, code: 'egress_declined',
 * //   error: 'discord egress declined: target is not an approved destination for this connection' }
 */
export function egressDeclinedResult(platform: string): EgressDeclinedResult {
  return {
    success: false,
    code: EGRESS_DECLINED_CODE,
    error: `${platform} egress declined: target is not an approved destination for this connection`,
  };
}

/**
 * Whether a result is an egress refusal as newer gateways read it: `code === "egress_declined"`, or an
 * `error` text containing `egress declined:` in any case.
 */
export function isEgressDeclined(result: Readonly<Record<string, unknown>>): boolean {
  if (result['code'] === EGRESS_DECLINED_CODE) return true;
  const error = result['error'];
  return typeof error === 'string' && error.toLowerCase().includes('egress declined:');
}
