import { describe, expect, it } from 'vitest';
import { pythonJsonDumps, pythonJsonNumber } from './json-dumps.js';

describe('pythonJsonDumps', () => {
  it('escapes like ensure_ascii: control characters, DEL, non-ASCII, astral pairs, lone surrogates', () => {
    expect(pythonJsonDumps('a"\\\n\r\t\b\f\u0000\u001f\u007f é€😀\ud800')).toBe(
      '"a\\"\\\\\\n\\r\\t\\b\\f\\u0000\\u001f\\u007f \\u00e9\\u20ac\\ud83d\\ude00\\ud800"',
    );
  });

  it('uses ", " and ": " separators and keeps key order', () => {
    expect(pythonJsonDumps({ b: [1, { a: null }], a: true, c: {}, d: [] })).toBe(
      '{"b": [1, {"a": null}], "a": true, "c": {}, "d": []}',
    );
  });

  it('writes numbers as Python int or float repr', () => {
    const cases: [number, string][] = [
      [0, '0'],
      [-0, '0'],
      [42, '42'],
      [1e21, '1000000000000000000000'],
      [1.5, '1.5'],
      [-0.25, '-0.25'],
      [0.0001, '0.0001'],
      [0.00001, '1e-05'],
      [1.5e-7, '1.5e-07'],
      [123456.789, '123456.789'],
      [4503599627370495.5, '4503599627370495.5'],
      [5e-324, '5e-324'],
      [0.1 + 0.2, '0.30000000000000004'],
      [Number.NaN, 'NaN'],
      [Number.NEGATIVE_INFINITY, '-Infinity'],
    ];
    for (const [value, text] of cases) expect(pythonJsonNumber(value), String(value)).toBe(text);
  });
});
