import { describe, expect, it } from 'vitest';
import { MAX_PYTHON_JSON_NESTING, parsePythonJsonExact } from './python.js';

// The reading itself is tested with the shared reader (`@agentwire/internal`, python-json.loads.test.ts);
// here, what the relay makes of it: a Map per dict, exact ints, the gateway's limits and its
// `malformed_json` wording and offsets.
describe('parsePythonJsonExact', () => {
  it('reads dicts as maps and ints exactly, up to 4300 digits', () => {
    expect(parsePythonJsonExact('{"a": [1, 1.0, NaN]}')).toEqual(new Map([['a', [1n, 1, Number.NaN]]]));
    expect(parsePythonJsonExact(`-${'9'.repeat(4300)}`)).toBe(-(10n ** 4300n - 1n));
  });

  it.each([
    ['a leading BOM', '\ufeff{}', 'expecting value', 0],
    ['an int of 4301 digits', `[${'1'.repeat(4301)}]`, 'integer of more than 4300 digits', 1],
    ['a negative int of 4301 digits', `-${'1'.repeat(4301)}`, 'integer of more than 4300 digits', 0],
    [
      'nesting beyond the limit',
      `${'['.repeat(MAX_PYTHON_JSON_NESTING + 1)}${']'.repeat(MAX_PYTHON_JSON_NESTING + 1)}`,
      'nesting too deep',
      MAX_PYTHON_JSON_NESTING,
    ],
    ['a trailing comma', '{"a":1,}', 'expecting property name', 7],
    ['a missing comma', '[1 2]', "expecting ',' or ']'", 4],
    ['a short \\u escape', '"\\ud83d\\ude0', 'invalid \\uXXXX escape', 9],
  ])('refuses %s as json.loads does', (_, text, message, offset) => {
    const error = (() => {
      try {
        parsePythonJsonExact(text);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toMatchObject({
      name: 'RelayError',
      code: 'malformed_json',
      message: `${message} at offset ${offset}`,
      details: { offset },
    });
  });

  it('reads nesting up to the limit', () => {
    const depth = MAX_PYTHON_JSON_NESTING;
    expect(parsePythonJsonExact(`${'{"a":'.repeat(depth - 1)}[]${'}'.repeat(depth - 1)}`)).toBeInstanceOf(
      Map,
    );
  });
});
