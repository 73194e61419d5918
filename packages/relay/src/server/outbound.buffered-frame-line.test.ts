import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BufferedFrame, encodeBufferedFrame } from '../buffer.js';
import { frameToWireObject } from '../frames/frames.js';
import { bufferedFrameLine, lineLength, lineText, utf8Lines } from './outbound.js';

/** The line as replay wrote it before it carried stored text: decode, order keys, stringify. */
function lineByObject(frame: BufferedFrame, bufferId: string): string {
  return `${JSON.stringify(frameToWireObject({ ...frame, bufferId }))}\n`;
}

const payload = fc
  .dictionary(fc.string(), fc.jsonValue())
  .map((value) => JSON.parse(JSON.stringify(value)) as { [key: string]: never });
const bufferId = fc.oneof(fc.nat().map(String), fc.string({ unit: 'binary' }));

describe('bufferedFrameLine', () => {
  it('writes an inbound entry byte for byte as the frame object with its bufferId', () => {
    fc.assert(
      fc.property(payload, bufferId, (event, id) => {
        const frame: BufferedFrame = { type: 'inbound', event };
        expect(lineText(bufferedFrameLine(encodeBufferedFrame(frame), id))).toBe(lineByObject(frame, id));
      }),
      { numRuns: 300 },
    );
  });

  it('puts a passthrough forward in wire key order, as before', () => {
    fc.assert(
      fc.property(payload, bufferId, (forward, id) => {
        const frame: BufferedFrame = { type: 'passthrough_forward', forward: { bodyB64: '', ...forward } };
        expect(lineText(bufferedFrameLine(encodeBufferedFrame(frame), id))).toBe(lineByObject(frame, id));
      }),
      { numRuns: 200 },
    );
    expect(
      lineText(
        bufferedFrameLine('{"type":"passthrough_forward","forward":{"path":"/x","platform":"slack"}}', '9'),
      ),
    ).toBe('{"type":"passthrough_forward","forward":{"platform":"slack","path":"/x"},"bufferId":"9"}\n');
  });

  it('refuses stored text that is not a buffered frame', () => {
    expect(() => bufferedFrameLine('{"type":"outbound"}', '1')).toThrow(
      expect.objectContaining({ code: 'corrupt_buffered_frame' }),
    );
  });
});

describe('utf8Lines', () => {
  const frame = fc.oneof(
    payload.map((event): BufferedFrame => ({ type: 'inbound', event })),
    payload.map((forward): BufferedFrame => ({ type: 'passthrough_forward', forward })),
  );
  const text = fc.string({ unit: 'binary' });

  it('is the UTF-8 of the lines’ text, one after another', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(frame, bufferId, text), { maxLength: 6 }), (entries) => {
        const lines = entries.map(([entry, id, note]) =>
          bufferedFrameLine(encodeBufferedFrame(withNote(entry, note)), id),
        );
        const joined = lines.map(lineText).join('');
        expect(utf8Lines(lines)).toStrictEqual(Buffer.from(joined, 'utf8'));
        expect(lines.reduce((sum, line) => sum + lineLength(line), 0)).toBe(joined.length);
      }),
      { numRuns: 300 },
    );
  });

  it('writes nothing for no lines', () => {
    expect(utf8Lines([])).toHaveLength(0);
  });
});

/** The frame with one more string member, non-ASCII and lone surrogates included. */
function withNote(frame: BufferedFrame, note: string): BufferedFrame {
  return frame.type === 'inbound'
    ? { type: 'inbound', event: { ...frame.event, note } }
    : { type: 'passthrough_forward', forward: { ...frame.forward, note } };
}
