import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acceptedBefore, newConnectionId } from './options.js';

describe('connection ids', () => {
  it('order by acceptance time, then by sequence, whatever the instance', () => {
    const moment = fc.record({
      ms: fc.integer({ min: 0, max: 2 ** 45 }),
      seq: fc.integer({ min: 1, max: 2 ** 32 }),
      instance: fc.constantFrom('a', 'b-2', 'f0e1'),
    });
    fc.assert(
      fc.property(moment, moment, (x, y) => {
        const a = newConnectionId(x.instance, x.ms, x.seq);
        const b = newConnectionId(y.instance, y.ms, y.seq);
        const earlier = x.ms < y.ms || (x.ms === y.ms && x.seq < y.seq);
        expect(acceptedBefore(a, b)).toBe(earlier);
      }),
      { numRuns: 300 },
    );
  });

  it('lets a takeover from an id of another form win', () => {
    expect(acceptedBefore('legacy-id', newConnectionId('i', 5, 1))).toBe(false);
    expect(acceptedBefore(newConnectionId('i', 5, 1), 'legacy-id')).toBe(false);
  });
});
