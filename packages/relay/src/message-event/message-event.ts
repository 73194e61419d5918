import type { JsonValue } from '../json/index.js';
import type { SessionSource } from '../session-source/schema.js';
import type { MessageType } from './message-type.js';

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
