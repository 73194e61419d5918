import { isJsonObject, isPythonTruthy, pythonStr } from '@agentwire/internal';
import * as z from 'zod/mini';
import { capabilityDescriptorWireSchema } from '../descriptor.js';
import { isJsonValue, type JsonValue } from '../json.js';
import { messageEventWireSchema } from '../message-event.js';
import {
  ACTION_KEY_ORDER,
  isOutboundOp,
  MEDIA_KINDS,
  type OutboundAction,
  type OutboundActionInput,
  type OutboundOp,
  outboundActionFieldSchema,
} from './actions.js';

/**
 * Keys every result may carry. The gateway treats any `success` that is not truthy as a failure,
 * surfaces `error`, logs `raw_response`, and (newer gateways) reads `code: "egress_declined"` as a
 * definite refusal. `ambiguous` is set only by the gateway on results it synthesises after a timeout
 * or a lost socket; a connector never sends it.
 */
const resultBase = {
  success: /* @__PURE__ */ z.boolean(),
  error: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
  code: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
  raw_response: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.unknown()),
  ambiguous: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.boolean()),
};

/** Result of an action that creates or edits a message: the gateway reads `message_id`. */
const messageResultSchema = /* @__PURE__ */ (() =>
  /* @__PURE__ */ z.looseObject({
    ...resultBase,
    message_id: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string())),
  }))();
/** Result whose only meaningful key is `success`. */
const plainResultSchema = /* @__PURE__ */ z.looseObject(resultBase);

/** `send` result: `{ success, message_id?, error? }`. */
export const sendResultSchema = messageResultSchema;
/** `edit` result: `{ success, message_id?, error? }`; a missing `message_id` means the edited one. */
export const editResultSchema = messageResultSchema;
/** `typing` result: ignored by the gateway; `{ success }`. */
export const typingResultSchema = plainResultSchema;
/** `follow_up` result: `{ success, message_id?, error? }`. */
export const followUpResultSchema = messageResultSchema;
/** `send_media` result: `{ success, message_id?, error? }`. */
export const sendMediaResultSchema = messageResultSchema;
/** `prompt` result: `{ success, message_id? }`. */
export const promptResultSchema = messageResultSchema;
/** `react` result: `{ success }`. */
export const reactResultSchema = plainResultSchema;
/** `thread_rename` result: `{ success }`. */
export const threadRenameResultSchema = plainResultSchema;

/** `thread_create` result: the new thread's id in `thread_id`, or else in `message_id`. */
export const threadCreateResultSchema = /* @__PURE__ */ (() =>
  /* @__PURE__ */ z.looseObject({
    ...resultBase,
    thread_id: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string())),
    message_id: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string())),
  }))();

/** A chat's name and type as `get_chat_info` returns them. */
export const chatInfoSchema = /* @__PURE__ */ z.looseObject({
  name: /* @__PURE__ */ z.string(),
  type: /* @__PURE__ */ z.string(),
});

/**
 * `get_chat_info` result. Send `{ success: true, chat_info: { name, type } }`; the gateway also
 * accepts `name`/`type` at the top level (it reads `result.chat_info`, or `result` itself when
 * `chat_info` is missing or empty). See {@link readChatInfo}.
 */
export const getChatInfoResultSchema = /* @__PURE__ */ (() =>
  /* @__PURE__ */ z.looseObject({
    ...resultBase,
    success: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.boolean()),
    chat_info: /* @__PURE__ */ z.optional(chatInfoSchema),
    name: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    type: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
  }))();

/** The result schema of each known op. */
export const opResultSchemas = {
  send: sendResultSchema,
  edit: editResultSchema,
  typing: typingResultSchema,
  follow_up: followUpResultSchema,
  get_chat_info: getChatInfoResultSchema,
  send_media: sendMediaResultSchema,
  prompt: promptResultSchema,
  react: reactResultSchema,
  thread_create: threadCreateResultSchema,
  thread_rename: threadRenameResultSchema,
} as const satisfies Record<OutboundOp, z.ZodMiniType>;

