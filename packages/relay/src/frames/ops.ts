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

const KNOWN_OPS: ReadonlySet<unknown> = new Set(OUTBOUND_OPS);

/** Whether `op` is one of {@link OUTBOUND_OPS}. */
export function isOutboundOp(op: unknown): op is OutboundOp {
  return KNOWN_OPS.has(op);
}

/** `media_kind` values of a `send_media` action. */
export const MEDIA_KINDS = ['image', 'voice', 'audio', 'video', 'document'] as const;
/** A `send_media` action's `media_kind`. */
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** `prompt_kind` values of a `prompt` action. */
export const PROMPT_KINDS = ['approval', 'clarify'] as const;
/** A `prompt` action's `prompt_kind`. */
export type PromptKind = (typeof PROMPT_KINDS)[number];

/** `style` values of a prompt option. */
export const PROMPT_OPTION_STYLES = ['success', 'primary', 'danger'] as const;
/** A prompt option's `style`. */
export type PromptOptionStyle = (typeof PROMPT_OPTION_STYLES)[number];
