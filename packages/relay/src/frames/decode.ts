import type * as z from 'zod/mini';
import { frameError, frameNotObjectError, type RelayError } from '../errors.js';
import { safeParseInEnglish } from '../internal.js';
import { jsonPath } from '../json.js';
import type { OutboundOp } from './actions.js';
import {
  type ConnectorFrame,
  decodeInboundAckFast,
  decodeInboundFast,
  decodeOutboundFast,
  decodeOutboundResultFast,
  descriptorFrameSchema,
  type GatewayFrame,
  goingIdleAckFrameSchema,
  goingIdleFrameSchema,
  helloFrameSchema,
  inboundAckFrameSchema,
  inboundFrameSchema,
  interruptFrameSchema,
  interruptInboundFrameSchema,
  type OpResult,
  opResultSchemas,
  outboundFrameSchema,
  outboundResultFrameSchema,
  passthroughForwardFrameSchema,
  type UnknownFrame,
} from './frames.js';

/** Any frame of the catalogue, either direction. */
export type RelayFrame = GatewayFrame | ConnectorFrame;

const GATEWAY_SCHEMAS: ReadonlyMap<unknown, z.ZodMiniType<GatewayFrame>> = new Map<
  unknown,
  z.ZodMiniType<GatewayFrame>
>([
  ['hello', helloFrameSchema],
  ['outbound', outboundFrameSchema],
  ['interrupt', interruptFrameSchema],
  ['going_idle', goingIdleFrameSchema],
  ['inbound_ack', inboundAckFrameSchema],
]);

const CONNECTOR_SCHEMAS: ReadonlyMap<unknown, z.ZodMiniType<ConnectorFrame>> = new Map<
  unknown,
  z.ZodMiniType<ConnectorFrame>
>([
  ['descriptor', descriptorFrameSchema],
  ['inbound', inboundFrameSchema],
  ['outbound_result', outboundResultFrameSchema],
  ['interrupt_inbound', interruptInboundFrameSchema],
  ['passthrough_forward', passthroughForwardFrameSchema],
  ['going_idle_ack', goingIdleAckFrameSchema],
]);

const ALL_SCHEMAS: ReadonlyMap<unknown, z.ZodMiniType<RelayFrame>> = new Map<
  unknown,
  z.ZodMiniType<RelayFrame>
>([...GATEWAY_SCHEMAS, ...CONNECTOR_SCHEMAS]);

/**
 * Decodes a frame the **gateway** sends (`hello`, `outbound`, `interrupt`, `going_idle`,
 * `inbound_ack`): what a connector reads. Any other `type` — unknown, absent, or a connector frame
 * echoed back — gives an {@link UnknownFrame}, which a reader ignores as the gateway does. Unknown
 * top-level keys are dropped; unknown keys inside an action are kept, and an unknown `op` gives an
 * `UnknownAction`.
 *
 * A string is read as one JSON text (surrounding JSON whitespace, a trailing `\n` included, is
 * allowed); anything else is taken as the already-parsed value.
 *
 * @throws {RelayError} `malformed_json`: a string that is not JSON.
 * @throws {RelayError} `not_object`: JSON that is not an object.
 * @throws {RelayError} `invalid_frame`: a known `type` with a missing or mistyped field.
 * @example
 * const frame = decodeGatewayFrame(
 *   '{"type": "outbound", "requestId": "9f0c…", "action": {"op": "typing", "chat_id": "c1", "metadata": {}}}',
 * );
 * if (frame.type === 'outbound' && frame.action.op === 'typing') frame.action.chat_id; // 'c1'
 */
export function decodeGatewayFrame(input: string | unknown): GatewayFrame | UnknownFrame {
  if (typeof input !== 'string') return decodeWith(GATEWAY_SCHEMAS, input);
  const value = parseJson(input);
  if (isPlainRecord(value)) {
    const type = value['type'];
    const frame =
      type === 'inbound_ack'
        ? decodeInboundAckFast(value)
        : type === 'outbound'
          ? decodeOutboundFast(value)
          : undefined;
    if (frame !== undefined) return frame;
  }
  return decodeValue(GATEWAY_SCHEMAS, value);
}

