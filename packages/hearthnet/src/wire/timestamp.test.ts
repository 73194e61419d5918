import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatWireTimestamp, isAcceptableRequestId, newRequestId, parseWireTimestamp } from './envelope.js';

describe('wire timestamps (contract §1.1)', () => {
  it('formats whole seconds in UTC with Z', () => {
    expect(formatWireTimestamp(Date.UTC(2026, 4, 26, 8, 14, 22, 281))).toBe('2026-05-26T08:14:22Z');
  });

  it('parses seconds and milliseconds, and refuses offsets, other precisions and impossible dates', () => {
    expect(parseWireTimestamp('2026-05-26T08:14:22Z')).toBe(Date.UTC(2026, 4, 26, 8, 14, 22));
    expect(parseWireTimestamp('2026-05-26T08:14:22.5Z')).toBe(Date.UTC(2026, 4, 26, 8, 14, 22, 500));
    for (const bad of [
      '2026-05-26T08:14:22+00:00',
      '2026-05-26T08:14:22.1234Z',
      '2026-02-30T08:14:22Z',
      '2026-05-26 08:14:22Z',
      '2026-05-26T24:00:00Z',
    ]) {
      expect(parseWireTimestamp(bad), bad).toBeUndefined();
    }
  });

  it('round-trips every second', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253402300799 }), (seconds) => {
        expect(parseWireTimestamp(formatWireTimestamp(seconds * 1000))).toBe(seconds * 1000);
      }),
      { numRuns: 200 },
    );
  });
});

describe('request ids', () => {
  it('are 26-character Crockford ULIDs whose first 10 characters encode the time', () => {
    const id = newRequestId(Date.UTC(2026, 4, 26));
    expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(newRequestId(Date.UTC(2026, 4, 26)).slice(0, 10)).toBe(id.slice(0, 10));
    expect(newRequestId(Date.UTC(2026, 4, 26)).slice(10)).not.toBe(id.slice(10));
    expect(newRequestId(Date.UTC(2026, 4, 27)) > id).toBe(true);
  });

  it('accepts any short printable id from a peer (the reference sends 16 hex) and refuses the rest', () => {
    expect(isAcceptableRequestId('9f86d081884c7d65')).toBe(true);
    expect(isAcceptableRequestId(newRequestId())).toBe(true);
    for (const bad of ['', 'has space', 'x'.repeat(129), 'line\nbreak', 42])
      expect(isAcceptableRequestId(bad)).toBe(false);
  });
});
