import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PythonJsonSyntaxError, parsePythonJson } from './json-loads.js';

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
    expect(() => parsePythonJson(text)).toThrow(PythonJsonSyntaxError);
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
