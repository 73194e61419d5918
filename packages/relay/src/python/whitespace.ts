// Python's notion of whitespace, which the gateway's `str.strip()` and `not line.strip()` use (and
// `int()`, less U+001C–U+001F). It is not JavaScript's: U+001C–U+001F and U+0085 are whitespace
// here, U+FEFF is not.

/**
 * Regular-expression character class of Python's `str.isspace()` characters (Unicode 15), for
 * building patterns; valid with and without the `u` flag.
 */
export const PYTHON_WHITESPACE_CLASS =
  '[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';

/**
 * The whitespace Python's `int(str)` skips around the digits: `str.isspace()` without U+001C–U+001F.
 * CPython keeps every ASCII character of the text as it is and then skips only C `isspace()`
 * characters, so the four ASCII information separators make `int()` raise `ValueError`.
 */
export const PYTHON_INT_WHITESPACE_CLASS =
  '[\\t\\n\\v\\f\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';

const LEADING = new RegExp(`^${PYTHON_WHITESPACE_CLASS}+`);
const TRAILING = new RegExp(`${PYTHON_WHITESPACE_CLASS}+$`);
const BLANK = new RegExp(`^${PYTHON_WHITESPACE_CLASS}*$`);

/** Python's `text.strip()` with no argument. */
export function pythonStrip(text: string): string {
  return text.replace(LEADING, '').replace(TRAILING, '');
}

/** Python's `not line.strip()`: whether the line is empty or Python whitespace only. */
export function isPythonBlankLine(line: string): boolean {
  return BLANK.test(line);
}
