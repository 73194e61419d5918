import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pythonStr } from './python.js';

describe('pythonStr', () => {
  it.each([
    ['abc', 'abc'],
    [null, 'None'],
    [true, 'True'],
    [5, '5'],
    [-0, '0'],
    [1.5, '1.5'],
    [1e-5, '1e-05'],
    [0.0001, '0.0001'],
    [1.5e16, '15000000000000000'],
    [1.5e-7, '1.5e-07'],
    [Number.NaN, 'nan'],
    [-Infinity, '-inf'],
    [[1, 'a', null], "[1, 'a', None]"],
    [{ k: "it's" }, `{'k': "it's"}`],
    [['a\'b"c'], `['a\\'b"c']`],
    [['tab\there\n\u0001\u00a0é😀'], "['tab\\there\\n\\x01\\xa0é😀']"],
    [['\u200b'], "['\\u200b']"],
  ] as const)('str(%j) is %s', (value, text) => {
    expect(pythonStr(value)).toBe(text);
  });

  it('renders absent values as None, bigints and integral numbers as Python ints', () => {
    expect(pythonStr(undefined)).toBe('None');
    expect(pythonStr(false)).toBe('False');
    expect(pythonStr(-100123)).toBe('-100123');
    expect(pythonStr(-123456789012345678901234567890n)).toBe('-123456789012345678901234567890');
    expect(pythonStr(0n)).toBe('0');
    expect(pythonStr(Infinity)).toBe('inf');
  });

  it('renders every finite non-integer as a string that parses back to the same number', () => {
    fc.assert(
      fc.property(
        fc.double({ noNaN: true, noDefaultInfinity: true }).filter((value) => !Number.isInteger(value)),
        (value) => {
          expect(Number(pythonStr(value))).toBe(value);
        },
      ),
      { numRuns: 300 },
    );
  });
});
