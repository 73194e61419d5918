import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type SessionSource, sessionSourceFromWire, sessionSourceToWire } from './session-source.js';

interface SessionSourceCase {
  readonly id: string;
  readonly tags: readonly string[];
  readonly op: 'to_wire' | 'from_wire';
  readonly source?: SessionSource;
  readonly wire?: unknown;
  readonly rewire?: Record<string, unknown>;
  readonly error?: string;
}

const fixture = JSON.parse(
  readFileSync(new URL('../../conformance/fixtures/relay/session-source.json', import.meta.url), 'utf8'),
) as { readonly cases: readonly SessionSourceCase[] };

/** Deep equality that also requires the same key order at every level. */
function expectSameOrdered(actual: unknown, expected: unknown): void {
  expect(actual).toEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

describe('fixtures/relay/session-source.json', () => {
  it('has both directions and an error case', () => {
    expect(new Set(fixture.cases.map((c) => c.op))).toEqual(new Set(['to_wire', 'from_wire']));
    expect(fixture.cases.some((c) => c.error !== undefined)).toBe(true);
  });

  for (const c of fixture.cases) {
    it(c.id, () => {
      if (c.op === 'to_wire') {
        expectSameOrdered(sessionSourceToWire(c.source as SessionSource), c.wire);
        return;
      }
      const read = () => sessionSourceFromWire(c.wire);
      if (c.error !== undefined) {
        expect(read).toThrow(expect.objectContaining({ code: 'session_source_not_object' }));
        expect(() => read()).toThrow(expect.objectContaining({ code: c.error }));
        return;
      }
      const source = read();
      expectSameOrdered(source, c.source);
      expectSameOrdered(sessionSourceToWire(source), c.rewire);
    });
  }
});
