import * as z from 'zod/mini';
import { outboundActionFieldSchema } from './action-field.js';
import type { OutboundActionInput } from './actions.js';

/** A Discord application-command option in a `command_manifest` (type 3 = STRING). */
export const commandManifestOptionSchema = z.looseObject({
  type: z.number(),
  name: z.string(),
  description: z.string(),
  required: z.optional(z.boolean()),
  choices: z.optional(z.array(z.looseObject({ name: z.string(), value: z.unknown() }))),
});

/** One slash command the gateway declares on a Discord `hello`: `{ name, description, options? }`. */
export const commandManifestEntrySchema = z.looseObject({
  name: z.string(),
  description: z.string(),
  options: z.optional(z.array(commandManifestOptionSchema)),
});
/** See {@link commandManifestEntrySchema}. */
export type CommandManifestEntry = z.output<typeof commandManifestEntrySchema>;

/**
 * `hello` (gateway → connector): one per fronted identity, in configuration order, right after the
 * socket opens; the first is the session default. The connector answers each with a `descriptor`.
 * `botId` may be `""`. `command_manifest` is attached only when `platform` is `"discord"`.
 */
export const helloFrameSchema = z.object({
  type: z.literal('hello'),
  platform: z.string(),
  botId: z.string(),
  command_manifest: z.optional(z.array(commandManifestEntrySchema)),
});

/**
 * `outbound` (gateway → connector): an action to execute; answer with an `outbound_result` carrying
 * the same `requestId` (32 lowercase hex, a dashless UUID4) within 30 s. `platform` is present when
 * the gateway has learned the chat's platform from an inbound event; `botId` only when that platform
 * was announced in a `hello` with a non-empty bot id — it is omitted, never `""`, otherwise. A frame
 * whose `platform` was never announced must be refused by the connector (the gateway does not check).
 */
export const outboundFrameSchema = z.object({
  type: z.literal('outbound'),
  requestId: z.string(),
  action: outboundActionFieldSchema,
  platform: z.optional(z.string()),
  botId: z.optional(z.string()),
});

/**
 * `interrupt` (gateway → connector): a mid-turn stop for `session_key`; `reason` is always written,
 * `null` when there is none. The baseline gateway never sends it outside tests.
 */
export const interruptFrameSchema = z.object({
  type: z.literal('interrupt'),
  session_key: z.string(),
  reason: z._default(z.nullable(z.string()), null),
});

/** `going_idle` (gateway → connector): flip this gateway to buffered-only, then `going_idle_ack`. */
export const goingIdleFrameSchema = z.object({ type: z.literal('going_idle') });

/**
 * `inbound_ack` (gateway → connector): a buffered `inbound` with this `bufferId` was handled. The
 * gateway stringifies the id it received (`7` comes back as `"7"`) and never acks a falsy one.
 */
export const inboundAckFrameSchema = z.object({ type: z.literal('inbound_ack'), bufferId: z.string() });

/** Every frame the gateway sends, discriminated by `type`. */
export const gatewayFrameSchema = z.discriminatedUnion('type', [
  helloFrameSchema,
  outboundFrameSchema,
  interruptFrameSchema,
  goingIdleFrameSchema,
  inboundAckFrameSchema,
]);

/** A decoded gateway → connector `hello` frame: the gateway names a platform and asks for its descriptor. */
export type HelloFrame = z.output<typeof helloFrameSchema>;
/** A decoded gateway → connector `outbound` frame: an action to perform, answered by `outbound_result`. */
export type OutboundFrame = z.output<typeof outboundFrameSchema>;
/** A decoded gateway → connector `interrupt` frame: stop what runs for a session. */
export type InterruptFrame = z.output<typeof interruptFrameSchema>;
/** A decoded gateway → connector `going_idle` frame: the gateway is about to disconnect on purpose. */
export type GoingIdleFrame = z.output<typeof goingIdleFrameSchema>;
/** A decoded gateway → connector `inbound_ack` frame: the gateway took an inbound frame (buffered delivery may drop it). */
export type InboundAckFrame = z.output<typeof inboundAckFrameSchema>;

/** A decoded gateway → connector frame (defaults filled): switch on `type`. */
export type GatewayFrame = z.output<typeof gatewayFrameSchema>;

/** An `outbound` frame as built for encoding. */
export type OutboundFrameInput = Omit<z.input<typeof outboundFrameSchema>, 'action'> & {
  readonly action: OutboundActionInput;
};

/** A gateway → connector frame as built for encoding (defaulted fields may be omitted). */
export type GatewayFrameInput =
  | z.input<typeof helloFrameSchema>
  | OutboundFrameInput
  | z.input<typeof interruptFrameSchema>
  | z.input<typeof goingIdleFrameSchema>
  | z.input<typeof inboundAckFrameSchema>;

/** The `type` of every gateway → connector frame. */
export const GATEWAY_FRAME_TYPES = ['hello', 'outbound', 'interrupt', 'going_idle', 'inbound_ack'] as const;
/** See {@link GATEWAY_FRAME_TYPES}. */
export type GatewayFrameType = (typeof GATEWAY_FRAME_TYPES)[number];
