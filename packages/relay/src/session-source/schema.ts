import * as z from 'zod/mini';
import { type JsonValue, jsonValueSchema } from '../json/index.js';

/**
 * A `SessionSource` as the gateway holds it. Keys are the snake_case wire names, in the TS type as on
 * the wire: one spelling everywhere, no mapping layer to get wrong.
 *
 * Value types are what the gateway keeps: on the relay path it stores wire values as sent, so an id can
 * be a number (`-100123`) and `chat_type` can be `null` (rendered `"None"` in session keys). An absent
 * optional key means the dataclass default (`null`; `chat_type` `"dm"`; booleans `false`).
 */
export interface SessionSource {
  /** A platform name; `sessionSourceFromWire` canonicalises it (unknown names become `"relay"`). */
  readonly platform: string;
  readonly chat_id: JsonValue;
  readonly chat_name?: JsonValue;
  /** `dm`, `group`, `channel`, `thread` or `forum`; other values are kept and keyed verbatim. */
  readonly chat_type?: JsonValue;
  readonly user_id?: JsonValue;
  readonly user_name?: JsonValue;
  readonly thread_id?: JsonValue;
  readonly chat_topic?: JsonValue;
  readonly user_id_alt?: JsonValue;
  readonly chat_id_alt?: JsonValue;
  /** Workspace/guild/server scope. Wins over `guild_id` whenever it is not `null`. */
  readonly scope_id?: JsonValue;
  /** Deprecated alias of `scope_id`; the relay reader ignores it on the wire. */
  readonly guild_id?: JsonValue;
  readonly parent_chat_id?: JsonValue;
  readonly message_id?: JsonValue;
  readonly profile?: JsonValue;
  readonly auto_thread_created?: boolean;
  readonly auto_thread_initial_name?: JsonValue;
  /** Newer gateways: the thread a channel message's reply will open (keys the session there). */
  readonly prospective_thread_id?: JsonValue;
  /** Newest gateways: author is a bot/webhook. Absent = provenance unknown (room controls fail closed). */
  readonly is_bot?: boolean;
  /** Newest gateways: the event is an edit of an earlier message. */
  readonly message_is_edit?: boolean;
  /** Newest gateways: the connector verified the chat is one-to-one (Slack/Matrix DMs). */
  readonly one_to_one_verified?: boolean;
}

/** The `source` object of an inbound event exactly as it travels: any JSON object. */
export type SessionSourceWire = { readonly [key: string]: JsonValue };

/**
 * Zod schema of the wire `source` object: any JSON object, unknown keys kept. Reading rules (defaults,
 * platform fallback) are applied by `sessionSourceFromWire`, not here. (Both calls are marked pure: a
 * bundle that imports only the channel-token functions from the root must be able to drop zod.)
 */
export const sessionSourceWireSchema: z.ZodMiniType<SessionSourceWire> = /* @__PURE__ */ z.record(
  /* @__PURE__ */ z.string(),
  jsonValueSchema,
);
