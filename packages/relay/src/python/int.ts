import type { JsonValue } from '../json/json-value.js';
import { PYTHON_INT_WHITESPACE_CLASS } from './whitespace.js';

/**
 * What Python's `int(value)` does with a JSON value, reduced to what descriptor parsing needs: the
 * sign of the result, or which exception it raises.
 */
export type PythonIntOutcome =
  | { readonly kind: 'int'; readonly sign: -1 | 0 | 1 }
  /** `TypeError` or `ValueError`: the gateway catches both. */
  | { readonly kind: 'invalid' }
  /** `OverflowError` (an infinite float): the gateway does not catch it. */
  | { readonly kind: 'overflow' };

/**
 * Python whitespace around (`int()` skips it, U+001C–U+001F excepted), a sign, then decimal digits
 * (any Unicode `Nd`, as Python accepts) with single `_` between them.
 */
const PYTHON_INT_TEXT = new RegExp(
  `^${PYTHON_INT_WHITESPACE_CLASS}*([+-]?)(\\p{Nd}+(?:_\\p{Nd}+)*)${PYTHON_INT_WHITESPACE_CLASS}*$`,
  'u',
);
const ZERO_DIGITS = /^[\p{Nd}_]*$/u;
/** CPython's default `sys.get_int_max_str_digits()`: longer decimal strings raise `ValueError`. */
const MAX_STR_DIGITS = 4300;

const INVALID: PythonIntOutcome = { kind: 'invalid' };
const OVERFLOW: PythonIntOutcome = { kind: 'overflow' };

/** Evaluates Python's `int(value)` on a JSON value as far as its sign. */
export function pythonIntOf(value: JsonValue): PythonIntOutcome {
  if (typeof value === 'boolean') return { kind: 'int', sign: value ? 1 : 0 };
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return INVALID;
    if (!Number.isFinite(value)) return OVERFLOW;
    return { kind: 'int', sign: signOf(Math.trunc(value)) };
  }
  if (typeof value === 'string') return pythonIntOfText(value);
  return INVALID;
}

function pythonIntOfText(text: string): PythonIntOutcome {
  const match = PYTHON_INT_TEXT.exec(text);
  if (match === null) return INVALID;
  const sign = match[1] ?? '';
  const digits = match[2] ?? '';
  if (digits.replaceAll('_', '').length > MAX_STR_DIGITS) return INVALID;
  if (isAllZero(digits)) return { kind: 'int', sign: 0 };
  return { kind: 'int', sign: sign === '-' ? -1 : 1 };
}

function isAllZero(digits: string): boolean {
  if (!ZERO_DIGITS.test(digits)) return false;
  for (const ch of digits) {
    if (ch !== '_' && decimalValue(ch) !== 0) return false;
  }
  return true;
}

/**
 * The decimal value of a Unicode `Nd` character. `Nd` characters come in runs of whole blocks of ten,
 * each block starting at its zero, so the offset from the start of the run, modulo ten, is the value.
 */
function decimalValue(ch: string): number {
  const code = ch.codePointAt(0) ?? 0;
  let runStart = code;
  while (/\p{Nd}/u.test(String.fromCodePoint(runStart - 1))) runStart--;
  return (code - runStart) % 10;
}

function signOf(n: number): -1 | 0 | 1 {
  if (n > 0) return 1;
  if (n < 0) return -1;
  return 0;
}
