import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeFrame } from '../ndjson.js';
import { inboundAckLine } from './client-connection.js';

describe('inboundAckLine', () => {
  it('writes what encodeFrame writes in Python style, for any id', () => {
    const id = fc.oneof(
      fc.nat().map(String),
      fc.tuple(fc.nat(), fc.nat()).map(([ms, seq]) => `${ms}-${seq}`),
      fc.string(),
      fc.string({ unit: 'binary' }),
    );
    fc.assert(
      fc.property(id, (bufferId) => {
        expect(inboundAckLine(bufferId)).toBe(
          encodeFrame({ type: 'inbound_ack', bufferId }, { style: 'python' }),
        );
      }),
      { numRuns: 500 },
    );
    for (const bufferId of ['"', '\\', 'é', '\u007f', '\u001f', '\ud800'])
      expect(inboundAckLine(bufferId)).toBe(
        encodeFrame({ type: 'inbound_ack', bufferId }, { style: 'python' }),
      );
  });
});
