import * as z from 'zod/mini';
import { capabilityDescriptorWireSchema } from '../descriptor/index.js';
import { messageEventWireSchema } from '../message-event/index.js';
import { bufferIdSchema } from './buffer-id.js';
import { outboundResultObjectSchema } from './results.js';

/**
 * `descriptor` (connector → gateway): the answer to a `hello`. The object is read with the
 * gateway's `from_json` rules (see `parseDescriptor`); a missing `descriptor` key reads as `{}` and
 * fails on the missing required fields, as in the gateway — where it also ends the read loop.
 */
export const descriptorFrameSchema = z.object({
  type: z.literal('descriptor'),
  descriptor: z.prefault(capabilityDescriptorWireSchema, () => ({})),
});

/**
 * `inbound` (connector → gateway): a normalised `MessageEvent` in `event` (a missing `event` reads as
 * `{}`). A replayed buffered delivery carries `bufferId`; the gateway answers a non-empty one with
 * `inbound_ack` once its handler has taken the event.
 */
export const inboundFrameSchema = z.object({
  type: z.literal('inbound'),
  event: z._default(messageEventWireSchema, () => ({})),
  bufferId: bufferIdSchema,
});

/**
 * `outbound_result` (connector → gateway): the answer to the `outbound` with the same `requestId`. A
 * missing `result` reads as `{}` (a failure). The gateway ignores a `requestId` it is not waiting for
 * (any non-string one). A `result` that is not an object is refused here: the gateway hands it to the
 * waiting call, which then fails on it (every op but `typing` reads keys from it).
 */
export const outboundResultFrameSchema = z.object({
  type: z.literal('outbound_result'),
  requestId: z.string(),
  result: z._default(outboundResultObjectSchema, () => ({})),
});

/**
 * `interrupt_inbound` (connector → gateway): stop the running turn of `session_key` (the key without
 * profile) and clear typing in `chat_id`. Missing keys read as `""`, as in the gateway. A non-string
 * value is refused: the gateway passes it on, where it matches no session and no chat (a non-empty
 * list or object as `session_key` crashes its reader).
 */
export const interruptInboundFrameSchema = z.object({
  type: z.literal('interrupt_inbound'),
  session_key: z._default(z.string(), ''),
  chat_id: z._default(z.string(), ''),
});

/**
 * The `forward` object of a `passthrough_forward` frame: a provider webhook the connector has already
 * acknowledged and sanitised. `bodyB64` is standard base64 **with padding** (anything else decodes to
 * an empty body in the gateway); `headers` are `[name, value]` pairs in arrival order. Missing keys
 * read as `""` / `[]`. The gateway `str()`s non-string values (`null` becomes `"None"`), drops
 * header entries that are not pairs (an object or string `headers` gives none), and reads a
 * `bodyB64` that is not a string as an empty body; this schema refuses all of them instead.
 */
export const passthroughForwardSchema = z.looseObject({
  platform: z._default(z.string(), ''),
  botId: z._default(z.string(), ''),
  method: z._default(z.string(), ''),
  path: z._default(z.string(), ''),
  headers: z._default(z.array(z.tuple([z.string(), z.string()])), () => []),
  bodyB64: z._default(z.string(), ''),
  profile: z.optional(z.nullable(z.string())),
});
/** See {@link passthroughForwardSchema}. */
export type PassthroughForward = z.output<typeof passthroughForwardSchema>;

/**
 * `passthrough_forward` (connector → gateway): a forwarded webhook request (Discord interactions,
 * Twilio …), with `bufferId` when it was buffered. The baseline gateway handles only
 * `platform: "discord"` and never acks these buffers; newer gateways ack after the interaction settles.
 */
export const passthroughForwardFrameSchema = z.object({
  type: z.literal('passthrough_forward'),
  forward: z.prefault(passthroughForwardSchema, () => ({})),
  bufferId: bufferIdSchema,
});

/** `going_idle_ack` (connector → gateway): the flip to buffered-only is durable. */
export const goingIdleAckFrameSchema = z.object({ type: z.literal('going_idle_ack') });

/** Every frame the connector sends, discriminated by `type`. */
export const connectorFrameSchema = z.discriminatedUnion('type', [
  descriptorFrameSchema,
  inboundFrameSchema,
  outboundResultFrameSchema,
  interruptInboundFrameSchema,
  passthroughForwardFrameSchema,
  goingIdleAckFrameSchema,
]);

/** A decoded connector → gateway `descriptor` frame: the answer to a `hello`. */
export type DescriptorFrame = z.output<typeof descriptorFrameSchema>;
/** A decoded connector → gateway `inbound` frame: a platform message for the gateway. */
export type InboundFrame = z.output<typeof inboundFrameSchema>;
/** A decoded connector → gateway `outbound_result` frame: the answer to an `outbound` request. */
export type OutboundResultFrame = z.output<typeof outboundResultFrameSchema>;
/** A decoded connector → gateway `interrupt` frame: the user asked to stop (`/stop`). */
export type InterruptInboundFrame = z.output<typeof interruptInboundFrameSchema>;
/** A decoded connector → gateway `passthrough_forward` frame: a verified platform request forwarded unchanged. */
export type PassthroughForwardFrame = z.output<typeof passthroughForwardFrameSchema>;
/** A decoded connector → gateway `going_idle_ack` frame: the answer to `going_idle` (the connector then buffers). */
export type GoingIdleAckFrame = z.output<typeof goingIdleAckFrameSchema>;

/** A decoded connector → gateway frame (defaults filled): switch on `type`. */
export type ConnectorFrame = z.output<typeof connectorFrameSchema>;
/** A connector → gateway frame as built for encoding (defaulted fields may be omitted). */
export type ConnectorFrameInput = z.input<typeof connectorFrameSchema>;

/** The `type` of every connector → gateway frame. */
export const CONNECTOR_FRAME_TYPES = [
  'descriptor',
  'inbound',
  'outbound_result',
  'interrupt_inbound',
  'passthrough_forward',
  'going_idle_ack',
] as const;
/** See {@link CONNECTOR_FRAME_TYPES}. */
export type ConnectorFrameType = (typeof CONNECTOR_FRAME_TYPES)[number];
