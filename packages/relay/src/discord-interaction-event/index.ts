// The gateway side of the passthrough plane: what the gateway makes of a forwarded Discord
// interaction. Runtime-neutral.
export {
  type DiscordInteractionEventOptions,
  type DiscordInteractionInput,
  discordInteractionEvent,
} from './discord-interaction-event.js';
