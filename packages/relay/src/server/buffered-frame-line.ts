import { decodeBufferedFrame } from '../buffer/index.js';
import { frameToWireObject } from '../frames/index.js';

const INBOUND_PREFIX = '{"type":"inbound","event":';

/**
 * The wire line of a buffered entry, byte for byte what `encodeFrame` writes for its frame with
 * `bufferId` added: an `inbound` frame's stored text gets `"bufferId"` spliced in as its last key
 * (its keys are already in wire order); anything else is decoded and written in wire order.
 *
 * @throws {CorruptBufferedFrameError} stored text that is not a buffered frame.
 * @example
 * bufferedFrameLine('{"type":"inbound","event":{"text":"hi"}}', '7');
 * // '{"type":"inbound","event":{"text":"hi"},"bufferId":"7"}\n'
 */
export function bufferedFrameLine(frameJson: string, bufferId: string): string {
  if (frameJson.startsWith(INBOUND_PREFIX) && frameJson.endsWith('}')) {
    return `${frameJson.slice(0, -1)},"bufferId":${JSON.stringify(bufferId)}}\n`;
  }
  const wire = frameToWireObject({ ...decodeBufferedFrame(frameJson), bufferId });
  return `${JSON.stringify(wire)}\n`;
}
