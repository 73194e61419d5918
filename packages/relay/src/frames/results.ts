import * as z from 'zod/mini';
import type { OutboundOp } from './ops.js';

/**
 * Keys every result may carry. The gateway treats any `success` that is not truthy as a failure,
 * surfaces `error`, logs `raw_response`, and (newer gateways) reads `code: "egress_declined"` as a
 * definite refusal. `ambiguous` is set only by the gateway on results it synthesises after a timeout
 * or a lost socket; a connector never sends it.
 */
const resultBase = {
  success: z.boolean(),
  error: z.optional(z.string()),
  code: z.optional(z.string()),
  raw_response: z.optional(z.unknown()),
  ambiguous: z.optional(z.boolean()),
};

/** Result of an action that creates or edits a message: the gateway reads `message_id`. */
const messageResultSchema = z.looseObject({ ...resultBase, message_id: z.optional(z.nullable(z.string())) });
/** Result whose only meaningful key is `success`. */
const plainResultSchema = z.looseObject(resultBase);

/** `send` result: `{ success, message_id?, error? }`. */
export const sendResultSchema = messageResultSchema;
/** `edit` result: `{ success, message_id?, error? }`; a missing `message_id` means the edited one. */
export const editResultSchema = messageResultSchema;
/** `typing` result: ignored by the gateway; `{ success }`. */
export const typingResultSchema = plainResultSchema;
/** `follow_up` result: `{ success, message_id?, error? }`. */
export const followUpResultSchema = messageResultSchema;
/** `send_media` result: `{ success, message_id?, error? }`. */
export const sendMediaResultSchema = messageResultSchema;
/** `prompt` result: `{ success, message_id? }`. */
export const promptResultSchema = messageResultSchema;
/** `react` result: `{ success }`. */
export const reactResultSchema = plainResultSchema;
/** `thread_rename` result: `{ success }`. */
export const threadRenameResultSchema = plainResultSchema;

/** `thread_create` result: the new thread's id in `thread_id`, or else in `message_id`. */
export const threadCreateResultSchema = z.looseObject({
  ...resultBase,
  thread_id: z.optional(z.nullable(z.string())),
  message_id: z.optional(z.nullable(z.string())),
});

/** A chat's name and type as `get_chat_info` returns them. */
export const chatInfoSchema = z.looseObject({ name: z.string(), type: z.string() });
/** See {@link chatInfoSchema}. */
export type ChatInfo = z.output<typeof chatInfoSchema>;

/**
 * `get_chat_info` result. Send `{ success: true, chat_info: { name, type } }`; the gateway also
 * accepts `name`/`type` at the top level (it reads `result.chat_info`, or `result` itself when
 * `chat_info` is missing or empty). See {@link readChatInfo}.
 */
export const getChatInfoResultSchema = z.looseObject({
  ...resultBase,
  success: z.optional(z.boolean()),
  chat_info: z.optional(chatInfoSchema),
  name: z.optional(z.string()),
  type: z.optional(z.string()),
});

/** The result schema of each known op. */
export const opResultSchemas = {
  send: sendResultSchema,
  edit: editResultSchema,
  typing: typingResultSchema,
  follow_up: followUpResultSchema,
  get_chat_info: getChatInfoResultSchema,
  send_media: sendMediaResultSchema,
  prompt: promptResultSchema,
  react: reactResultSchema,
  thread_create: threadCreateResultSchema,
  thread_rename: threadRenameResultSchema,
} as const satisfies Record<OutboundOp, z.ZodMiniType>;

/** The result a connector returns per op: `OpResult['thread_create']` has `thread_id`. */
export type OpResult = { [Op in OutboundOp]: z.output<(typeof opResultSchemas)[Op]> };

/** The result of a `send` action (`message_id` of the posted message on success). */
export type SendResult = OpResult['send'];
/** The result of an `edit` action. */
export type EditResult = OpResult['edit'];
/** The result of a `typing` action. */
export type TypingResult = OpResult['typing'];
/** The result of a `follow_up` action. */
export type FollowUpResult = OpResult['follow_up'];
/** The result of a `get_chat_info` action (`chat_info` on success). */
export type GetChatInfoResult = OpResult['get_chat_info'];
/** The result of a `send_media` action. */
export type SendMediaResult = OpResult['send_media'];
/** The result of a `prompt` action. */
export type PromptResult = OpResult['prompt'];
/** The result of a `react` action. */
export type ReactResult = OpResult['react'];
/** The result of a `thread_create` action (`thread_id` on success). */
export type ThreadCreateResult = OpResult['thread_create'];
/** The result of a `thread_rename` action. */
export type ThreadRenameResult = OpResult['thread_rename'];

/**
 * The `result` object of any `outbound_result` frame. The frame does not name its op, so only the
 * envelope is checked here; {@link decodeOpResult} checks a result against its op.
 */
export const outboundResultObjectSchema = z.record(z.string(), z.unknown());
/** See {@link outboundResultObjectSchema}. */
export type OutboundResultObject = z.output<typeof outboundResultObjectSchema>;

/**
 * What the gateway makes of a `get_chat_info` result: `chat_info` when it is a non-empty object, else
 * the result itself; a missing `name` becomes `chatId` and a missing `type` `"dm"` (present values,
 * `null` included, are kept as sent).
 *
 * @example
 * readChatInfo({ success: true, chat_info: { name: 'general', type: 'group' } }, 'c1'); // { name: 'general', type: 'group' }
 * readChatInfo({ success: false }, 'c1'); // { name: 'c1', type: 'dm' }
 */
export function readChatInfo(
  result: Readonly<Record<string, unknown>>,
  chatId: string,
): { readonly name: unknown; readonly type: unknown } {
  const nested = result['chat_info'];
  const info =
    nested !== null && typeof nested === 'object' && !Array.isArray(nested) && Object.keys(nested).length > 0
      ? (nested as Readonly<Record<string, unknown>>)
      : result;
  return {
    name: Object.hasOwn(info, 'name') ? info['name'] : chatId,
    type: Object.hasOwn(info, 'type') ? info['type'] : 'dm',
  };
}
