import { describe, expect, it } from 'vitest';
import { isPythonTruthy } from './python.js';

describe('isPythonTruthy', () => {
  it.each([
    [null, false],
    [false, false],
    [0, false],
    [-0, false],
    ['', false],
    [[], false],
    [{}, false],
    [Number.NaN, true],
    ['0', true],
    [[0], true],
    [{ a: null }, true],
    [true, true],
  ] as const)('bool(%j) is %s', (value, truthy) => {
    expect(isPythonTruthy(value)).toBe(truthy);
  });

  it('follows Python for the session-key scalars: NaN is true, 0 / -0 / 0n / "" / false / None are false', () => {
    expect(isPythonTruthy(Number.NaN)).toBe(true);
    for (const value of [0, -0, 0n, '', false, null, undefined]) expect(isPythonTruthy(value)).toBe(false);
    for (const value of ['0', ' ', 1, -1, 1n, true]) expect(isPythonTruthy(value)).toBe(true);
  });
});