/**
 * Decodes a frame the **connector** sends (`descriptor`, `inbound`, `outbound_result`,
 * `interrupt_inbound`, `passthrough_forward`, `going_idle_ack`): what a gateway reads. Keys the
 * gateway defaults are defaulted here too (a missing `result` is `{}`, missing `interrupt_inbound`
 * keys are `""`); the descriptor is read with the gateway's `from_json` rules. Other types give an
 * {@link UnknownFrame}. Same input and errors as {@link decodeGatewayFrame}.
 *
 * @example
 * decodeConnectorFrame('{"type":"outbound_result","requestId":"abc"}');
 * // { type: 'outbound_result', requestId: 'abc', result: {} }
 */
export function decodeConnectorFrame(input: string | unknown): ConnectorFrame | UnknownFrame {
  if (typeof input !== 'string') return decodeWith(CONNECTOR_SCHEMAS, input);
  const value = parseJson(input);
  if (isPlainRecord(value)) {
    const type = value['type'];
    const frame =
      type === 'inbound'
        ? decodeInboundFast(value)
        : type === 'outbound_result'
          ? decodeOutboundResultFast(value)
          : undefined;
    if (frame !== undefined) return frame;
  }
  return decodeValue(CONNECTOR_SCHEMAS, value);
}

/**
 * Decodes a frame of either direction (every `type` of the catalogue); other types give an
 * {@link UnknownFrame}. Same input and errors as {@link decodeGatewayFrame}.
 *
 * @example
 * decodeFrame('{"type": "inbound_ack", "bufferId": "7"}\n'); // { type: 'inbound_ack', bufferId: '7' }
 */
export function decodeFrame(input: string | unknown): RelayFrame | UnknownFrame {
  return decodeWith(ALL_SCHEMAS, input);
}

/**
 * Checks the `result` of an `outbound_result` against the op it answers (the frame itself does not
 * name the op): `decodeOpResult('thread_create', r).thread_id`.
 *
 * @throws {RelayError} `not_object`: a result that is not an object.
 * @throws {RelayError} `invalid_frame`: a missing `success` or a mistyped key; the path
 * points into `$.result`.
 */
export function decodeOpResult<Op extends OutboundOp>(op: Op, result: unknown): OpResult[Op] {
  if (!isPlainRecord(result)) throw frameNotObjectError(result);
  const parsed = safeParseInEnglish(opResultSchemas[op] as z.ZodMiniType<OpResult[Op]>, result);
  if (parsed.success) return parsed.data;
  throw validationError('outbound_result', ['result'], parsed.error, result);
}

function decodeWith<F>(schemas: ReadonlyMap<unknown, z.ZodMiniType<F>>, input: unknown): F | UnknownFrame {
  return decodeValue(schemas, typeof input === 'string' ? parseJson(input) : input);
}

function decodeValue<F>(schemas: ReadonlyMap<unknown, z.ZodMiniType<F>>, value: unknown): F | UnknownFrame {
  if (!isPlainRecord(value)) throw frameNotObjectError(value);
  const rawType = value['type'];
  const schema = schemas.get(rawType);
  if (schema === undefined) return { type: 'unknown', rawType, raw: value };
  const parsed = safeParseInEnglish(schema, value);
  if (parsed.success) return parsed.data;
  throw validationError(String(rawType), [], parsed.error, value);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw frameError(
      'malformed_json',
      `not JSON: ${error instanceof Error ? error.message : String(error)}`,
      '$',
      error instanceof Error ? { cause: error } : {},
    );
  }
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function validationError(
  frameType: string,
  prefix: readonly PropertyKey[],
  error: z.core.$ZodError,
  raw: Record<string, unknown>,
): RelayError {
  const issue = error.issues[0];
  const path = jsonPath([...prefix, ...(issue?.path ?? [])]);
  return frameError('invalid_frame', `invalid ${frameType} frame: ${issue?.message ?? 'invalid'}`, path, {
    details: { frameType, raw },
    cause: error,
  });
}
