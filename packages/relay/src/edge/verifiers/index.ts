export { DEFAULT_MAX_SKEW_SECONDS } from './arguments.js';
export {
  DISCORD_SIGNATURE_HEADER,
  DISCORD_TIMESTAMP_HEADER,
  type DiscordInteraction,
  type DiscordVerifierOptions,
  type VerifiedDiscordInteraction,
  verifyDiscordInteraction,
} from './discord.js';
export type { EdgeRequest } from './request.js';
export {
  TWILIO_BODY_HASH_PARAM,
  TWILIO_SIGNATURE_HEADER,
  type TwilioParam,
  type TwilioVerifierOptions,
  type VerifiedTwilioFormWebhook,
  type VerifiedTwilioJsonWebhook,
  type VerifiedTwilioWebhook,
  verifyTwilioWebhook,
} from './twilio.js';
export {
  type VerifiedWeComCallback,
  type VerifiedWeComMessage,
  type VerifiedWeComUrlVerification,
  verifyWeComCallback,
  type WeComVerifierOptions,
} from './wecom.js';
export type { WeComCryptoOptions } from './wecom-config.js';
export { type EncryptedWeComReply, encryptWeComReply, type WeComReplyOptions } from './wecom-reply.js';
export { weComMsgSignature } from './wecom-signature.js';
