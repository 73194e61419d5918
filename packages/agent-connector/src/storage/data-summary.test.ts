import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { summarizeContent } from './data-store.js';

describe('summarizeContent', () => {
  it('keeps the first line whole up to 200 code units', () => {
    expect(summarizeContent('first\nsecond')).toBe('first');
    expect(summarizeContent('a'.repeat(200))).toBe('a'.repeat(200));
    expect(summarizeContent('')).toBe('');
    expect(summarizeContent('\nsecond')).toBe('');
    expect(summarizeContent('windows\r\nline')).toBe('windows\r');
  });

  it('cuts a longer first line to 197 units and three dots', () => {
    expect(summarizeContent('a'.repeat(201))).toBe(`${'a'.repeat(197)}...`);
    expect(summarizeContent(`${'b'.repeat(300)}\nrest`)).toBe(`${'b'.repeat(197)}...`);
  });

  it('never splits a surrogate pair', () => {
    const text = `${'a'.repeat(196)}😀${'z'.repeat(10)}`;
    expect(summarizeContent(text)).toBe(`${'a'.repeat(196)}...`);
  });

  it('refuses a non-string', () => {
    expect(() => summarizeContent(undefined as unknown as string)).toThrow(
      expect.objectContaining({ code: 'storage_validation' }),
    );
  });

  it('is at most 200 units, a prefix of the first line, and well-formed', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), (content) => {
        const summary = summarizeContent(content);
        expect(summary.length).toBeLessThanOrEqual(200);
        const firstLine = content.split('\n')[0] ?? '';
        const kept = summary.endsWith('...') && firstLine.length > 200 ? summary.slice(0, -3) : summary;
        expect(firstLine.startsWith(kept)).toBe(true);
        expect(summary).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
      }),
      { numRuns: 300 },
    );
  });
});
