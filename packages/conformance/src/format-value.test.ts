import { describe, expect, it } from 'vitest';
import { formatValue } from './assert.js';

describe('formatValue', () => {
  it.each([
    ['a"b', '"a\\"b"'],
    [12n, '12n'],
    [-0, '-0'],
    [Number.NaN, 'NaN'],
    [undefined, 'undefined'],
    [null, 'null'],
    [new Uint8Array([0, 255]), 'bytes(00ff)'],
    [[1, 'x', [true]], '[1, "x", [true]]'],
    [{ k: 1n }, '{"k": 1n}'],
    [new TypeError('bad'), 'TypeError: bad'],
    [Object.create(null), '{}'],
  ])('renders %p as %s', (value, expected) => {
    expect(formatValue(value)).toBe(expected);
  });

  it('marks cycles and cuts long output', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    expect(formatValue(cyclic)).toBe('{"a": 1, "self": [circular]}');
    const long = formatValue('x'.repeat(500));
    expect(long).toHaveLength(200 + '… (502 chars)'.length);
    expect(long.endsWith('… (502 chars)')).toBe(true);
  });

  it('renders a value shared by two branches twice rather than as a cycle', () => {
    const shared = [1];
    expect(formatValue({ a: shared, b: shared })).toBe('{"a": [1], "b": [1]}');
  });
});
