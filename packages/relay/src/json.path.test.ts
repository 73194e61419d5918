import { describe, expect, it } from 'vitest';
import { jsonPath } from './json.js';

describe('jsonPath', () => {
  it('writes identifiers as .key, indexes as [i] and other keys as quoted JSON strings', () => {
    expect(jsonPath([])).toBe('$');
    expect(jsonPath(['action', 'options', 0])).toBe('$.action.options[0]');
    expect(jsonPath(['content-type', '', 'a"b'])).toBe('$["content-type"][""]["a\\"b"]');
    expect(jsonPath([Symbol('s')])).toBe('$["Symbol(s)"]');
  });
});
