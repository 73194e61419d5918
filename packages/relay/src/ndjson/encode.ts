import { RelayError } from '../errors.js';
import type { ConnectorFrameInput } from '../frames/connector-frames.js';
import { decodeFrame, type RelayFrame } from '../frames/decode.js';
import { frameError, frameNotObjectError } from '../frames/errors.js';
import type { GatewayFrameInput } from '../frames/gateway-frames.js';
import { decodeOutboundFast } from '../frames/hot-outbound.js';
import type { UnknownFrame } from '../frames/unknown-frame.js';
import { frameToWireObject } from '../frames/wire-order.js';
import { pythonJsonDumps } from '../python/index.js';

/**
 * How a frame's JSON is written. `compact`: `JSON.stringify` (no spaces, non-ASCII as raw UTF-8).
 * `python`: byte for byte what the gateway's `json.dumps(frame)` writes (`", "`/`": "` separators,
 * `\uXXXX` escapes); use it to emulate a gateway. The gateway reads both.
 */
export type FrameJsonStyle = 'compact' | 'python';

/** Options of {@link encodeFrame}. */
export interface EncodeFrameOptions {
  /** Default `compact`. */
  readonly style?: FrameJsonStyle;
}

/** Anything {@link encodeFrame} writes: a frame of either direction (decoded or built) or an unknown frame. */
export type EncodableFrame = GatewayFrameInput | ConnectorFrameInput | RelayFrame | UnknownFrame;

/**
 * Writes one frame as one wire line: JSON plus `\n`, ready to be sent as one WebSocket text message
 * (the gateway writes exactly one frame per message; its reader splits on `\n`, so the newline is
 * required). The frame is checked first with the decoder's schemas and defaulted fields are filled in
 * (`reply_to: null`, `metadata: {}`, `interrupt.reason: null` …) so what is written always decodes;
 * keys come out in the gateway's order. An {@link UnknownFrame} (and an unknown action) is written
 * back as its `raw` object.
 *
 * @throws {RelayError} `invalid_frame`: a known frame with a missing or mistyped field; `not_object`:
 *   not an object; `unencodable_frame`: a non-finite number (compact style), a bigint or a cycle.
 * @example
 * encodeFrame({ type: 'outbound_result', requestId: 'a1b2', result: { success: true, message_id: 'm1' } });
 * // '{"type":"outbound_result","requestId":"a1b2","result":{"success":true,"message_id":"m1"}}\n'
 * encodeFrame({ type: 'interrupt', session_key: 'agent:main:telegram:dm:42' }, { style: 'python' });
 * // '{"type": "interrupt", "session_key": "agent:main:telegram:dm:42", "reason": null}\n'
 */
export function encodeFrame(frame: EncodableFrame, options: EncodeFrameOptions = {}): string {
  const value: unknown = frame;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw frameNotObjectError(value);
  const input = frameToWireObject(value as Record<string, unknown>);
  // The gateway's frame of every outbound call has a hand-written check that answers as its schema does.
  const checked =
    (input['type'] === 'outbound' ? decodeOutboundFast(input) : undefined) ?? decodeFrame(input);
  const wire = frameToWireObject(checked as unknown as Record<string, unknown>);
  return `${options.style === 'python' ? pythonJsonDumps(wire) : compactJson(wire)}\n`;
}

/**
 * `JSON.stringify(value)`, refusing non-finite numbers (standard JSON has none).
 *
 * @throws {RelayError} `unencodable_frame`: a non-finite number, a bigint or a cycle.
 */
export function compactJson(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    // A non-finite number comes out as `null`: only then is the (slower) checking pass needed.
    return text.includes('null') ? JSON.stringify(value, rejectNonFinite) : text;
  } catch (error) {
    if (error instanceof RelayError && error.code === 'unencodable_frame') throw error;
    throw frameError(
      'unencodable_frame',
      `frame cannot be written as JSON: ${error instanceof Error ? error.message : String(error)}`,
      '$',
      { cause: error },
    );
  }
}

function rejectNonFinite(_key: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw frameError('unencodable_frame', `${value} cannot be written as standard JSON`, '$');
  }
  return value;
}
