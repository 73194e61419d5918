import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PythonJsonParseOptions, PythonJsonSyntaxError, parsePythonJson } from './python-json.js';

/** The relay's reading of the gateway's `json.loads`: dicts as maps, exact ints, CPython's limits. */
const EXACT: PythonJsonParseOptions = {
  dicts: 'map',
  integers: 'bigint',
  maxIntegerDigits: 4300,
  maxDepth: 900,
};

/** A float wrapper as a package would declare one: a Python float whose value is integral. */
class WrappedFloat {
  constructor(readonly value: number) {}
}

function refusalOf(text: string, options?: PythonJsonParseOptions): PythonJsonSyntaxError {
  try {
    parsePythonJson(text, options);
  } catch (error) {
    if (error instanceof PythonJsonSyntaxError) return error;
    throw error;
  }
  throw new Error(`expected the reader to refuse ${JSON.stringify(text)}`);
}

describe('parsePythonJson', () => {
  it('keeps an int apart from a float, exactly', () => {
    expect(
      parsePythonJson('[1, 1.0, -0, -0.0, 1E2, 12345678901234567890123, 1e400, NaN, -Infinity]', EXACT),
    ).toEqual([1n, 1, 0n, -0, 100, 12345678901234567890123n, Infinity, Number.NaN, -Infinity]);
    expect(parsePythonJson(`-${'9'.repeat(4300)}`, EXACT)).toBe(-(10n ** 4300n - 1n));
  });

  it('reads an object as a dict in insertion order, a repeated key keeping its place and last value', () => {
    const dict = parsePythonJson(
      '{"b": 1, "10": 2, "__proto__": {}, "b": [true, null, "\\u00e9\\n"]}',
      EXACT,
    );
    expect([...(dict as ReadonlyMap<string, unknown>)]).toEqual([
      ['b', [true, null, 'é\n']],
      ['10', 2n],
      ['__proto__', new Map()],
    ]);
  });

  it('reads an object as a plain object with own keys, `__proto__` as data', () => {
    const value = parsePythonJson('{"a":1,"a":2,"__proto__":{"polluted":true}}') as Record<string, unknown>;
    expect(value.a).toBe(2n);
    expect(Object.keys(value)).toEqual(['a', '__proto__']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads ints as numbers, as safe numbers or bigints, and integral floats through the wrapper', () => {
    const text = '[1, -0, 9007199254740993, 1.0, -0.0, 1e16, 0.5]';
    expect(parsePythonJson(text, { integers: 'number' })).toEqual([1, 0, 9007199254740992, 1, -0, 1e16, 0.5]);
    const read = parsePythonJson(text, {
      integers: 'safe-number',
      integralFloat: (value) => new WrappedFloat(value),
    }) as unknown[];
    expect(read).toEqual([
      1,
      -0,
      9007199254740993n,
      new WrappedFloat(1),
      new WrappedFloat(-0),
      new WrappedFloat(1e16),
      0.5,
    ]);
    expect(Object.is((read[4] as WrappedFloat).value, -0)).toBe(true);
  });

  it.each([
    ['a leading BOM', '\ufeff{}', 'expected_value', 0],
    ['nothing', '', 'expected_value', 0],
    ['an int of 4301 digits', `[${'1'.repeat(4301)}]`, 'integer_too_long', 1],
    ['a negative int of 4301 digits', `-${'1'.repeat(4301)}`, 'integer_too_long', 0],
    ['nesting beyond the limit', `${'['.repeat(901)}${']'.repeat(901)}`, 'nesting_too_deep', 900],
    ['a trailing comma', '{"a":1,}', 'expected_key', 7],
    ['a missing comma', '[1 2]', 'expected_array_delimiter', 3],
    ['a missing object comma', '{"a":1 "b"}', 'expected_object_delimiter', 7],
    ['a missing colon', '{"a" 1}', 'expected_colon', 5],
    ['an unterminated string', '"abc', 'unterminated_string', 4],
    ['a raw control character', '"a\u0001"', 'control_character', 3],
    ['an unknown escape', '"\\x41"', 'invalid_escape', 3],
    ['a short \\u escape', '"\\ud83d\\ude0', 'invalid_unicode_escape', 9],
    ['a lone minus', '-x', 'invalid_number', 0],
    ['a leading zero', '01', 'extra_data', 1],
    ['text after the value', 'NaN x', 'extra_data', 4],
    ['lowercase nan', 'nan', 'expected_value', 0],
  ])('refuses %s with its reason and offset', (_, text, reason, offset) => {
    expect(refusalOf(text, EXACT)).toMatchObject({ reason, offset });
  });

  it.each([
    ['NaN', 'expected_value', 0],
    ['[Infinity]', 'expected_value', 1],
    ['-Infinity', 'invalid_number', 0],
    ['1e400', 'float_out_of_range', 5],
    ['[-1e400]', 'float_out_of_range', 7],
  ])('refuses %j where non-finite numbers are refused', (text, reason, offset) => {
    expect(refusalOf(text, { nonFinite: 'refuse' })).toMatchObject({ reason, offset });
  });

  it('reads nesting up to the limit, 1000 levels by default', () => {
    expect(parsePythonJson(`${'{"a":'.repeat(899)}[]${'}'.repeat(899)}`, EXACT)).toBeInstanceOf(Map);
    expect(parsePythonJson(`${'['.repeat(1000)}${']'.repeat(1000)}`)).toHaveLength(1);
    expect(refusalOf(`${'['.repeat(1001)}${']'.repeat(1001)}`)).toMatchObject({
      reason: 'nesting_too_deep',
      offset: 1000,
    });
  });

  it('reads what JSON.parse reads to the same strings, and numbers of the same value', () => {
    const toPlain = (value: unknown): unknown => {
      if (typeof value === 'bigint') return Number(value);
      if (Array.isArray(value)) return value.map(toPlain);
      if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [k, toPlain(v)]));
      return value;
    };
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value, null, 1);
        expect(toPlain(parsePythonJson(text, EXACT))).toEqual(JSON.parse(text));
        expect(parsePythonJson(text, { integers: 'number', nonFinite: 'refuse' })).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });
});
