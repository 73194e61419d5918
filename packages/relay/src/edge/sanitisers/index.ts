// Edge sanitisers: what may leave the edge of a verified provider webhook (contract §6). A Discord
// interaction loses its `token`, bound in the capability vault for `follow_up`; a WeCom callback is
// forwarded as its decrypted XML without suite credentials. A Twilio webhook is forwarded as the
// verified bytes: its parameters carry ids and content, never a credential (the Auth Token only
// keys the `X-Twilio-Signature`, which the edge handler does not forward).
export {
  DISCORD_INTERACTION_TOKEN_KIND,
  DISCORD_INTERACTION_TOKEN_TTL_MS,
  type DiscordSanitiseOptions,
  type SanitisedDiscordInteraction,
  sanitiseDiscordInteraction,
} from './discord-interaction.js';
export {
  type DiscordInteractionSessionSource,
  discordInteractionSessionSource,
} from './discord-session-source.js';
export {
  type SanitisedWeComMessage,
  sanitiseWeComMessage,
  WECOM_CREDENTIAL_ELEMENTS,
} from './wecom-message.js';
