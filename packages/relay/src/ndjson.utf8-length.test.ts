import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Length } from './ndjson.js';

describe('utf8Length', () => {
  it('equals the TextEncoder length for any string, lone surrogates included', () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(
        fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)) }),
        (s) => {
          expect(utf8Length(s)).toBe(encoder.encode(s).length);
        },
      ),
      { numRuns: 300 },
    );
    expect(utf8Length('a€😀\ud800')).toBe(1 + 3 + 4 + 3);
  });
});