/**
 * The result a connector returns per op, `OpResult[op]` (schema: `opResultSchemas[op]`): every result
 * has `success` and may carry `error`, `code`, `raw_response`, `ambiguous`; `send`, `edit`,
 * `follow_up`, `send_media` and `prompt` add `message_id` (of the posted message on success);
 * `thread_create` adds `thread_id`; `get_chat_info` adds `chat_info` (`{ name, type }`); `typing`,
 * `react` and `thread_rename` add nothing.
 */
export type OpResult = { [Op in OutboundOp]: z.output<(typeof opResultSchemas)[Op]> };

/**
 * The `result` object of any `outbound_result` frame. The frame does not name its op, so only the
 * envelope is checked here; {@link decodeOpResult} checks a result against its op.
 */
export const outboundResultObjectSchema = /* @__PURE__ */ z.record(
  /* @__PURE__ */ z.string(),
  /* @__PURE__ */ z.unknown(),
);
/** See `outboundResultObjectSchema`. */
export type OutboundResultObject = z.output<typeof outboundResultObjectSchema>;

/**
 * What the gateway makes of a `get_chat_info` result: `chat_info` when it is a non-empty object, else
 * the result itself; a missing `name` becomes `chatId` and a missing `type` `"dm"` (present values,
 * `null` included, are kept as sent).
 *
 * @example
 * readChatInfo({ success: true, chat_info: { name: 'general', type: 'group' } }, 'c1'); // { name: 'general', type: 'group' }
 * readChatInfo({ success: false }, 'c1'); // { name: 'c1', type: 'dm' }
 */
export function readChatInfo(
  result: Readonly<Record<string, unknown>>,
  chatId: string,
): { readonly name: unknown; readonly type: unknown } {
  const nested = result['chat_info'];
  const info =
    nested !== null && typeof nested === 'object' && !Array.isArray(nested) && Object.keys(nested).length > 0
      ? (nested as Readonly<Record<string, unknown>>)
      : result;
  return {
    name: Object.hasOwn(info, 'name') ? info['name'] : chatId,
    type: Object.hasOwn(info, 'type') ? info['type'] : 'dm',
  };
}

/**
 * Why Python's `str()` of a non-string `bufferId` cannot be known here, or `undefined` when it can.
 * JavaScript has one number type: an integral number beyond ±(2^53 − 1) may have been an `int` or a
 * float (`1e+16`) on the wire, and a `-0` inside a list or object an `int` `0` or the float `-0.0`.
 */
function unknowableReason(value: unknown): string | undefined {
  if (typeof value === 'number') {
    return Number.isInteger(value) && !Number.isSafeInteger(value)
      ? 'an integral number beyond ±(2^53 − 1) has no known Python str()'
      : undefined;
  }
  if (!isJsonValue(value)) return 'expected plain JSON data';
  return hasAmbiguousNumber(value) ? 'holds a number whose Python str() cannot be known' : undefined;
}

function hasAmbiguousNumber(value: JsonValue): boolean {
  if (typeof value === 'number') {
    return Number.isInteger(value) && (!Number.isSafeInteger(value) || Object.is(value, -0));
  }
  if (value === null || typeof value !== 'object') return false;
  return Object.values(value).some(hasAmbiguousNumber);
}

/** A `bufferId` that is not a string (and not `null`): read as the gateway's `str()` of it, `null` when falsy. */
const nonStringBufferIdSchema = /* @__PURE__ */ z.pipe(
  /* @__PURE__ */ z.unknown(),
  /* @__PURE__ */ z.transform((value: unknown, ctx): string | null => {
    const reason = unknowableReason(value);
    if (reason !== undefined) {
      ctx.issues.push({ code: 'custom', message: reason, input: value });
      return z.NEVER;
    }
    return isPythonTruthy(value as JsonValue) ? pythonStr(value as JsonValue) : null;
  }),
);

