import { describe, expect, it } from 'vitest';
import { rstripChar } from './python.js';

describe('rstripChar', () => {
  it('removes every trailing copy of one character', () => {
    expect(rstripChar('a///', '/')).toBe('a');
    expect(rstripChar('/a/b', '/')).toBe('/a/b');
    expect(rstripChar('///', '/')).toBe('');
  });
});
