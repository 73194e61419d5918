export {
  readBearerToken,
  relayAuthorizationHeader,
  relayUpgradeHeaders,
  verifyRelayAuthorization,
} from './bearer.js';
export {
  RELAY_CLOSE_REASON_EXPIRED,
  RELAY_CLOSE_REASON_UNAUTHORIZED,
  RELAY_CLOSE_UNAUTHORIZED,
  type RelayAuthClose,
  type RelayAuthCloseReason,
  relayAuthClose,
} from './close-codes.js';
export { hmacSha256, relaySign } from './hmac-sha256.js';
export {
  type MakeTokenOptions,
  type MintRelayTokenOptions,
  makeToken,
  mintRelayToken,
  RELAY_UPGRADE_TOKEN_TTL_SECONDS,
} from './mint.js';
export { type ParsedRelayToken, parseRelayToken, peekRelayTokenGatewayId } from './parse.js';
export {
  type RelayTokenAccepted,
  type RelayTokenRejected,
  type RelayTokenRejectReason,
  type RelayTokenVerification,
  type VerifyRelayTokenOptions,
  verifyRelayToken,
} from './verify.js';
