import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PYTHON_JSON_NESTING, parsePythonJson } from './python.js';

describe('parsePythonJson', () => {
  it('reads the bare NaN / Infinity / -Infinity tokens Python accepts', () => {
    expect(parsePythonJson('[NaN, Infinity, -Infinity, 1]')).toEqual([Number.NaN, Infinity, -Infinity, 1]);
    expect(parsePythonJson('{"a": {"b": [NaN]}, "c": "NaN"}')).toEqual({ a: { b: [Number.NaN] }, c: 'NaN' });
  });

  it('keeps the last duplicate key and an own __proto__ key in the fallback reader', () => {
    const value = parsePythonJson('{"a": 1, "__proto__": NaN, "a": 2}') as Record<string, unknown>;
    expect(value['a']).toBe(2);
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it.each([
    'nan',
    '-NaN',
    '+1',
    '01',
    '1.',
    '.5',
    '[1,]',
    '{"a" 1}',
    '"\\x41"',
    '"\u0001"',
    '"\\u12"',
    'NaN x',
    '',
    '\ufeff{}',
    "{'a': 1}",
  ])('refuses %j', (text) => {
    expect(() => parsePythonJson(text)).toThrow(expect.objectContaining({ code: 'malformed_json' }));
  });

  it('refuses what json.loads raises on in both readers: a 4301-digit int, nesting beyond 900', () => {
    const digits = (n: number) => '7'.repeat(n);
    for (const tail of ['', ', NaN']) {
      expect(parsePythonJson(`[${digits(4300)}${tail}]`)).toEqual(tail ? [Infinity, Number.NaN] : [Infinity]);
      expect(parsePythonJson(`[-${digits(4301)}.0${tail}]`)).toContain(-Infinity);
      expect(parsePythonJson(`[1e400${tail}]`)).toContain(Infinity);
      expect(() => parsePythonJson(`[-${digits(4301)}${tail}]`)).toThrow(
        expect.objectContaining({ code: 'malformed_json', details: { offset: 1 } }),
      );
      const nested = (depth: number) => `${'['.repeat(depth)}${tail.slice(2)}${']'.repeat(depth)}`;
      expect(parsePythonJson(nested(MAX_PYTHON_JSON_NESTING))).toHaveLength(1);
      expect(() => parsePythonJson(nested(MAX_PYTHON_JSON_NESTING + 1))).toThrow(
        expect.objectContaining({ code: 'malformed_json', details: { offset: MAX_PYTHON_JSON_NESTING } }),
      );
    }
    expect(
      parsePythonJson(`{"a": ${'['.repeat(899)}${']'.repeat(899)}, "b": "${digits(5000)}"}`),
    ).toMatchObject({
      b: digits(5000),
    });
  });

  it("reads an int as its number in the fallback reader: -0 is Python's int 0 there", () => {
    // toEqual tells 0 from -0.
    expect(parsePythonJson('[12345678901234567890123, -0, -0.0, NaN]')).toEqual([
      Number('12345678901234567890123'),
      0,
      -0,
      Number.NaN,
    ]);
  });

  it.each([
    ['[1', "expecting ',' or ']' at offset 3"],
    ['{"a" 1}', "expecting ':' at offset 5"],
    ['{"a":1 "b"}', "expecting ',' or '}' at offset 8"],
    ['{1:2}', 'expecting property name at offset 1'],
    ['"abc', 'unterminated string at offset 4'],
    ['"a\u0001"', 'invalid control character at offset 3'],
    ['"\\x41"', 'invalid escape at offset 3'],
    ['"\\u12x4"', 'invalid \\uXXXX escape at offset 3'],
    ['NaN x', 'extra data at offset 4'],
    ['\ufeff{}', 'expecting value at offset 0'],
  ])('says where %j fails', (text, message) => {
    expect(() => parsePythonJson(text)).toThrow(message);
  });

  it('agrees with JSON.parse on standard JSON, including when NaN forces the fallback reader', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(parsePythonJson(text)).toEqual(JSON.parse(text));
        expect(parsePythonJson(`[NaN, ${text}]`)).toEqual([Number.NaN, JSON.parse(text)]);
      }),
      { numRuns: 300 },
    );
  });
});
