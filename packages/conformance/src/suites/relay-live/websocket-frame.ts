import { randomBytes } from 'node:crypto';

/** RFC 6455 opcodes this package reads or writes. */
export const OPCODE = {
  continuation: 0x0,
  text: 0x1,
  binary: 0x2,
  close: 0x8,
  ping: 0x9,
  pong: 0xa,
} as const;

/** One WebSocket frame, unmasked. */
export interface WebSocketFrame {
  readonly fin: boolean;
  readonly opcode: number;
  readonly payload: Buffer;
}

/** The GUID RFC 6455 §1.3 appends to `Sec-WebSocket-Key` before hashing it into `Sec-WebSocket-Accept`. */
export const WEBSOCKET_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/**
 * Encodes one final frame. Clients must mask what they send (RFC 6455 §5.3), servers must not.
 *
 * @example
 * socket.write(encodeWebSocketFrame(OPCODE.text, Buffer.from('{"type":"hello"}\n'), { mask: true }));
 */
export function encodeWebSocketFrame(
  opcode: number,
  payload: Buffer,
  options: { readonly mask: boolean },
): Buffer {
  const length = payload.length;
  const lengthBytes = length < 126 ? 0 : length <= 0xffff ? 2 : 8;
  const header = Buffer.alloc(2 + lengthBytes + (options.mask ? 4 : 0));
  header[0] = 0x80 | opcode;
  header[1] = (options.mask ? 0x80 : 0) | (lengthBytes === 0 ? length : lengthBytes === 2 ? 126 : 127);
  if (lengthBytes === 2) header.writeUInt16BE(length, 2);
  else if (lengthBytes === 8) header.writeBigUInt64BE(BigInt(length), 2);
  if (!options.mask) return Buffer.concat([header, payload]);
  const key = randomBytes(4);
  key.copy(header, 2 + lengthBytes);
  return Buffer.concat([header, applyMask(payload, key)]);
}

/** The payload of a close frame: the status code, then the UTF-8 reason. */
export function closePayload(code: number, reason: string): Buffer {
  const payload = Buffer.alloc(2);
  payload.writeUInt16BE(code, 0);
  return Buffer.concat([payload, Buffer.from(reason, 'utf8')]);
}

/**
 * Splits a byte stream into frames: `push` the bytes as they arrive and get every frame they complete;
 * a partial frame waits for more. Masked payloads are unmasked.
 */
export class WebSocketFrameReader {
  #pending: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): WebSocketFrame[] {
    this.#pending = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    const frames: WebSocketFrame[] = [];
    for (;;) {
      const frame = this.#next();
      if (frame === undefined) return frames;
      frames.push(frame);
    }
  }

  #next(): WebSocketFrame | undefined {
    const bytes = this.#pending;
    if (bytes.length < 2) return undefined;
    const masked = (bytes[1]! & 0x80) !== 0;
    const shortLength = bytes[1]! & 0x7f;
    const lengthBytes = shortLength === 126 ? 2 : shortLength === 127 ? 8 : 0;
    const headerLength = 2 + lengthBytes + (masked ? 4 : 0);
    if (bytes.length < headerLength) return undefined;
    const length =
      lengthBytes === 0
        ? shortLength
        : lengthBytes === 2
          ? bytes.readUInt16BE(2)
          : Number(bytes.readBigUInt64BE(2));
    if (bytes.length < headerLength + length) return undefined;
    const body = bytes.subarray(headerLength, headerLength + length);
    const payload = masked
      ? applyMask(body, bytes.subarray(2 + lengthBytes, headerLength))
      : Buffer.from(body);
    this.#pending = bytes.subarray(headerLength + length);
    return { fin: (bytes[0]! & 0x80) !== 0, opcode: bytes[0]! & 0x0f, payload };
  }
}

function applyMask(payload: Buffer, key: Buffer): Buffer {
  const out = Buffer.alloc(payload.length);
  for (let i = 0; i < payload.length; i++) out[i] = payload[i]! ^ key[i % 4]!;
  return out;
}
