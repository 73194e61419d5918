import { describe, expect, it } from 'vitest';
import { isSessionKeyScalar, keyPartStr } from './session-key.js';

describe('keyPartStr', () => {
  it('renders a source field as Python str() does', () => {
    expect(keyPartStr(null, 'x')).toBe('None');
    expect(keyPartStr(undefined, 'x')).toBe('None');
    expect(keyPartStr(true, 'x')).toBe('True');
    expect(keyPartStr(-100123, 'x')).toBe('-100123');
    expect(keyPartStr(-0, 'x')).toBe('0');
    expect(keyPartStr(1e-5, 'x')).toBe('1e-05');
    expect(keyPartStr(2n ** 64n, 'x')).toBe('18446744073709551616');
  });

  it('refuses integral numbers beyond the safe range, naming the field', () => {
    for (const value of [2 ** 53, -(2 ** 53), 1e16, 1.7976931348623157e308]) {
      expect(() => keyPartStr(value, 'chat_id')).toThrow(
        expect.objectContaining({ code: 'invalid_session_source' }),
      );
      expect(isSessionKeyScalar(value)).toBe(false);
    }
    expect(() => keyPartStr(2 ** 60, 'chat_id')).toThrow(expect.objectContaining({ path: 'chat_id' }));
  });
});

describe('isSessionKeyScalar', () => {
  it('accepts the scalars keyPartStr renders and nothing else', () => {
    for (const value of ['', 1.5, 2 ** 53 - 1, 1n, false, null, undefined, Number.NaN]) {
      expect(isSessionKeyScalar(value)).toBe(true);
    }
    for (const value of [{}, [], () => 0, Symbol('s')]) expect(isSessionKeyScalar(value)).toBe(false);
  });
});
