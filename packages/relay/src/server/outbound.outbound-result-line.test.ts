import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OutboundResultObject } from '../frames/frames.js';
import { encodeFrame } from '../ndjson.js';
import { outboundResultLine } from './outbound.js';

/** What a call gives: its line, or the name of what it threw. */
function outcome(write: () => string): string {
  try {
    return write();
  } catch (error) {
    return `threw ${error instanceof Error ? error.name : String(error)}`;
  }
}

const unusualValue = fc.constantFrom<unknown>(
  Number.NaN,
  Number.POSITIVE_INFINITY,
  -0,
  undefined,
  { nested: undefined, n: 1 },
  JSON.parse('{"__proto__":{"a":1}}'),
  '\u2028 café ☕ \ud800',
);

const result: fc.Arbitrary<OutboundResultObject> = fc.oneof(
  fc.dictionary(fc.string(), fc.oneof(fc.jsonValue(), unusualValue)),
  fc.constant(JSON.parse('{"success":true,"__proto__":{"x":1}}') as OutboundResultObject),
  fc.constant({ success: true, message_id: '1310467783221469999' }),
);

describe('outboundResultLine', () => {
  it('writes what encodeFrame writes for the outbound_result, or throws what it throws', () => {
    fc.assert(
      fc.property(fc.string(), result, (requestId, value) => {
        expect(outcome(() => outboundResultLine(requestId, value))).toBe(
          outcome(() => encodeFrame({ type: 'outbound_result', requestId, result: value })),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('writes a success with its message id in one line', () => {
    expect(outboundResultLine('9f0c', { success: true, message_id: 'm1' })).toBe(
      '{"type":"outbound_result","requestId":"9f0c","result":{"success":true,"message_id":"m1"}}\n',
    );
  });

  it('refuses a result holding a non-finite number, as encodeFrame does', () => {
    expect(() => outboundResultLine('r1', { success: true, n: Number.NaN })).toThrow(/cannot be written/);
  });
});
