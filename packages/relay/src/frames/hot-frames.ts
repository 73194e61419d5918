import { isJsonValue } from '../json/index.js';
import type { InboundFrame, OutboundResultFrame } from './connector-frames.js';
import type { InboundAckFrame } from './gateway-frames.js';

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
