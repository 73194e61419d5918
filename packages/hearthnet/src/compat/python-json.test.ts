import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PythonFloat, parseReferenceJson, pythonAsciiJson } from './reference-json.js';

// The reading and writing themselves are tested with the shared reader and writer
// (`@agentwire/internal`, python-json.*.test.ts); here, what HearthNet asks of them: compact
// ensure_ascii JSON, `PythonFloat` for integral floats, non-finite numbers refused, and its own
// error codes, messages and offsets.

const withBigIntsAsNumbers = (value: unknown) =>
  JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? Number(item) : item));

describe('pythonAsciiJson', () => {
  it('writes integral numbers as ints and PythonFloat as floats', () => {
    expect(
      pythonAsciiJson([1, new PythonFloat(1), -0, new PythonFloat(-0), 1e21, 10n ** 20n], { sortKeys: true }),
    ).toBe('[1,1.0,0,-0.0,1000000000000000000000,100000000000000000000]');
  });

  it('sorts keys by code point, not by UTF-16 unit', () => {
    expect(pythonAsciiJson({ '😀': 1, '～': 2 }, { sortKeys: true })).toBe(
      '{"\\uff5e":2,"\\ud83d\\ude00":1}',
    );
    expect(pythonAsciiJson({ '😀': 1, '～': 2 }, { sortKeys: false })).toBe(
      '{"\\ud83d\\ude00":1,"\\uff5e":2}',
    );
  });

  it.each([
    ['NaN', { a: Number.NaN }, '$.a'],
    ['Infinity', [1, Number.POSITIVE_INFINITY], '$[1]'],
    ['PythonFloat(Infinity)', { x: new PythonFloat(Number.NEGATIVE_INFINITY) }, '$.x'],
    ['undefined', { a: undefined }, '$.a'],
    ['a function', { a: () => 1 }, '$.a'],
    ['a Date', { when: new Date(0) }, '$.when'],
  ])('refuses %s with python_json_unencodable', (_name, value, path) => {
    expect(() => pythonAsciiJson(value, { sortKeys: true })).toThrow(
      expect.objectContaining({ name: 'HearthNetLocalError', code: 'python_json_unencodable', path }),
    );
  });

  it('refuses a value that contains itself, but not a shared value', () => {
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(() => pythonAsciiJson(loop, { sortKeys: true })).toThrow(
      expect.objectContaining({ code: 'python_json_unencodable' }),
    );
    const shared = { n: 1 };
    expect(pythonAsciiJson({ a: shared, b: shared }, { sortKeys: true })).toBe('{"a":{"n":1},"b":{"n":1}}');
  });

  it('is ASCII only and reads back to the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, sortKeys) => {
        const text = pythonAsciiJson(value, { sortKeys });
        expect(text).toMatch(/^[\x20-\x7e]*$/);
        expect(withBigIntsAsNumbers(parseReferenceJson(text))).toBe(
          withBigIntsAsNumbers(sortKeys ? JSON.parse(text) : value),
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe('parseReferenceJson', () => {
  it("types numbers as Python's json.loads does", () => {
    const value = parseReferenceJson('[1, 1.0, -0.0, 1e2, 0.5, 9007199254740993, -0]') as unknown[];
    expect(value[0]).toBe(1);
    expect(value[1]).toEqual(new PythonFloat(1));
    expect(Object.is((value[2] as PythonFloat).value, -0)).toBe(true);
    expect(value[3]).toEqual(new PythonFloat(100));
    expect(value[4]).toBe(0.5);
    expect(value[5]).toBe(9007199254740993n);
    expect(pythonAsciiJson(value, { sortKeys: true })).toBe('[1,1.0,-0.0,100.0,0.5,9007199254740993,0]');
  });

  it('keeps the last of duplicate keys and `__proto__` as data', () => {
    const value = parseReferenceJson('{"a":1,"a":2,"__proto__":{"polluted":true}}') as Record<
      string,
      unknown
    >;
    expect(value.a).toBe(2);
    expect(Object.keys(value)).toEqual(['a', '__proto__']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['', 0],
    ['{"a":1,}', 7],
    ['[1 2]', 3],
    ['"unterminated', 13],
    ['"tab\there"', 5],
    ['"\\x"', 3],
    ['NaN', 0],
    ['1e400', 5],
    ['01', 1],
    ['{} {}', 3],
    ['['.repeat(1001), 1000],
  ])('refuses %j with reference_json_syntax', (text, offset) => {
    expect(() => parseReferenceJson(text)).toThrow(
      expect.objectContaining({
        name: 'HearthNetLocalError',
        code: 'reference_json_syntax',
        details: { offset },
      }),
    );
  });

  it.each([
    ['', 'expected a JSON value at offset 0'],
    ['-x', 'invalid number at offset 0'],
    ['{} {}', 'unexpected data after the JSON value at offset 3'],
    ['{1:2}', 'expected a string key at offset 1'],
    ['{"a" 1}', "expected ':' at offset 5"],
    ['{"a":1 "b"}', "expected ',' or '}' at offset 7"],
    ['[1 2]', "expected ',' or ']' at offset 3"],
    ['"tab\there"', 'control character in a string at offset 5'],
    ['"\\u12"', 'invalid escape at offset 3'],
    ['1e400', 'a float beyond the double range at offset 5'],
    ['['.repeat(1001), 'nested too deeply at offset 1000'],
  ])('says where %j fails', (text, message) => {
    expect(() => parseReferenceJson(text)).toThrow(expect.objectContaining({ message }));
  });

  it('reads nesting as deep as json.loads does (up to 1000 levels)', () => {
    const text = `${'['.repeat(999)}{"a":1.0}${']'.repeat(999)}`;
    let value = parseReferenceJson(text);
    for (let depth = 0; depth < 999; depth++) value = (value as unknown[])[0];
    expect((value as { a: PythonFloat }).a).toEqual(new PythonFloat(1));
    expect(pythonAsciiJson(parseReferenceJson(text), { sortKeys: true })).toBe(text);
  });

  it('refuses what is not text', () => {
    expect(() => parseReferenceJson(42 as unknown as string)).toThrow(
      expect.objectContaining({ code: 'reference_json_syntax' }),
    );
  });
});