/**
 * `bufferId` of an `inbound` or `passthrough_forward` frame as the gateway reads it: it handles the
 * frame whatever the id is, acks a truthy id as Python's `str(bufferId)`, and never acks a falsy one.
 * So a string is kept as it is; any other falsy value (`0`, `false`, `[]`, `{}`) reads as `null`;
 * any other value reads as its `str()`: `7` → `"7"`, `1e-05` → `"1e-05"`, `true` → `"True"`,
 * `[1, "a"]` → `"[1, 'a']"`. JavaScript cannot tell `1.0` from `1`, so an integral float reads as the
 * integer's text (`"1"`, where the gateway acks `"1.0"`); an integral number beyond ±(2^53 − 1), or a
 * `-0` inside a list or object, is refused. Connectors send string ids.
 */
export const bufferIdSchema = /* @__PURE__ */ z.optional(
  /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.union([/* @__PURE__ */ z.string(), nonStringBufferIdSchema])),
);

/**
 * `descriptor` (connector → gateway): the answer to a `hello`. The object is read with the
 * gateway's `from_json` rules (see `parseDescriptor`); a missing `descriptor` key reads as `{}` and
 * fails on the missing required fields, as in the gateway — where it also ends the read loop.
 */
export const descriptorFrameSchema = /* @__PURE__ */ z.object({
  type: /* @__PURE__ */ z.literal('descriptor'),
  descriptor: /* @__PURE__ */ z.prefault(capabilityDescriptorWireSchema, () => ({})),
});

/**
 * `inbound` (connector → gateway): a normalised `MessageEvent` in `event` (a missing `event` reads as
 * `{}`). A replayed buffered delivery carries `bufferId`; the gateway answers a non-empty one with
 * `inbound_ack` once its handler has taken the event.
 */
export const inboundFrameSchema = /* @__PURE__ */ z.object({
  type: /* @__PURE__ */ z.literal('inbound'),
  event: /* @__PURE__ */ z._default(messageEventWireSchema, () => ({})),
  bufferId: bufferIdSchema,
});

/**
 * `outbound_result` (connector → gateway): the answer to the `outbound` with the same `requestId`. A
 * missing `result` reads as `{}` (a failure). The gateway ignores a `requestId` it is not waiting for
 * (any non-string one). A `result` that is not an object is refused here: the gateway hands it to the
 * waiting call, which then fails on it (every op but `typing` reads keys from it).
 */
export const outboundResultFrameSchema = /* @__PURE__ */ z.object({
  type: /* @__PURE__ */ z.literal('outbound_result'),
  requestId: /* @__PURE__ */ z.string(),
  result: /* @__PURE__ */ z._default(outboundResultObjectSchema, () => ({})),
});

/**
 * `interrupt_inbound` (connector → gateway): stop the running turn of `session_key` (the key without
 * profile) and clear typing in `chat_id`. Missing keys read as `""`, as in the gateway. A non-string
 * value is refused: the gateway passes it on, where it matches no session and no chat (a non-empty
 * list or object as `session_key` crashes its reader).
 */
export const interruptInboundFrameSchema = /* @__PURE__ */ z.object({
  type: /* @__PURE__ */ z.literal('interrupt_inbound'),
  session_key: /* @__PURE__ */ z._default(/* @__PURE__ */ z.string(), ''),
  chat_id: /* @__PURE__ */ z._default(/* @__PURE__ */ z.string(), ''),
});

/**
 * The `forward` object of a `passthrough_forward` frame: a provider webhook the connector has already
 * acknowledged and sanitised. `bodyB64` is standard base64 **with padding** (anything else decodes to
 * an empty body in the gateway); `headers` are `[name, value]` pairs in arrival order. Missing keys
 * read as `""` / `[]`. The gateway `str()`s non-string values (`null` becomes `"None"`), drops
 * header entries that are not pairs (an object or string `headers` gives none), and reads a
 * `bodyB64` that is not a string as an empty body; this schema refuses all of them instead.
 */
