import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pythonJsonDumps, pythonJsonNumber } from './python.js';

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

  it('mirrors ensure_ascii=False: only quote, backslash and C0 controls escaped', () => {
    // Python: json.dumps('a"\\\n\x00\x1f\x7f é€😀\ud800', ensure_ascii=False)
    expect(pythonJsonDumps('a"\\\n\u0000\u001f\u007f é€😀\ud800', { ensureAscii: false })).toBe(
      '"a\\"\\\\\\n\\u0000\\u001f\u007f é€😀\ud800"',
    );
  });

  it('mirrors sort_keys=True: keys in code-point order, nested objects too', () => {
    // Python: json.dumps({'b': {'z': 1, 'a': 2}, '\U0001F600': 0, '\uff5e': 0, 'A': 0}, sort_keys=True)
    expect(pythonJsonDumps({ b: { z: 1, a: 2 }, '😀': 0, '～': 0, A: 0 }, { sortKeys: true })).toBe(
      '{"A": 0, "b": {"a": 2, "z": 1}, "\\uff5e": 0, "\\ud83d\\ude00": 0}',
    );
  });

  it('round-trips any JSON value with ensureAscii false and sortKeys true', () => {
    fc.assert(
      fc.property(fc.jsonValue({ noUnicodeString: false }), (value) => {
        const text = pythonJsonDumps(value, { ensureAscii: false, sortKeys: true });
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(/\\u00[2-9a-f][0-9a-f]|\\u0[1-9a-f]|\\u[1-9a-f]/.test(text)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
