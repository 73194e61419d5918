import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BufferedFrame, encodeBufferedFrame } from '../buffer/index.js';
import { frameToWireObject } from '../frames/index.js';
import { bufferedFrameLine } from './buffered-frame-line.js';

/** The line as replay wrote it before it carried stored text: decode, order keys, stringify. */
function lineByObject(frame: BufferedFrame, bufferId: string): string {
  return `${JSON.stringify(frameToWireObject({ ...frame, bufferId }))}\n`;
}

const payload = fc
  .dictionary(fc.string(), fc.jsonValue())
  .map((value) => JSON.parse(JSON.stringify(value)) as { [key: string]: never });
const bufferId = fc.oneof(fc.nat().map(String), fc.string());

describe('bufferedFrameLine', () => {
  it('writes an inbound entry byte for byte as the frame object with its bufferId', () => {
    fc.assert(
      fc.property(payload, bufferId, (event, id) => {
        const frame: BufferedFrame = { type: 'inbound', event };
        expect(bufferedFrameLine(encodeBufferedFrame(frame), id)).toBe(lineByObject(frame, id));
      }),
      { numRuns: 300 },
    );
  });

  it('puts a passthrough forward in wire key order, as before', () => {
    fc.assert(
      fc.property(payload, bufferId, (forward, id) => {
        const frame: BufferedFrame = { type: 'passthrough_forward', forward: { bodyB64: '', ...forward } };
        expect(bufferedFrameLine(encodeBufferedFrame(frame), id)).toBe(lineByObject(frame, id));
      }),
      { numRuns: 200 },
    );
    expect(
      bufferedFrameLine('{"type":"passthrough_forward","forward":{"path":"/x","platform":"slack"}}', '9'),
    ).toBe('{"type":"passthrough_forward","forward":{"platform":"slack","path":"/x"},"bufferId":"9"}\n');
  });

  it('refuses stored text that is not a buffered frame', () => {
    expect(() => bufferedFrameLine('{"type":"outbound"}', '1')).toThrow(
      expect.objectContaining({ code: 'corrupt_buffered_frame' }),
    );
  });
});
