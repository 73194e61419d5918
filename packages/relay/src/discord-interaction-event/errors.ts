import { RelayError } from '../errors.js';

/** Stable codes of the errors {@link DiscordInteractionEventError} covers. */
export type DiscordInteractionEventErrorCode =
  | 'discord_interaction_invalid_argument'
  | 'discord_interaction_unreadable';

/** Base class of every error the gateway-side Discord interaction reader throws. */
export abstract class DiscordInteractionEventError extends RelayError {
  abstract override readonly name: string;
  abstract override readonly code: DiscordInteractionEventErrorCode;
}

/**
 * The reader was called with something it cannot take: neither a forward, nor body bytes, nor body
 * text; a forward that is not a `passthrough_forward` object; body text with a lone surrogate (no
 * UTF-8 body decodes to one); an unknown dialect or a non-string profile.
 */
export class DiscordInteractionArgumentError extends DiscordInteractionEventError {
  override readonly name = 'DiscordInteractionArgumentError';
  readonly code = 'discord_interaction_invalid_argument';
}

/**
 * The interaction is one the gateway's converter crashes on: an application command (type 2) or a
 * component press (type 3) whose `data` is truthy but not an object. The gateway logs "handling
 * failed" and drops the forward; this reader says why instead of returning nothing.
 */
export class UnreadableDiscordInteractionError extends DiscordInteractionEventError {
  override readonly name = 'UnreadableDiscordInteractionError';
  readonly code = 'discord_interaction_unreadable';
}
