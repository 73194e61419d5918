// The relay suites' inputs bound to @agentwire/relay: used by the bundled CLI runs and by the suites'
// own tests. Not part of the package's public API.
import {
  type BuildSessionKeyOptions,
  buildSessionKey,
  type CapabilityDescriptor,
  decodeConnectorFrame,
  decodeFrame,
  decodeGatewayFrame,
  decodePassthroughBody,
  decodePassthroughBodyStrict,
  decodePromptCallback,
  deriveRelayUrls,
  descriptorMessageLength,
  descriptorSupportsCodeBlocks,
  descriptorSupportsOp,
  descriptorToJson,
  discordInteractionEvent,
  type EncodableFrame,
  encodeFrame,
  encodePassthroughBody,
  encodePromptCallback,
  eventFromWire,
  eventToWire,
  FrameDecoder,
  type FrameDecoderResult,
  frameToWireObject,
  makeToken,
  mintRelayToken,
  parseDescriptor,
  passthroughHeadersFromWire,
  peekRelayTokenGatewayId,
  RelayError,
  relayAuthClose,
  relayMediaUrl,
  relaySign,
  rewriteSlackParentCommand,
  type SessionKeyDialect,
  type SessionKeySource,
  type SessionSource,
  sessionSourceFromDict,
  sessionSourceFromWire,
  sessionSourceToWire,
  verifyRelayToken,
} from '@agentwire/relay';
import type { FrameDecodeOutcome, FrameDirection, FrameStreamOutcome } from './frame-cases.js';
import type { MessageEventImplementation } from './message-event-cases.js';
import type { RelayCodecImplementation } from './relay-codec.js';
import type { SessionKeyImplementation } from './session-keys.js';
import type { RelayTokenImplementation, RelayTokenVerdict } from './tokens.js';

/** The `code` of an error, when it has a string one. */
function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

// Declared, not derived from SESSION_KEY_DIALECTS: a subject states what it claims, and
// session-keys.test.ts checks that it claims every dialect the package knows.
const NEWER_DIALECTS: readonly string[] = ['upstream-2026-09-21'];

/** `buildSessionKey` of @agentwire/relay, with every dialect it knows. */
export const agentwireSessionKeys: SessionKeyImplementation = {
  buildSessionKey: (source, options) =>
    buildSessionKey(source as unknown as SessionKeySource, options as BuildSessionKeyOptions),
  dialects: NEWER_DIALECTS,
  errorCode,
};

/**
 * The inbound events @agentwire/relay makes itself: the Slack rewrite, the Discord interaction
 * converter read from the forward as the gateway receives it, written back with `eventToWire`, and the
 * gateway's reader of an inbound `event` with that writer.
 */
export const agentwireMessageEvents: Required<Omit<MessageEventImplementation, 'errorCode'>> = {
  rewriteSlackParentCommand: (text, messageType) => {
    const [rewritten, type] = rewriteSlackParentCommand(
      text,
      messageType as Parameters<typeof rewriteSlackParentCommand>[1],
    );
    return { text: rewritten, message_type: type };
  },
  discordInteractionEvent: (forward, { dialect }) => {
    const event = discordInteractionEvent(forward, { dialect: dialect as SessionKeyDialect });
    return event === undefined ? undefined : eventToWire(event);
  },
  buildSessionKey: agentwireSessionKeys.buildSessionKey,
  eventFromWire: (wire) => eventFromWire(wire),
  eventToWire: (event) => eventToWire(event as unknown as Parameters<typeof eventToWire>[0]),
  eventDialects: NEWER_DIALECTS,
};

const DECODERS = { gateway: decodeGatewayFrame, connector: decodeConnectorFrame, any: decodeFrame };

/** A decoded frame as the suite compares it: unknown frames are ignored, others written back as wire objects. */
function decodeOutcome(frame: { readonly type: string }): FrameDecodeOutcome {
  if (frame.type === 'unknown') return { ignored: true };
  return { frame: frameToWireObject(frame as unknown as Readonly<Record<string, unknown>>) };
}

function streamOutcome(result: FrameDecoderResult<{ readonly type: string }>): FrameStreamOutcome {
  return result.ok ? decodeOutcome(result.frame) : { error: result.error.code };
}

/** Every codec of @agentwire/relay, so that no relay codec case is skipped. */
export const agentwireRelayCodec: RelayCodecImplementation = {
  parseDescriptor: (text) => parseDescriptor(text),
  descriptorSupportsOp: (descriptor, op) =>
    descriptorSupportsOp(descriptor as unknown as CapabilityDescriptor, op),
  descriptorToJson: (descriptor) => descriptorToJson(descriptor as unknown as CapabilityDescriptor),
  descriptorMessageLength: (descriptor, text) =>
    descriptorMessageLength(descriptor as unknown as CapabilityDescriptor, text),
  descriptorSupportsCodeBlocks: (descriptor) =>
    descriptorSupportsCodeBlocks(descriptor as unknown as CapabilityDescriptor),
  missingDescriptorFields: (error) =>
    error instanceof RelayError && error.code === 'descriptor_missing_fields'
      ? error.details?.missing
      : undefined,
  sessionSourceToWire: (source) => sessionSourceToWire(source as unknown as SessionSource),
  sessionSourceFromWire: (wire) => sessionSourceFromWire(wire),
  sessionSourceFromDict: (value) => sessionSourceFromDict(value),
  decodeFrame: (line, direction: FrameDirection) => decodeOutcome(DECODERS[direction](line)),
  encodeFrame: (frame, style) => encodeFrame(frame as EncodableFrame, { style }),
  pythonFrameStyle: true,
  createDecoder: (options) => {
    const decoder = new FrameDecoder(options);
    return {
      push: (chunk) => decoder.push(chunk).map(streamOutcome),
      end: () => decoder.end().map(streamOutcome),
    };
  },
  encodePassthroughBody: (body) => encodePassthroughBody(body),
  decodePassthroughBody: (bodyB64) => decodePassthroughBody(bodyB64),
  decodePassthroughBodyStrict: (bodyB64) => decodePassthroughBodyStrict(bodyB64),
  passthroughHeadersFromWire: (headers) => passthroughHeadersFromWire(headers),
  encodePromptCallback: (ids) => encodePromptCallback(ids),
  decodePromptCallback: (token) => decodePromptCallback(token),
  relayUrls: (baseUrl) => deriveRelayUrls(baseUrl),
  relayMediaUrl: (baseUrl, mediaId) => relayMediaUrl(baseUrl, mediaId),
  ...agentwireMessageEvents,
  errorCode,
};

/** The channel token of @agentwire/relay; a refusal carries the 4401 close it calls for. */
export const agentwireRelayTokens: RelayTokenImplementation = {
  mint: (gatewayId, secret, options) => mintRelayToken(gatewayId, secret, options),
  makeToken: (payload, secret, { ttlSeconds, now }) => makeToken(payload, secret, ttlSeconds, { now }),
  sign: (message, secret) => relaySign(message, secret),
  peekGatewayId: (token) => peekRelayTokenGatewayId(token),
  verify: (token, secrets, options): RelayTokenVerdict => {
    const result = verifyRelayToken(token, secrets, options);
    const close = relayAuthClose(result);
    return close === undefined ? result : { ...result, closeCode: close.code, closeReason: close.reason };
  },
  errorCode,
};
