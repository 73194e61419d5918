import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ftsSearchOf } from './sqlite-data-store.js';

describe('ftsSearchOf', () => {
  it('quotes each token so FTS5 operators are searched literally', () => {
    expect(ftsSearchOf('deploy OR rollback')).toEqual({
      kind: 'match',
      expression: '"deploy" "OR" "rollback"',
      raw: false,
    });
    expect(ftsSearchOf('NEAR(a b) x*')).toEqual({
      kind: 'match',
      expression: '"NEAR(a" "b)" "x*"',
      raw: false,
    });
  });

  it('doubles quotes inside a token', () => {
    expect(ftsSearchOf('say "hi"')).toEqual({ kind: 'match', expression: '"say" """hi"""', raw: false });
  });

  it('passes a raw: query through, trimmed', () => {
    expect(ftsSearchOf('raw:  deploy OR rollback ')).toEqual({
      kind: 'match',
      expression: 'deploy OR rollback',
      raw: true,
    });
  });

  it('lists recent entries for an empty, blank or bare raw: query', () => {
    for (const query of ['', '   ', '\n\t', 'raw:', 'raw:   '])
      expect(ftsSearchOf(query)).toEqual({ kind: 'recent' });
  });

  it('always builds a balanced expression of quoted phrases from plain text', () => {
    fc.assert(
      fc.property(fc.string(), (query) => {
        fc.pre(!query.startsWith('raw:'));
        const search = ftsSearchOf(query);
        if (search.kind === 'recent') {
          expect(query.trim()).toBe('');
          return;
        }
        // Every phrase opens and closes with a quote; doubled quotes are escapes inside it.
        const phrases = search.expression.split(/ (?=")/);
        expect(phrases).toHaveLength(query.trim().split(/\s+/).length);
        for (const phrase of phrases) expect(phrase).toMatch(/^"(?:[^"]|"")*"$/);
      }),
      { numRuns: 300 },
    );
  });
});
