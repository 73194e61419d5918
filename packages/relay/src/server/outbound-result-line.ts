import type { OutboundResultObject } from '../frames/index.js';
import { compactJson, encodeFrame } from '../ndjson/encode.js';

/**
 * The `outbound_result` line answering `requestId`: byte for byte what `encodeFrame` writes for
 * `{ type: 'outbound_result', requestId, result }`, written directly for a result the server built
 * (plain JSON data, its keys in their own order) without the frame encoder's schema pass; a result
 * with an own `__proto__` key goes through `encodeFrame`.
 *
 * @throws {RelayError} `unencodable_frame`: a result holding a non-finite number.
 * @example
 * outboundResultLine('9f0c', { success: true, message_id: 'm1' });
 * // '{"type":"outbound_result","requestId":"9f0c","result":{"success":true,"message_id":"m1"}}\n'
 */
export function outboundResultLine(requestId: string, result: OutboundResultObject): string {
  if (Object.hasOwn(result, '__proto__')) return encodeFrame({ type: 'outbound_result', requestId, result });
  return `{"type":"outbound_result","requestId":${JSON.stringify(requestId)},"result":${compactJson(result)}}\n`;
}
