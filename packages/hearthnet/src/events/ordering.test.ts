import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareEvents, type ReplayKey, sortForReplay } from './event-store.js';
import { encodeUlid } from './ulid.js';

const key = fc.record({
  lamport: fc.nat({ max: 20 }),
  event_id: fc
    .tuple(fc.integer({ min: 0, max: 50 }), fc.uint8Array({ minLength: 10, maxLength: 10 }))
    .map(([t, r]) => encodeUlid(t, r)),
});
const distinctKeys = fc.uniqueArray(key, { selector: (k) => k.event_id, maxLength: 40 });

describe('replay order (contract §7.4)', () => {
  it('orders by lamport, then event_id', () => {
    const a = { lamport: 2, event_id: '01ARYZ6S410000000000000000' };
    const b = { lamport: 2, event_id: '01ARYZ6S420000000000000000' };
    const c = { lamport: 1, event_id: '7ZZZZZZZZZZZZZZZZZZZZZZZZZ' };
    expect(sortForReplay([b, a, c])).toEqual([c, a, b]);
  });

  it('gives the same order for any arrival order of the same events (property)', () => {
    fc.assert(
      fc.property(distinctKeys, fc.infiniteStream(fc.nat()), (keys, seeds) => {
        const expected = sortForReplay(keys);
        const shuffled = [...keys];
        for (let i = shuffled.length - 1; i > 0; i--) {
          const j = seeds.next().value % (i + 1);
          [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
        }
        expect(sortForReplay(shuffled)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('is a total order: antisymmetric, transitive, 0 only for equal keys (property)', () => {
    fc.assert(
      fc.property(key, key, key, (a: ReplayKey, b: ReplayKey, c: ReplayKey) => {
        expect(Math.sign(compareEvents(a, b))).toBe(-Math.sign(compareEvents(b, a)));
        if (compareEvents(a, b) <= 0 && compareEvents(b, c) <= 0)
          expect(compareEvents(a, c)).toBeLessThanOrEqual(0);
        expect(compareEvents(a, b) === 0).toBe(a.lamport === b.lamport && a.event_id === b.event_id);
      }),
      { numRuns: 300 },
    );
  });

  it('leaves its input untouched and keeps duplicates', () => {
    const a = { lamport: 1, event_id: '01ARYZ6S410000000000000000' };
    const input = [a, { lamport: 0, event_id: a.event_id }, a];
    const copy = [...input];
    expect(sortForReplay(input)).toHaveLength(3);
    expect(input).toEqual(copy);
  });
});
