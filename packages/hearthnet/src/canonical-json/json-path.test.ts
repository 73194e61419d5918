import { describe, expect, it } from 'vitest';
import { formatJsonPath } from './strict-json.js';

describe('formatJsonPath', () => {
  it('writes the root as $', () => {
    expect(formatJsonPath([])).toBe('$');
  });

  it('uses .key for identifier-like keys and [i] for indexes', () => {
    expect(formatJsonPath(['a', 3, 'b'])).toBe('$.a[3].b');
    expect(formatJsonPath(['_x', '$y', 'z9'])).toBe('$._x.$y.z9');
  });

  it('quotes every other key as a JSON string', () => {
    expect(formatJsonPath(['content-type', '', '9lives', 'a b', 'é', 'q"\\', '3'])).toBe(
      '$["content-type"][""]["9lives"]["a b"]["é"]["q\\"\\\\"]["3"]',
    );
  });

  it('writes only the first count segments', () => {
    expect(formatJsonPath(['a', 0, 'b'], 2)).toBe('$.a[0]');
  });
});