export const passthroughForwardSchema = /* @__PURE__ */ z.looseObject({
  platform: /* @__PURE__ */ z._default(/* @__PURE__ */ z.string(), ''),
  botId: /* @__PURE__ */ z._default(/* @__PURE__ */ z.string(), ''),
  method: /* @__PURE__ */ z._default(/* @__PURE__ */ z.string(), ''),
  path: /* @__PURE__ */ z._default(/* @__PURE__ */ z.string(), ''),
  headers: /* @__PURE__ */ z._default(
    /* @__PURE__ */ z.array(
      /* @__PURE__ */ z.tuple([/* @__PURE__ */ z.string(), /* @__PURE__ */ z.string()]),
    ),
    () => [],
  ),
  bodyB64: /* @__PURE__ */ z._default(/* @__PURE__ */ z.string(), ''),
  profile: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string())),
});
/** See `passthroughForwardSchema`. */
export type PassthroughForward = z.output<typeof passthroughForwardSchema>;

/**
 * `passthrough_forward` (connector → gateway): a forwarded webhook request (Discord interactions,
 * Twilio …), with `bufferId` when it was buffered. The baseline gateway handles only
 * `platform: "discord"` and never acks these buffers; newer gateways ack after the interaction settles.
 */
export const passthroughForwardFrameSchema = /* @__PURE__ */ z.object({
  type: /* @__PURE__ */ z.literal('passthrough_forward'),
  forward: /* @__PURE__ */ z.prefault(passthroughForwardSchema, () => ({})),
  bufferId: bufferIdSchema,
});

/** `going_idle_ack` (connector → gateway): the flip to buffered-only is durable. */
export const goingIdleAckFrameSchema = /* @__PURE__ */ z.object({
  type: /* @__PURE__ */ z.literal('going_idle_ack'),
});

/** Every frame the connector sends, discriminated by `type`. */
export const connectorFrameSchema = /* @__PURE__ */ z.discriminatedUnion('type', [
  descriptorFrameSchema,
  inboundFrameSchema,
  outboundResultFrameSchema,
  interruptInboundFrameSchema,
  passthroughForwardFrameSchema,
  goingIdleAckFrameSchema,
]);

/** A decoded connector → gateway `inbound` frame: a platform message for the gateway. */
export type InboundFrame = z.output<typeof inboundFrameSchema>;
/** A decoded connector → gateway `outbound_result` frame: the answer to an `outbound` request. */
export type OutboundResultFrame = z.output<typeof outboundResultFrameSchema>;
/** A decoded connector → gateway `interrupt` frame: the user asked to stop (`/stop`). */
export type InterruptInboundFrame = z.output<typeof interruptInboundFrameSchema>;
/** A decoded connector → gateway `passthrough_forward` frame: a verified platform request forwarded unchanged. */
export type PassthroughForwardFrame = z.output<typeof passthroughForwardFrameSchema>;

/** A decoded connector → gateway frame (defaults filled): switch on `type`. */
export type ConnectorFrame = z.output<typeof connectorFrameSchema>;
/** A connector → gateway frame as built for encoding (defaulted fields may be omitted). */
export type ConnectorFrameInput = z.input<typeof connectorFrameSchema>;

/** A Discord application-command option in a `command_manifest` (type 3 = STRING). */
export const commandManifestOptionSchema = /* @__PURE__ */ z.looseObject({
  type: /* @__PURE__ */ z.number(),
  name: /* @__PURE__ */ z.string(),
  description: /* @__PURE__ */ z.string(),
  required: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.boolean()),
  choices: /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z.array(
      /* @__PURE__ */ z.looseObject({ name: /* @__PURE__ */ z.string(), value: /* @__PURE__ */ z.unknown() }),
    ),
  ),
});

/** One slash command the gateway declares on a Discord `hello`: `{ name, description, options? }`. */
export const commandManifestEntrySchema = /* @__PURE__ */ z.looseObject({
  name: /* @__PURE__ */ z.string(),
  description: /* @__PURE__ */ z.string(),
  options: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.array(commandManifestOptionSchema)),
});

/**
 * `hello` (gateway → connector): one per fronted identity, in configuration order, right after the
 * socket opens; the first is the session default. The connector answers each with a `descriptor`.
 * `botId` may be `""`. `command_manifest` is attached only when `platform` is `"discord"`.
 */
