import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dumpPythonJson, PythonJsonUnencodableError } from './python-json.js';

/** A float wrapper as a package would declare one: a Python float whose value is integral. */
class WrappedFloat {
  constructor(readonly value: number) {}
}
const floatOf = (value: object) => (value instanceof WrappedFloat ? value.value : undefined);

function refusalOf(write: () => unknown): PythonJsonUnencodableError {
  try {
    write();
  } catch (error) {
    if (error instanceof PythonJsonUnencodableError) return error;
    throw error;
  }
  throw new Error('expected the writer to refuse');
}

describe('dumpPythonJson', () => {
  it('escapes like ensure_ascii: control characters, DEL, non-ASCII, astral pairs, lone surrogates', () => {
    expect(dumpPythonJson('a"\\\n\r\t\b\f\u0000\u001f\u007f é€😀\ud800')).toBe(
      '"a\\"\\\\\\n\\r\\t\\b\\f\\u0000\\u001f\\u007f \\u00e9\\u20ac\\ud83d\\ude00\\ud800"',
    );
    // Python str can hold lone surrogates; json.dumps escapes them instead of failing.
    expect(dumpPythonJson('a\ud800b\udfff')).toBe('"a\\ud800b\\udfff"');
  });

  it('uses ", " and ": " separators and keeps key order', () => {
    expect(dumpPythonJson({ b: [1, { a: null }], a: true, c: {}, d: [] })).toBe(
      '{"b": [1, {"a": null}], "a": true, "c": {}, "d": []}',
    );
  });

  it('uses the separators it is given', () => {
    expect(dumpPythonJson({ b: [1, { a: null }], a: true }, { separators: [',', ':'] })).toBe(
      '{"b":[1,{"a":null}],"a":true}',
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
    for (const [value, text] of cases) expect(dumpPythonJson(value), String(value)).toBe(text);
  });

  it('writes a bigint as an int and a float wrapper as a float', () => {
    expect(
      dumpPythonJson(
        [1, new WrappedFloat(1), -0, new WrappedFloat(-0), 1e21, 10n ** 20n, new WrappedFloat(1e16)],
        {
          floatOf,
        },
      ),
    ).toBe('[1, 1.0, 0, -0.0, 1000000000000000000000, 100000000000000000000, 1e+16]');
  });

  it('mirrors ensure_ascii=False: only quote, backslash and C0 controls escaped', () => {
    // Python: json.dumps('a"\\\n\x00\x1f\x7f é€😀\ud800', ensure_ascii=False)
    expect(dumpPythonJson('a"\\\n\u0000\u001f\u007f é€😀\ud800', { ensureAscii: false })).toBe(
      '"a\\"\\\\\\n\\u0000\\u001f\u007f é€😀\ud800"',
    );
  });

  it('mirrors sort_keys=True: keys in code-point order, nested objects too', () => {
    // Python: json.dumps({'b': {'z': 1, 'a': 2}, '\U0001F600': 0, '\uff5e': 0, 'A': 0}, sort_keys=True)
    expect(dumpPythonJson({ b: { z: 1, a: 2 }, '😀': 0, '～': 0, A: 0 }, { sortKeys: true })).toBe(
      '{"A": 0, "b": {"a": 2, "z": 1}, "\\uff5e": 0, "\\ud83d\\ude00": 0}',
    );
  });

  it('skips undefined members and writes undefined items as null only when asked', () => {
    const value = { a: undefined, b: [undefined, 1], c: 2 };
    expect(dumpPythonJson(value, { undefinedValues: 'skip' })).toBe('{"b": [null, 1], "c": 2}');
    expect(refusalOf(() => dumpPythonJson(value))).toMatchObject({ reason: 'unsupported_type', path: ['a'] });
    expect(refusalOf(() => dumpPythonJson([1, undefined]))).toMatchObject({
      reason: 'unsupported_type',
      path: [1],
    });
  });

  it.each([
    ['a refused bigint', { a: [1n] }, { bigints: 'refuse' } as const, 'unsupported_type', ['a', 0]],
    ['a function', { f: () => 1 }, {}, 'unsupported_type', ['f']],
    ['a symbol', [Symbol('s')], {}, 'unsupported_type', [0]],
    ['a Date', { when: new Date(0) }, {}, 'non_plain_object', ['when']],
    ['a Map', new Map(), {}, 'non_plain_object', []],
    ['a refused NaN', { a: Number.NaN }, { nonFinite: 'refuse' } as const, 'non_finite', ['a']],
    ['a refused Infinity', [1, Infinity], { nonFinite: 'refuse' } as const, 'non_finite', [1]],
    [
      'a refused wrapped -Infinity',
      { x: new WrappedFloat(-Infinity) },
      { nonFinite: 'refuse', floatOf } as const,
      'non_finite',
      ['x'],
    ],
  ])('refuses %s with its reason and path', (_name, value, options, reason, path) => {
    expect(refusalOf(() => dumpPythonJson(value, options))).toMatchObject({ reason, path });
  });

  it('writes non-finite floats as literals by default, wrapped or not', () => {
    expect(dumpPythonJson([Number.NaN, Infinity, new WrappedFloat(-Infinity)], { floatOf })).toBe(
      '[NaN, Infinity, -Infinity]',
    );
  });

  it('refuses a value that contains itself, but not a shared value', () => {
    const loop: Record<string, unknown> = { list: [] };
    (loop.list as unknown[]).push(loop);
    expect(refusalOf(() => dumpPythonJson(loop))).toMatchObject({ reason: 'cycle', path: ['list', 0] });
    const shared = { n: 1 };
    expect(dumpPythonJson({ a: shared, b: [shared] })).toBe('{"a": {"n": 1}, "b": [{"n": 1}]}');
  });

  it('round-trips any JSON value with ensureAscii false and sortKeys true', () => {
    fc.assert(
      fc.property(fc.jsonValue({ noUnicodeString: false }), (value) => {
        const text = dumpPythonJson(value, { ensureAscii: false, sortKeys: true });
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(/\\u00[2-9a-f][0-9a-f]|\\u0[1-9a-f]|\\u[1-9a-f]/.test(text)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('writes compact ensure_ascii JSON that is ASCII only and reads back to the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = dumpPythonJson(value, { separators: [',', ':'] });
        expect(text).toMatch(/^[\x20-\x7e]*$/);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 300 },
    );
  });
});
