import * as z from 'zod/mini';
import { type JsonValue, jsonValueSchema } from '../json/index.js';

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
export const messageEventWireSchema: z.ZodMiniType<MessageEventWire> = z.record(z.string(), jsonValueSchema);