export const helloFrameSchema = /* @__PURE__ */ z.object({
  type: /* @__PURE__ */ z.literal('hello'),
  platform: /* @__PURE__ */ z.string(),
  botId: /* @__PURE__ */ z.string(),
  command_manifest: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.array(commandManifestEntrySchema)),
});

/**
 * `outbound` (gateway → connector): an action to execute; answer with an `outbound_result` carrying
 * the same `requestId` (32 lowercase hex, a dashless UUID4) within 30 s. `platform` is present when
 * the gateway has learned the chat's platform from an inbound event; `botId` only when that platform
 * was announced in a `hello` with a non-empty bot id — it is omitted, never `""`, otherwise. A frame
 * whose `platform` was never announced must be refused by the connector (the gateway does not check).
 */
export const outboundFrameSchema = /* @__PURE__ */ z.object({
  type: /* @__PURE__ */ z.literal('outbound'),
  requestId: /* @__PURE__ */ z.string(),
  action: outboundActionFieldSchema,
  platform: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
  botId: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
});

/**
 * `interrupt` (gateway → connector): a mid-turn stop for `session_key`; `reason` is always written,
 * `null` when there is none. The baseline gateway never sends it outside tests.
 */
export const interruptFrameSchema = /* @__PURE__ */ z.object({
  type: /* @__PURE__ */ z.literal('interrupt'),
  session_key: /* @__PURE__ */ z.string(),
  reason: /* @__PURE__ */ z._default(/* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string()), null),
});

/** `going_idle` (gateway → connector): flip this gateway to buffered-only, then `going_idle_ack`. */
export const goingIdleFrameSchema = /* @__PURE__ */ z.object({
  type: /* @__PURE__ */ z.literal('going_idle'),
});

/**
 * `inbound_ack` (gateway → connector): a buffered `inbound` with this `bufferId` was handled. The
 * gateway stringifies the id it received (`7` comes back as `"7"`) and never acks a falsy one.
 */
export const inboundAckFrameSchema = /* @__PURE__ */ z.object({
  type: /* @__PURE__ */ z.literal('inbound_ack'),
  bufferId: /* @__PURE__ */ z.string(),
});

/** Every frame the gateway sends, discriminated by `type`. */
export const gatewayFrameSchema = /* @__PURE__ */ z.discriminatedUnion('type', [
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

/**
 * Hand-written decoders of the frames that come by the thousand (`inbound`, `inbound_ack`) or on
 * every outbound call (`outbound_result`), for a
 * value just made by `JSON.parse` (nothing else holds it, so its objects can be kept as they are).
 * Each answers exactly what the frame's zod schema answers, or `undefined` when the value has anything
 * unusual about it, and the schema decides; `hot-frames.test.ts` checks that they agree.
 */

/** Decodes `{"type":"inbound","event":{…},"bufferId":"…"}` with at most those keys. */
export function decodeInboundFast(value: Record<string, unknown>): InboundFrame | undefined {
  let keys = 0;
  for (const key in value) {
    if (key !== 'type' && key !== 'event' && key !== 'bufferId') return undefined;
    keys += 1;
  }
  const event = value['event'];
  const bufferId = value['bufferId'];
  if (keys !== (Object.hasOwn(value, 'bufferId') ? 3 : 2)) return undefined;
  if (typeof bufferId !== 'string' && bufferId !== null && bufferId !== undefined) return undefined;
  if (!isFreshObject(event) || Object.hasOwn(event, '__proto__') || !isJsonValue(event)) return undefined;
  const frame = { type: 'inbound', event } as InboundFrame & { bufferId?: string | null };
  if (Object.hasOwn(value, 'bufferId')) frame.bufferId = bufferId as string | null;
  return frame;
}

/** Decodes `{"type":"inbound_ack","bufferId":"…"}` with exactly those keys. */
export function decodeInboundAckFast(value: Record<string, unknown>): InboundAckFrame | undefined {
  let keys = 0;
  for (const key in value) {
    if (key !== 'type' && key !== 'bufferId') return undefined;
    keys += 1;
  }
  const bufferId = value['bufferId'];
  if (keys !== 2 || typeof bufferId !== 'string') return undefined;
  return { type: 'inbound_ack', bufferId };
}

/** Decodes `{"type":"outbound_result","requestId":"…","result":{…}}` with exactly those keys. */
export function decodeOutboundResultFast(value: Record<string, unknown>): OutboundResultFrame | undefined {
  let keys = 0;
  for (const key in value) {
    if (key !== 'type' && key !== 'requestId' && key !== 'result') return undefined;
    keys += 1;
  }
  const requestId = value['requestId'];
  const result = value['result'];
  if (keys !== 3 || typeof requestId !== 'string') return undefined;
  if (!isFreshObject(result) || Object.hasOwn(result, '__proto__')) return undefined;
  return { type: 'outbound_result', requestId, result };
}

function isFreshObject(value: unknown): value is Record<string, unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.getPrototypeOf(value) === Object.prototype
  );
}

/**
 * A frame this side does not act on: a `type` the SDK does not know (from a newer peer), a missing
 * `type`, or a frame of the other direction echoed back. The gateway ignores such frames; decoders
 * return them instead of failing so that a reader can do the same, and `encodeFrame` writes `raw`
 * back unchanged.
 */
export interface UnknownFrame {
  readonly type: 'unknown';
  /** The `type` value as received (`undefined` when absent). */
  readonly rawType: unknown;
  /** The frame object as received. */
  readonly raw: Readonly<Record<string, unknown>>;
}

/** Key order of each frame as the gateway (or the contract, for connector frames) writes it. */
const FRAME_KEY_ORDER: Readonly<Record<string, readonly string[]>> = {
  hello: ['type', 'platform', 'botId', 'command_manifest'],
  descriptor: ['type', 'descriptor'],
  inbound: ['type', 'event', 'bufferId'],
  inbound_ack: ['type', 'bufferId'],
  outbound: ['type', 'requestId', 'action', 'platform', 'botId'],
  outbound_result: ['type', 'requestId', 'result'],
  interrupt: ['type', 'session_key', 'reason'],
  interrupt_inbound: ['type', 'session_key', 'chat_id'],
  passthrough_forward: ['type', 'forward', 'bufferId'],
  going_idle: ['type'],
  going_idle_ack: ['type'],
};

const FORWARD_KEY_ORDER = ['platform', 'botId', 'method', 'path', 'headers', 'bodyB64', 'profile'];

/**
 * The plain JSON object a frame is written as: an unknown frame or action back to its `raw` object,
 * keys in the gateway's order (listed keys first, then any others in their own order), `undefined`
 * values left out. Values are not checked here.
 */
export function frameToWireObject(frame: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const type = frame['type'];
  if (type === 'unknown' && isJsonObject(frame['raw'])) return frame['raw'];
  const order = typeof type === 'string' ? FRAME_KEY_ORDER[type] : undefined;
  if (order === undefined) return orderKeys(frame, []);
  const wire = orderKeys(frame, order);
  const action = wire['action'];
  if (type === 'outbound' && isJsonObject(action)) wire['action'] = actionToWireObject(action);
  const forward = wire['forward'];
  if (type === 'passthrough_forward' && isJsonObject(forward))
    wire['forward'] = orderKeys(forward, FORWARD_KEY_ORDER);
  return wire;
}

function actionToWireObject(action: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const op = action['op'];
  if (op === 'unknown' && isJsonObject(action['raw'])) return action['raw'];
  return orderKeys(action, isOutboundOp(op) ? ACTION_KEY_ORDER[op] : []);
}

function orderKeys(
  source: Readonly<Record<string, unknown>>,
  order: readonly string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of order) {
    if (Object.hasOwn(source, key)) setOwn(out, key, source[key]);
  }
  for (const key of Object.keys(source)) {
    if (!order.includes(key)) setOwn(out, key, source[key]);
  }
  return out;
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (value === undefined) return;
  // Assignment would set the prototype for "__proto__" instead of an own key.
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else target[key] = value;
}

/**
 * The `error` texts of the failed results the gateway synthesises itself; they never travel on the
 * wire. `disconnected` is an exception at the baseline (`RuntimeError("relay transport closed")`) and
 * a result on newer gateways; `timedOut` and `disconnected` results carry `ambiguous: true` on newer
 * gateways (the connector may have acted).
 */
export const GATEWAY_FAILURE_ERRORS = {
  /** No socket: nothing was sent. */
  notConnected: 'relay transport not connected',
  /** No `outbound_result` within 30 s. */
  timedOut: 'relay outbound timed out',
  /** The transport was closed while the call was pending. */
  disconnected: 'relay transport closed',
  /** Newer gateways: the reader ended while the call was pending. */
  connectionLost: 'relay transport connection lost',
} as const;

/** How long the gateway waits for an `outbound_result`, in milliseconds. */
export const OUTBOUND_RESULT_TIMEOUT_MS = 30_000;
/** How long the gateway waits for a `going_idle_ack`, in milliseconds (its default). */
export const GOING_IDLE_ACK_TIMEOUT_MS = 10_000;
/** How long the gateway waits for the first `descriptor` after its hellos, in milliseconds. */
export const HANDSHAKE_TIMEOUT_MS = 30_000;

/**
 * How an action schema reads one of its keys (the `zod` schemas of `actions.ts`, written out):
 * - `string`: required string;
 * - `optionalString`: a string when present, left out when absent;
 * - `replyTo`: a string or `null`, `null` when absent;
 * - `metadata`: an object (not an array), `{}` when absent;
 * - `stringOrEmpty`: a string, `""` when absent;
 * - `booleanOrFalse`: a boolean, `false` when absent;
 * - `mediaKind`: one of `MEDIA_KINDS`.
 */
type FieldRule =
  | 'string'
  | 'optionalString'
  | 'replyTo'
  | 'metadata'
  | 'stringOrEmpty'
  | 'booleanOrFalse'
  | 'mediaKind';

/**
 * The keys of each op's action schema in schema order (the order `zod` writes them, before the
 * unknown keys a loose object keeps). `prompt` is left to its schema: its options are objects.
 */
const ACTION_RULES: Readonly<Record<string, readonly (readonly [key: string, rule: FieldRule])[]>> = {
  send: [
    ['chat_id', 'string'],
    ['content', 'string'],
    ['reply_to', 'replyTo'],
    ['metadata', 'metadata'],
  ],
  edit: [
    ['chat_id', 'string'],
    ['message_id', 'string'],
    ['content', 'string'],
    ['metadata', 'metadata'],
  ],
  typing: [
    ['chat_id', 'string'],
    ['content', 'optionalString'],
    ['metadata', 'metadata'],
  ],
  follow_up: [
    ['session_key', 'string'],
    ['kind', 'string'],
    ['content', 'string'],
    ['metadata', 'metadata'],
  ],
  get_chat_info: [['chat_id', 'string']],
  send_media: [
    ['chat_id', 'string'],
    ['media_kind', 'mediaKind'],
    ['source_url', 'string'],
    ['content', 'stringOrEmpty'],
    ['reply_to', 'replyTo'],
    ['metadata', 'metadata'],
    ['filename', 'optionalString'],
  ],
  react: [
    ['chat_id', 'string'],
    ['message_id', 'string'],
    ['emoji', 'string'],
    ['remove', 'booleanOrFalse'],
    ['metadata', 'metadata'],
  ],
  thread_create: [
    ['chat_id', 'string'],
    ['thread_name', 'string'],
    ['metadata', 'metadata'],
    ['message_id', 'optionalString'],
  ],
  thread_rename: [
    ['chat_id', 'string'],
    ['message_id', 'string'],
    ['thread_name', 'string'],
    ['metadata', 'metadata'],
    ['only_if_current_name', 'optionalString'],
  ],
};

const MEDIA_KIND_SET: ReadonlySet<unknown> = /* @__PURE__ */ new Set(MEDIA_KINDS);

/** Marks a key whose value the schema would refuse: the schema then decides. */
const REFUSED = Symbol('refused');

/**
 * A hand-written decoder of the `outbound` frame, the gateway's frame of every outbound call, for a
 * plain object whose own keys are plain data (a value just made by `JSON.parse`, or the wire object
 * `encodeFrame` is about to check). It answers exactly what `outboundFrameSchema` answers — the frame
 * with unknown top-level keys dropped, the action's defaults filled and its unknown keys kept, keys in
 * the schema's order, nested values kept as they are — or `undefined` when the frame has anything
 * unusual about it (a refused value, an unknown or `prompt` op, an own `__proto__` key), and the
 * schema decides. `hot-outbound.test.ts` checks that they agree.
 */
export function decodeOutboundFast(value: Record<string, unknown>): OutboundFrame | undefined {
  const requestId = value['requestId'];
  const raw = value['action'];
  const platform = value['platform'];
  const botId = value['botId'];
  if (typeof requestId !== 'string' || !isPlainRecord(raw) || Object.hasOwn(value, '__proto__')) {
    return undefined;
  }
  if (!isOptionalString(value, 'platform', platform) || !isOptionalString(value, 'botId', botId)) {
    return undefined;
  }
  const action = decodeActionFast(raw);
  if (action === undefined) return undefined;
  const frame: { -readonly [K in keyof OutboundFrame]: OutboundFrame[K] } = {
    type: 'outbound',
    requestId,
    action,
  };
  if (platform !== undefined) frame.platform = platform as string;
  if (botId !== undefined) frame.botId = botId as string;
  return frame;
}

function decodeActionFast(raw: Record<string, unknown>): OutboundAction | undefined {
  const op = raw['op'];
  const rules = typeof op === 'string' && Object.hasOwn(ACTION_RULES, op) ? ACTION_RULES[op] : undefined;
  if (rules === undefined || Object.hasOwn(raw, '__proto__')) return undefined;
  const action: Record<string, unknown> = { op };
  for (const [key, rule] of rules) {
    const read = readField(rule, Object.hasOwn(raw, key), raw[key]);
    if (read === REFUSED) return undefined;
    if (read !== undefined) action[key] = read;
  }
  for (const key in raw) {
    if (!Object.hasOwn(raw, key) || key === 'op' || hasRule(rules, key)) continue;
    const item = raw[key];
    if (item === undefined) return undefined;
    action[key] = item;
  }
  return action as unknown as OutboundAction;
}

/** The decoded value of a key (`undefined`: left out), or {@link REFUSED}. */
function readField(rule: FieldRule, present: boolean, value: unknown): unknown {
  if (present && value === undefined) return REFUSED;
  switch (rule) {
    case 'string':
      return typeof value === 'string' ? value : REFUSED;
    case 'optionalString':
      return !present || typeof value === 'string' ? value : REFUSED;
    case 'replyTo':
      if (!present) return null;
      return value === null || typeof value === 'string' ? value : REFUSED;
    case 'metadata':
      if (!present) return {};
      return isJsonObject(value) ? value : REFUSED;
    case 'stringOrEmpty':
      if (!present) return '';
      return typeof value === 'string' ? value : REFUSED;
    case 'booleanOrFalse':
      if (!present) return false;
      return typeof value === 'boolean' ? value : REFUSED;
    case 'mediaKind':
      return MEDIA_KIND_SET.has(value) ? value : REFUSED;
  }
}

function hasRule(rules: readonly (readonly [string, FieldRule])[], key: string): boolean {
  for (const [ruleKey] of rules) if (ruleKey === key) return true;
  return false;
}

function isOptionalString(frame: Record<string, unknown>, key: string, value: unknown): boolean {
  return typeof value === 'string' || (value === undefined && !Object.hasOwn(frame, key));
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return isJsonObject(value) && Object.getPrototypeOf(value) === Object.prototype;
}
