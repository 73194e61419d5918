import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64Encode } from '../encoding.js';
import { ChunkFrame, fileReadChunkFromBytes } from './chunk-frame.js';
import { encodeSseFrame, readBodyFrames, readSseFrames, type SseFrame } from './sse.js';

const utf8 = new TextEncoder();
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
/** The data line's bytes of a frame's SSE text. */
const dataBytes = (frameText: string) =>
  utf8.encode(frameText.slice(frameText.indexOf('data: ') + 6, frameText.length - 2));

const chunkData = (i: number, cid: string, bytes: Uint8Array, withSize: boolean) =>
  withSize
    ? { i, cid, size_bytes: bytes.length, data_b64: base64Encode(bytes) }
    : { i, cid, data_b64: base64Encode(bytes) };

const printableCid = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
});

describe('ChunkFrame', () => {
  it('property: encode writes the SSE text encodeSseFrame writes for its data, with and without size_bytes', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 100_000 }),
        fc.string({ maxLength: 80 }),
        fc.uint8Array({ maxLength: 5000 }),
        fc.boolean(),
        (i, cid, bytes, withSize) => {
          const frame = new ChunkFrame({ i, cid, withSize }, bytes);
          const data = chunkData(i, cid, bytes, withSize);
          expect(text(frame.encode())).toBe(encodeSseFrame({ event: 'chunk', data }));
          expect(frame.event).toBe('chunk');
          expect(frame.data).toEqual(data);
          expect(Object.keys(frame.data)).toEqual(Object.keys(data));
          // Seen as a plain frame: event and data, nothing else.
          expect(JSON.parse(JSON.stringify(frame))).toEqual({ event: 'chunk', data });
        },
      ),
    );
  });

  it('property: decode reads back what encode wrote, as JSON.parse reads it', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 2 ** 40 }),
        printableCid,
        fc.uint8Array({ maxLength: 3000 }),
        fc.boolean(),
        (i, cid, bytes, withSize) => {
          const encoded = text(new ChunkFrame({ i, cid, withSize }, bytes).encode());
          const decoded = ChunkFrame.decode(dataBytes(encoded));
          if (cid.includes('"') || cid.includes('\\')) {
            // Escaped in JSON: left to the JSON reader.
            expect(decoded).toBeUndefined();
            return;
          }
          expect(decoded?.data).toEqual(JSON.parse(text(dataBytes(encoded))));
          expect(decoded?.bytes).toEqual(bytes);
          expect(decoded?.index).toBe(i);
        },
      ),
    );
  });

  it('property: a changed byte is either read as JSON.parse reads it or left to the JSON reader', () => {
    const valid = dataBytes(
      encodeSseFrame({
        event: 'chunk',
        data: chunkData(12, 'blake3:ab', Uint8Array.of(1, 2, 3, 4, 5), true),
      }),
    );
    fc.assert(
      fc.property(fc.nat({ max: valid.length - 1 }), fc.integer({ min: 0, max: 255 }), (at, byte) => {
        const changed = Uint8Array.from(valid);
        changed[at] = byte;
        const decoded = ChunkFrame.decode(changed);
        if (decoded === undefined) return;
        expect(decoded.data).toEqual(JSON.parse(new TextDecoder().decode(changed)));
      }),
    );
  });

  it('leaves to the JSON reader what it does not write: spaces, escapes, other numbers, loose base64, a wrong size', () => {
    const b64 = base64Encode(Uint8Array.of(0xfb, 0xff, 0x01, 0x02));
    for (const data of [
      `{"i": 1, "cid": "c", "size_bytes": 4, "data_b64": "${b64}"}`,
      `{"i":1,"cid":"c\\u0041","data_b64":"${b64}"}`,
      `{"i":01,"cid":"c","data_b64":"${b64}"}`,
      `{"i":1.0,"cid":"c","data_b64":"${b64}"}`,
      `{"i":-1,"cid":"c","data_b64":"${b64}"}`,
      `{"i":1,"cid":"c","data_b64":"-_8BAg=="}`,
      `{"i":1,"cid":"c","data_b64":"+/9="}`,
      `{"i":1,"cid":"c","data_b64":"+/8BAg="}`,
      `{"i":1,"cid":"c","size_bytes":5,"data_b64":"${b64}"}`,
      `{"i":1,"cid":"c","data_b64":"${b64}","extra":1}`,
      `{"cid":"c","i":1,"data_b64":"${b64}"}`,
      `{"i":1,"cid":"é","data_b64":"${b64}"}`,
      `{"i":1234567890123456,"cid":"c","data_b64":"${b64}"}`,
    ]) {
      expect(ChunkFrame.decode(utf8.encode(data)), data).toBeUndefined();
    }
    expect(ChunkFrame.decode(utf8.encode(`{"i":0,"cid":"","data_b64":""}`))?.bytes).toEqual(
      new Uint8Array(0),
    );
  });
});

/** A body of `bytes` cut at `cuts`. */
function bodyOf(bytes: Uint8Array, cuts: readonly number[]): ReadableStream<Uint8Array> {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    if (point > from) pieces.push(bytes.slice(from, point));
    from = Math.max(from, point);
  }
  return new ReadableStream({
    pull(controller) {
      const piece = pieces.shift();
      if (piece === undefined) controller.close();
      else controller.enqueue(piece);
    },
  });
}

async function collect(frames: AsyncIterable<SseFrame>): Promise<SseFrame[]> {
  const all: SseFrame[] = [];
  for await (const frame of frames) all.push(frame);
  return all;
}

describe('a body read with chunk frames from bytes', () => {
  it('property: gives the frames the JSON reader gives, however the body is cut, chunks as ChunkFrame', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(fc.nat({ max: 50 }), printableCid, fc.uint8Array({ maxLength: 400 }), fc.boolean()),
          {
            maxLength: 4,
          },
        ),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (chunks, cuts) => {
          const text = [
            encodeSseFrame({ event: 'manifest', data: { cid: 'blake3:x', chunks: [] } }),
            ...chunks.map(([i, cid, bytes, withSize]) =>
              new TextDecoder().decode(new ChunkFrame({ i, cid, withSize }, bytes).encode()),
            ),
            ': keepalive\n\n',
            encodeSseFrame({ event: 'done', data: { chunks: chunks.length } }),
          ].join('');
          const bytes = utf8.encode(text);
          const fast = await collect(readBodyFrames(bodyOf(bytes, cuts), {}, fileReadChunkFromBytes));
          const json = await collect(readSseFrames(bodyOf(bytes, cuts)));
          expect(fast).toEqual(json);
          chunks.forEach(([, cid], k) => {
            expect(fast[k + 1] instanceof ChunkFrame).toBe(!cid.includes('"') && !cid.includes('\\'));
          });
        },
      ),
    );
  });
});
