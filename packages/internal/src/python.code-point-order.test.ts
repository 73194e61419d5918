import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareCodePoints } from './python.js';

describe('compareCodePoints', () => {
  it('orders by code point, where UTF-16 order differs', () => {
    expect(compareCodePoints('\uFFFF', '\u{10000}')).toBeLessThan(0);
    expect(['\u{10000}', '\uFFFF'].sort()).toEqual(['\u{10000}', '\uFFFF']);
    expect(compareCodePoints('a', 'ab')).toBeLessThan(0);
    expect(compareCodePoints('B', 'a')).toBeLessThan(0);
    expect(compareCodePoints('x', 'x')).toBe(0);
  });

  it('agrees with the order of the UTF-8 bytes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        const bytes = Buffer.compare(Buffer.from(a), Buffer.from(b));
        expect(Math.sign(compareCodePoints(a, b))).toBe(bytes);
      }),
      { numRuns: 500 },
    );
  });
});
