import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64Encode } from '../encoding.js';
import { encodeSseFrame } from '../wire/sse.js';
import { chunkFrame } from './file-capabilities.js';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('chunkFrame', () => {
  it('property: its bytes are the SSE text encodeSseFrame writes for its data, with and without size_bytes', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 100_000 }),
        fc.string({ maxLength: 80 }),
        fc.uint8Array({ maxLength: 5000 }),
        fc.boolean(),
        (i, cid, bytes, withSize) => {
          const frame = chunkFrame({ i, cid, withSize }, bytes);
          const data = withSize
            ? { i, cid, size_bytes: bytes.length, data_b64: base64Encode(bytes) }
            : { i, cid, data_b64: base64Encode(bytes) };
          expect(frame.event).toBe('chunk');
          expect(text(frame.bytes)).toBe(encodeSseFrame({ event: 'chunk', data }));
          expect(frame.data).toEqual(data);
          expect(Object.keys(frame.data)).toEqual(Object.keys(data));
        },
      ),
    );
  });

  it('writes a whole 256 KiB chunk and a CID that JSON must escape byte for byte', () => {
    const bytes = Uint8Array.from({ length: 256 * 1024 + 1 }, (_, index) => (index * 131) & 0xff);
    const cid = 'blake3:"quoted"\\ é 水 \u2028';
    const frame = chunkFrame({ i: 7, cid, withSize: true }, bytes);
    const data = { i: 7, cid, size_bytes: bytes.length, data_b64: base64Encode(bytes) };
    expect(text(frame.bytes)).toBe(encodeSseFrame({ event: 'chunk', data }));
  });
});
