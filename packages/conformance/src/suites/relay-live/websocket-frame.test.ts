import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closePayload, encodeWebSocketFrame, OPCODE, WebSocketFrameReader } from './websocket-client.js';

describe('WebSocket frames', () => {
  it('round-trips masked and unmasked frames of every length class, however the bytes are chunked', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            payload: fc.oneof(
              fc.uint8Array({ maxLength: 130 }),
              fc
                .integer({ min: 65_530, max: 65_540 })
                .map((length) => new Uint8Array(length).map((_, i) => (i * 31) & 0xff)),
            ),
            mask: fc.boolean(),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        fc.integer({ min: 1, max: 70_000 }),
        (frames, chunkSize) => {
          const wire = Buffer.concat(
            frames.map((f) => encodeWebSocketFrame(OPCODE.binary, Buffer.from(f.payload), { mask: f.mask })),
          );
          const reader = new WebSocketFrameReader();
          const read = [];
          for (let i = 0; i < wire.length; i += chunkSize)
            read.push(...reader.push(wire.subarray(i, i + chunkSize)));
          expect(read.map((f) => [f.fin, f.opcode, f.payload.toString('hex')])).toEqual(
            frames.map((f) => [true, OPCODE.binary, Buffer.from(f.payload).toString('hex')]),
          );
        },
      ),
      { numRuns: 25 },
    );
  });

  it('writes the header RFC 6455 §5.2 prescribes', () => {
    expect([...encodeWebSocketFrame(OPCODE.text, Buffer.from('hi'), { mask: false })]).toEqual([
      0x81, 2, 0x68, 0x69,
    ]);
    const long = encodeWebSocketFrame(OPCODE.text, Buffer.alloc(126), { mask: false });
    expect([...long.subarray(0, 4)]).toEqual([0x81, 126, 0, 126]);
    const masked = encodeWebSocketFrame(OPCODE.close, closePayload(4401, 'expired'), { mask: true });
    expect(masked[1]).toBe(0x80 | 9);
    const [frame] = new WebSocketFrameReader().push(masked);
    expect(frame?.payload.readUInt16BE(0)).toBe(4401);
    expect(frame?.payload.subarray(2).toString()).toBe('expired');
  });
});
