import type { CreateDescriptorFields } from '../descriptor/index.js';
import type { OpParams, OpResult, OutboundOp } from '../frames/index.js';

/**
 * What a platform adapter states about its platform in the `descriptor` frame. `supported_ops` is not
 * part of it: the server fills it with exactly the ops the adapter implements.
 */
export type PlatformDescriptorFields = Omit<CreateDescriptorFields, 'supported_ops'>;

/** Who an outbound action is for: the authenticated tenant and the hello'd identity it targets. */
export interface OutboundContext {
  /** The tenant of the gateway connection (from `authenticate`, never from the gateway's frames). */
  readonly tenant: string;
  /** The gateway id the connection authenticated as. */
  readonly gatewayId: string;
  /** The hello'd platform the action targets: the frame's `platform`, else the session default. */
  readonly platform: string;
  /** That identity's bot id (`""` when the hello carried none). */
  readonly botId: string;
  /** The frame's `requestId`. */
  readonly requestId: string;
  /**
   * Aborted when the server stops waiting for this call: the call ran past `outboundTimeoutMs` (reason a
   * `RelayError` `relay_server_outbound_timeout`; the gateway was already answered with a failure) or the
   * connection closed (reason `RelayError` `relay_server_connection_closed`). Pass it to your HTTP client.
   */
  readonly signal: AbortSignal;
}

/** The context of a `follow_up`: {@link OutboundContext} plus the credential resolved from the vault. */
export interface FollowUpContext extends OutboundContext {
  /** The credential bound under `(tenant, session_key, kind)`. Never put it in a result. */
  readonly credential: string;
}

/** The context of a gateway `interrupt`. */
export interface InterruptContext {
  readonly tenant: string;
  readonly gatewayId: string;
  /** The connection's session default platform (its first answered hello). */
  readonly platform: string;
  readonly botId: string;
}

/** Executes one op: the decoded action (defaults filled) in, the op's result shape out. */
export type OpHandler<Op extends OutboundOp, Context = OutboundContext> = (
  action: OpParams[Op],
  context: Context,
) => OpResult[Op] | Promise<OpResult[Op]>;

/**
 * What a connector author implements per platform. Each op is an optional method named after the op;
 * the ops an adapter implements are exactly the `supported_ops` of its descriptor, and the gateway
 * gets `{ success: false, error }` for any other. A method returns the op's result (`{ success,
 * message_id?, error? }`, `{ success, thread_id? }`, `{ success, chat_info: { name, type } }` …); a
 * throw or a rejection becomes `{ success: false, error: <message> }`. Use `egressDeclinedResult`
 * for a refused destination.
 *
 * @example
 * const discord: PlatformAdapter = {
 *   descriptor: {
 *     platform: 'discord', label: 'Discord', max_message_length: 2000, supports_draft_streaming: false,
 *     supports_edit: true, supports_threads: true, markdown_dialect: 'discord', len_unit: 'utf16',
 *   },
 *   async send(action, { signal }) {
 *     const id = await api.post(action.chat_id, action.content, { signal });
 *     return { success: true, message_id: id };
 *   },
 *   async typing(action) {
 *     await api.typing(action.chat_id);
 *     return { success: true };
 *   },
 * };
 */
export interface PlatformAdapter {
  readonly descriptor: PlatformDescriptorFields;
  readonly send?: OpHandler<'send'>;
  readonly edit?: OpHandler<'edit'>;
  readonly typing?: OpHandler<'typing'>;
  /**
   * Called only when the vault holds a credential for `(tenant, session_key, kind)`; the server
   * answers an absent, expired or other tenant's capability with `{ success: false }` itself.
   */
  readonly follow_up?: OpHandler<'follow_up', FollowUpContext>;
  readonly get_chat_info?: OpHandler<'get_chat_info'>;
  readonly send_media?: OpHandler<'send_media'>;
  readonly prompt?: OpHandler<'prompt'>;
  readonly react?: OpHandler<'react'>;
  readonly thread_create?: OpHandler<'thread_create'>;
  readonly thread_rename?: OpHandler<'thread_rename'>;
  /**
   * A gateway `interrupt` frame (a mid-turn `/stop`) for `sessionKey`, delivered to the adapter of the
   * connection's session default platform. What it throws is reported on the server's `error` event.
   */
  readonly onInterrupt?: (
    sessionKey: string,
    reason: string | null,
    context: InterruptContext,
  ) => void | Promise<void>;
}
