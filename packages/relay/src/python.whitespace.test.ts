import { describe, expect, it } from 'vitest';
import { isPythonBlankLine, pythonStrip } from './python.js';

describe('pythonStrip', () => {
  it('removes what Python str.strip() removes, which differs from String.prototype.trim', () => {
    expect(
      pythonStrip(
        ' \t\n\v\f\r\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000x y\u3000 ',
      ),
    ).toBe('x y');
    expect(pythonStrip('\uFEFFx\uFEFF')).toBe('\uFEFFx\uFEFF');
    expect('\uFEFFx'.trim()).toBe('x');
    expect(pythonStrip('\u200bx')).toBe('\u200bx');
    expect(pythonStrip(' a b ')).toBe('a b');
    expect(pythonStrip('   ')).toBe('');
    expect(pythonStrip(' \n ')).toBe('');
  });
});

describe('isPythonBlankLine', () => {
  it("matches Python's str.isspace set, not JavaScript's trim", () => {
    for (const blank of [
      '',
      ' ',
      '\t\r\v\f',
      '\u001c\u001d\u001e\u001f',
      '\u0085',
      '\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000',
    ]) {
      expect(isPythonBlankLine(blank), JSON.stringify(blank)).toBe(true);
    }
    for (const content of ['\ufeff', '\u200b', 'x', ' {} ', '\u0000']) {
      expect(isPythonBlankLine(content), JSON.stringify(content)).toBe(false);
    }
  });
});
