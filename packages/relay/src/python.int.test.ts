import { describe, expect, it } from 'vitest';
import { pythonIntOf } from './python.js';

describe('pythonIntOf', () => {
  it.each([
    [true, { kind: 'int', sign: 1 }],
    [false, { kind: 'int', sign: 0 }],
    [1999.9, { kind: 'int', sign: 1 }],
    [-0.5, { kind: 'int', sign: 0 }],
    [-1.5, { kind: 'int', sign: -1 }],
    [Number.NaN, { kind: 'invalid' }],
    [Infinity, { kind: 'overflow' }],
    [-Infinity, { kind: 'overflow' }],
    ['12', { kind: 'int', sign: 1 }],
    [' \t12\n', { kind: 'int', sign: 1 }],
    ['\u200912\u3000', { kind: 'int', sign: 1 }],
    ['\u200b12', { kind: 'invalid' }],
    // int() skips str.isspace() whitespace except the ASCII separators U+001C–U+001F (strip() skips them).
    ['\x0b12\x0c', { kind: 'int', sign: 1 }],
    ['\x8512\u2028', { kind: 'int', sign: 1 }],
    ['1\x1f', { kind: 'invalid' }],
    ['\x1c1', { kind: 'invalid' }],
    ['1\x1d', { kind: 'invalid' }],
    ['\x1e-1', { kind: 'invalid' }],
    ['-3', { kind: 'int', sign: -1 }],
    ['-0', { kind: 'int', sign: 0 }],
    ['+0_0', { kind: 'int', sign: 0 }],
    ['1_0', { kind: 'int', sign: 1 }],
    ['_10', { kind: 'invalid' }],
    ['10_', { kind: 'invalid' }],
    ['1__0', { kind: 'invalid' }],
    ['1.0', { kind: 'invalid' }],
    ['1e3', { kind: 'invalid' }],
    ['', { kind: 'invalid' }],
    ['٣', { kind: 'int', sign: 1 }],
    ['٠', { kind: 'int', sign: 0 }],
    ['\u{1D7CE}', { kind: 'int', sign: 0 }],
    ['\u{1D7D8}', { kind: 'int', sign: 0 }],
    ['\u{1D7D9}', { kind: 'int', sign: 1 }],
    ['1'.repeat(4300), { kind: 'int', sign: 1 }],
    ['1'.repeat(4301), { kind: 'invalid' }],
    [null, { kind: 'invalid' }],
    [[1], { kind: 'invalid' }],
    [{}, { kind: 'invalid' }],
  ] as const)('int(%j)', (value, outcome) => {
    expect(pythonIntOf(value)).toEqual(outcome);
  });
});
