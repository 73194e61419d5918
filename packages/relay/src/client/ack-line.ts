import { encodeFrame } from '../ndjson/index.js';

/** Printable ASCII without `"` and `\`: Python's `json.dumps` writes such a string as it is. */
const VERBATIM_ID = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * The `inbound_ack` line of `bufferId` as the gateway writes it (Python `json.dumps` bytes), without
 * the frame encoder's checks for the ids every connector issues (decimal numbers, Redis stream ids);
 * any other id goes through `encodeFrame`.
 *
 * @example
 * inboundAckLine('1767225600000-0'); // '{"type": "inbound_ack", "bufferId": "1767225600000-0"}\n'
 */
export function inboundAckLine(bufferId: string): string {
  if (VERBATIM_ID.test(bufferId)) return `{"type": "inbound_ack", "bufferId": "${bufferId}"}\n`;
  return encodeFrame({ type: 'inbound_ack', bufferId }, { style: 'python' });
}
