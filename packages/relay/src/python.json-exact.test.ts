import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PYTHON_JSON_NESTING, parsePythonJsonExact } from './python.js';

describe('parsePythonJsonExact', () => {
  it('keeps an int apart from a float, exactly', () => {
    expect(
      parsePythonJsonExact('[1, 1.0, -0, -0.0, 1E2, 12345678901234567890123, 1e400, NaN, -Infinity]'),
    ).toEqual([1n, 1, 0n, -0, 100, 12345678901234567890123n, Infinity, Number.NaN, -Infinity]);
    expect(parsePythonJsonExact(`-${'9'.repeat(4300)}`)).toBe(-(10n ** 4300n - 1n));
  });

  it('reads an object as a dict in insertion order, a repeated key keeping its place and last value', () => {
    const dict = parsePythonJsonExact('{"b": 1, "10": 2, "__proto__": {}, "b": [true, null, "\\u00e9\\n"]}');
    expect([...(dict as ReadonlyMap<string, unknown>)]).toEqual([
      ['b', [true, null, 'é\n']],
      ['10', 2n],
      ['__proto__', new Map()],
    ]);
  });

  it.each([
    ['a leading BOM', '\ufeff{}', 'expecting value', 0],
    ['an int of 4301 digits', `[${'1'.repeat(4301)}]`, 'integer of more than 4300 digits', 1],
    ['a negative int of 4301 digits', `-${'1'.repeat(4301)}`, 'integer of more than 4300 digits', 0],
    [
      'nesting beyond the limit',
      `${'['.repeat(MAX_PYTHON_JSON_NESTING + 1)}${']'.repeat(MAX_PYTHON_JSON_NESTING + 1)}`,
      'nesting too deep',
      MAX_PYTHON_JSON_NESTING,
    ],
    ['a trailing comma', '{"a":1,}', 'expecting property name', 7],
    ['a missing comma', '[1 2]', "expecting ',' or ']'", 4],
    ['a short \\u escape', '"\\ud83d\\ude0', 'invalid \\uXXXX escape', 9],
  ])('refuses %s as json.loads does', (_, text, message, offset) => {
    const error = (() => {
      try {
        parsePythonJsonExact(text);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toMatchObject({
      name: 'RelayError',
      code: 'malformed_json',
      message: `${message} at offset ${offset}`,
      details: { offset },
    });
  });

  it('reads nesting up to the limit', () => {
    const depth = MAX_PYTHON_JSON_NESTING;
    expect(parsePythonJsonExact(`${'{"a":'.repeat(depth - 1)}[]${'}'.repeat(depth - 1)}`)).toBeInstanceOf(
      Map,
    );
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
        expect(toPlain(parsePythonJsonExact(text))).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });
});
