/**
 * `@agentwire/relay` — the Relay ⇄ Connector v1 contract between the Hermes AI gateway and a
 * platform connector, byte-compatible with the running gateway.
 *
 * Runtime-neutral: the HMAC channel token and close codes, passthrough bodies and prompt callback
 * tokens, capability descriptors, `SessionSource` and `MessageEvent` wire forms, the
 * session-key oracle, every frame and outbound op with its result shape, the NDJSON frame codec, and
 * the interfaces a runtime plugs into — `RelayTransport` and the stores `InboundBuffer`, `RelayBus`,
 * `CapabilityVault` and `GatewaySecretStore` (with {@link relayStoreKit} for implementing one).
 * In-memory stores and test doubles are in `@agentwire/relay/testing`.
 *
 * @example
 * ```ts
 * import { buildSessionKey, decodeGatewayFrame, encodeFrame } from '@agentwire/relay';
 *
 * buildSessionKey({ platform: 'discord', chat_type: 'group', chat_id: '42', user_id: '7' });
 * // 'agent:main:discord:group:42:7'
 * ```
 *
 * @packageDocumentation
 */

export {
  type MakeTokenOptions,
  type MintRelayTokenOptions,
  makeToken,
  mintRelayToken,
  parseRelayToken,
  peekRelayTokenGatewayId,
  RELAY_CLOSE_REASON_EXPIRED,
  RELAY_CLOSE_REASON_UNAUTHORIZED,
  RELAY_CLOSE_UNAUTHORIZED,
  type RelayTokenVerification,
  relayAuthClose,
  relayAuthorizationHeader,
  relaySign,
  type VerifyRelayTokenOptions,
  verifyRelayAuthorization,
  verifyRelayToken,
} from './auth.js';
export {
  type BufferedEntry,
  type BufferedFrame,
  decodeBufferedFrame,
  encodeBufferedFrame,
  type InboundBuffer,
} from './buffer.js';
export type {
  RelayBus,
  RelayBusErrorHandler,
  RelayBusListener,
  RelayBusMessage,
  RelayBusSubscription,
} from './bus.js';
export {
  type CapabilityDescriptor,
  CONTRACT_VERSION,
  type CreateDescriptorFields,
  createDescriptor,
  type DescriptorToJsonOptions,
  descriptorMessageLength,
  descriptorSupportsCodeBlocks,
  descriptorSupportsOp,
  descriptorToJson,
  parseDescriptor,
  parseDescriptorValue,
  type StrictCapabilityDescriptor,
} from './descriptor.js';
export { type DiscordInteractionEventOptions, discordInteractionEvent } from './discord-interaction-event.js';
export { RelayError, type RelayErrorCode } from './errors.js';
export {
  egressDeclinedResult,
  isOutboundOp,
  type OpParams,
  type OpParamsInput,
  OUTBOUND_OPS,
  type OutboundAction,
  type OutboundActionInput,
  type OutboundOp,
  opActionSchemas,
} from './frames/actions.js';
export {
  decodeConnectorFrame,
  decodeFrame,
  decodeGatewayFrame,
  decodeOpResult,
  type RelayFrame,
} from './frames/decode.js';
export {
  type ConnectorFrame,
  type ConnectorFrameInput,
  connectorFrameSchema,
  frameToWireObject,
  type GatewayFrame,
  type GatewayFrameInput,
  gatewayFrameSchema,
  type OpResult,
  type OutboundResultObject,
  opResultSchemas,
  type PassthroughForward,
  readChatInfo,
  type UnknownFrame,
} from './frames/frames.js';
export type { JsonValue } from './json.js';
export {
  createMessageEvent,
  eventFromWire,
  eventToWire,
  type MessageEvent,
  type MessageEventInit,
  type MessageEventWire,
  rewriteSlackParentCommand,
  SLACK_SUBCOMMANDS,
} from './message-event.js';
export {
  type EncodableFrame,
  type EncodeFrameOptions,
  encodeFrame,
  FrameDecoder,
  type FrameDecoderOptions,
  type FrameDecoderResult,
} from './ndjson.js';
export {
  decodePassthroughBody,
  decodePassthroughBodyStrict,
  decodePromptCallback,
  deriveRelayUrls,
  encodePassthroughBody,
  encodePromptCallback,
  type PassthroughHeader,
  type PromptCallback,
  passthroughHeadersFromWire,
  relayMediaUrl,
  relayWebSocketUrl,
} from './passthrough.js';
export {
  authenticatorFor,
  type GatewayAuthenticator,
  GatewaySecretRecord,
  type GatewaySecretStore,
  newGatewaySecret,
  type RotateGatewaySecretOptions,
  type StoredGatewaySecrets,
} from './secrets.js';
export {
  type BuildSessionKeyOptions,
  buildSessionKey,
  SESSION_KEY_DIALECTS,
  type SessionKeyDialect,
  type SessionKeySource,
} from './session-key.js';
export {
  type SessionSource,
  type SessionSourceWire,
  sessionSourceFromDict,
  sessionSourceFromWire,
  sessionSourceToWire,
} from './session-source.js';
export { type RelayStoreKit, relayStoreKit } from './store-kit.js';
export {
  newRequestId,
  type OutboundOptions,
  type PassthroughDelivery,
  type RelayTransport,
  RelayTransportError,
  type RelayTransportErrorCode,
} from './transport.js';
export type { CapabilityBinding, CapabilityLookup, CapabilityVault } from './vault.js';
