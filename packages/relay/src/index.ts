/**
 * `@agentwire/relay` — the Relay ⇄ Connector v1 contract between the Hermes AI gateway and a
 * platform connector, byte-compatible with the running gateway.
 *
 * Runtime-neutral: the HMAC channel token and close codes, passthrough bodies and prompt callback
 * tokens, capability descriptors, `SessionSource` and `MessageEvent` wire forms, the
 * session-key oracle, every frame and outbound op with its result shape, the NDJSON frame codec, the
 * gateway secret store (rotation, revocation) with its in-memory implementation, and the
 * `RelayTransport` interface (test doubles in `@agentwire/relay/testing`).
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
export * from './auth/index.js';
export * from './buffer/index.js';
export * from './bus/index.js';
export * from './descriptor/index.js';
export * from './discord-interaction-event/index.js';
export {
  type PeerLimit,
  RELAY_CLOSE_PEER_LIMIT,
  RelayError,
  type RelayErrorCode,
  type RelayErrorDetails,
  type RelayErrorOptions,
} from './errors.js';
export * from './frames/index.js';
export * from './message-event/index.js';
export * from './ndjson/index.js';
export * from './passthrough/index.js';
export * from './secrets/index.js';
export * from './session-key/index.js';
export * from './session-source/index.js';
export * from './transport/index.js';
export * from './vault/index.js';
