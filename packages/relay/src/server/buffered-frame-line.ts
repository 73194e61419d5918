import { decodeBufferedFrame } from '../buffer/index.js';
import { frameToWireObject } from '../frames/index.js';

const INBOUND_PREFIX = '{"type":"inbound","event":';

/**
 * The wire line of a buffered entry as the pieces it is written from, so that replay can write them
 * into one message without joining strings: `head`, less its last character (its closing `}`) when
 * `dropsClosingBrace`, then `tail`, which ends with `\n`.
 */
export interface BufferedFrameLine {
  readonly head: string;
  readonly dropsClosingBrace: boolean;
  readonly tail: string;
}

/**
 * The wire line of a buffered entry, byte for byte what `encodeFrame` writes for its frame with
 * `bufferId` added: an `inbound` frame's stored text gets `"bufferId"` spliced in as its last key
 * (its keys are already in wire order); anything else is decoded and written in wire order.
 *
 * @throws {RelayError} `corrupt_buffered_frame`: stored text that is not a buffered frame.
 * @example
 * lineText(bufferedFrameLine('{"type":"inbound","event":{"text":"hi"}}', '7'));
 * // '{"type":"inbound","event":{"text":"hi"},"bufferId":"7"}\n'
 */
export function bufferedFrameLine(frameJson: string, bufferId: string): BufferedFrameLine {
  if (frameJson.startsWith(INBOUND_PREFIX) && frameJson.endsWith('}')) {
    return { head: frameJson, dropsClosingBrace: true, tail: `,"bufferId":${JSON.stringify(bufferId)}}\n` };
  }
  const wire = frameToWireObject({ ...decodeBufferedFrame(frameJson), bufferId });
  return { head: JSON.stringify(wire), dropsClosingBrace: false, tail: '\n' };
}

/** The length of a line in UTF-16 code units. */
export function lineLength(line: BufferedFrameLine): number {
  return line.head.length - (line.dropsClosingBrace ? 1 : 0) + line.tail.length;
}

/** The text of a line. */
export function lineText(line: BufferedFrameLine): string {
  return (line.dropsClosingBrace ? line.head.slice(0, -1) : line.head) + line.tail;
}

/**
 * The UTF-8 bytes of `lines`, one after another: each piece is encoded once, straight into the
 * message (no joined string, no second pass over it to count and encode).
 */
export function utf8Lines(lines: readonly BufferedFrameLine[]): Buffer {
  let size = 0;
  for (const line of lines) {
    size += Buffer.byteLength(line.head) - (line.dropsClosingBrace ? 1 : 0) + Buffer.byteLength(line.tail);
  }
  const bytes = Buffer.allocUnsafe(size);
  let offset = 0;
  for (const line of lines) {
    // A dropped `}` is written and then overwritten by the tail, which is never empty.
    offset += bytes.write(line.head, offset) - (line.dropsClosingBrace ? 1 : 0);
    offset += bytes.write(line.tail, offset);
  }
  return bytes;
}
