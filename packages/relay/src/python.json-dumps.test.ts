import { describe, expect, it } from 'vitest';
import { pythonJsonDumps } from './python.js';

// The writing itself is tested with the shared writer (`@agentwire/internal`, python-json.dumps.test.ts);
// here, what the relay asks of it: Python's default separators, `undefined` left out as
// `JSON.stringify` does, and every refusal as `unencodable_frame` at the value's path.
describe('pythonJsonDumps', () => {
  it("writes json.dumps' defaults, leaving undefined members out and undefined items as null", () => {
    expect(pythonJsonDumps({ a: undefined, b: [undefined, 1.5, 'é'], c: Number.NaN })).toBe(
      '{"b": [null, 1.5, "\\u00e9"], "c": NaN}',
    );
    expect(pythonJsonDumps({ b: 'é', a: 1 }, { ensureAscii: false, sortKeys: true })).toBe(
      '{"a": 1, "b": "é"}',
    );
  });

  it.each([
    ['a bigint', { a: [1n] }, 'a bigint cannot be written as JSON at $.a[0]', '$.a[0]'],
    ['a function', { f: () => 1 }, 'a function cannot be written as JSON at $.f', '$.f'],
    [
      'a Date',
      { 'not-an-id': new Date(0) },
      'only plain objects can be written as JSON at $["not-an-id"]',
      '$["not-an-id"]',
    ],
    ['a symbol', Symbol('s'), 'a symbol cannot be written as JSON', '$'],
  ])('refuses %s with unencodable_frame at its path', (_, value, message, path) => {
    expect(() => pythonJsonDumps(value)).toThrow(
      expect.objectContaining({ name: 'RelayError', code: 'unencodable_frame', message, path }),
    );
  });

  it('refuses a frame that contains itself at the repeated value', () => {
    const loop: Record<string, unknown> = { items: [] };
    (loop.items as unknown[]).push(loop);
    expect(() => pythonJsonDumps(loop)).toThrow(
      expect.objectContaining({
        code: 'unencodable_frame',
        message: 'a frame cannot contain itself at $.items[0]',
        path: '$.items[0]',
      }),
    );
  });
});
