import {
  dumpPythonJson,
  type PythonJsonParseOptions,
  PythonJsonSyntaxError,
  type PythonJsonSyntaxReason,
  PythonJsonUnencodableError,
  parsePythonJson as readPythonJson,
} from '@agentwire/internal';
import { frameError, RelayError } from './errors.js';

import { type JsonValue, jsonPath } from './json.js';

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

const LEADING = /* @__PURE__ */ new RegExp(`^${PYTHON_WHITESPACE_CLASS}+`);
const TRAILING = /* @__PURE__ */ new RegExp(`${PYTHON_WHITESPACE_CLASS}+$`);
const BLANK = /* @__PURE__ */ new RegExp(`^${PYTHON_WHITESPACE_CLASS}*$`);

/** Python's `text.strip()` with no argument. */
export function pythonStrip(text: string): string {
  return text.replace(LEADING, '').replace(TRAILING, '');
}

/** Python's `not line.strip()`: whether the line is empty or Python whitespace only. */
export function isPythonBlankLine(line: string): boolean {
  return BLANK.test(line);
}

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
const PYTHON_INT_TEXT = /* @__PURE__ */ new RegExp(
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

/** The `json.dumps` keyword arguments {@link pythonJsonDumps} can mirror besides the defaults. */
export interface PythonJsonDumpsOptions {
  /** `ensure_ascii` (default `true`): `false` writes non-ASCII characters and U+007F as they are. */
  readonly ensureAscii?: boolean;
  /** `sort_keys` (default `false`): object keys in code-point order instead of insertion order. */
  readonly sortKeys?: boolean;
}

/**
 * Writes a JSON value the way Python's `json.dumps(value)` does with its defaults, which is how the
 * gateway writes every frame: separators `", "` and `": "`, `ensure_ascii` (everything outside
 * U+0020–U+007E as lowercase `\uXXXX`, astral characters as surrogate pairs), keys in insertion
 * order, `NaN`/`Infinity`/`-Infinity` literals. JavaScript has one number type, so an integral number
 * is written as a Python `int` (`3`, not `3.0`) and any other as Python's float `repr` (`1e-05`).
 * An `undefined` member is left out and an `undefined` item written as `null`, as `JSON.stringify`
 * does. `options` mirror `ensure_ascii=False` (only `"`, `\` and C0 controls escaped) and
 * `sort_keys=True`.
 *
 * @throws {RelayError} `unencodable_frame`: a bigint, function, symbol, cycle or non-plain object.
 */
export function pythonJsonDumps(value: unknown, options: PythonJsonDumpsOptions = {}): string {
  try {
    return dumpPythonJson(value, {
      ensureAscii: options.ensureAscii !== false,
      sortKeys: options.sortKeys === true,
      bigints: 'refuse',
      undefinedValues: 'skip',
    });
  } catch (error) {
    if (error instanceof PythonJsonUnencodableError) throw unencodableFrameError(error);
    throw error;
  }
}

/** The relay's `unencodable_frame` for what the writer refused, at the refused value's path. */
function unencodableFrameError(error: PythonJsonUnencodableError): RelayError {
  const path = jsonPath(error.path);
  const options = { cause: error };
  switch (error.reason) {
    case 'cycle':
      return frameError('unencodable_frame', 'a frame cannot contain itself', path, options);
    case 'non_plain_object':
      return frameError('unencodable_frame', 'only plain objects can be written as JSON', path, options);
    default:
      return frameError(
        'unencodable_frame',
        `a ${typeof error.value} cannot be written as JSON`,
        path,
        options,
      );
  }
}

// Python's `json.loads`, keeping what the gateway's later `str()` and `==` can tell apart and
// JavaScript's `JSON.parse` loses: an `int` (exact, as a `bigint`) from a `float` (`1.0` is not `1`),
// and a dict's key order (JavaScript objects put integer-like keys first).

/**
 * A value as Python's `json.loads` returns it: `bigint` is an `int`, `number` a `float` (`NaN`,
 * `Infinity` and `1e400` included), a `Map` a `dict` in insertion order.
 */
export type PythonJsonValue =
  | null
  | boolean
  | string
  | bigint
  | number
  | readonly PythonJsonValue[]
  | PythonJsonDict;

/** A JSON object as a Python `dict`: string keys in first-insertion order, a repeated key's last value. */
export type PythonJsonDict = ReadonlyMap<string, PythonJsonValue>;

/**
 * Containers nested deeper than this are not read. Python's reader raises `RecursionError` near its
 * recursion limit (1000 frames, less the depth it is called at); no gateway input comes close.
 */
export const MAX_PYTHON_JSON_NESTING = 900;

/**
 * Python refuses to convert an integer of more digits than this (`sys.get_int_max_str_digits()`);
 * docs/decisions.md says why the relay keeps the limit.
 */
const MAX_PYTHON_INT_DIGITS = 4300;

/** The gateway's `json.loads` limits, which fixtures show its answers depend on (docs/decisions.md). */
const GATEWAY_LIMITS = {
  maxIntegerDigits: MAX_PYTHON_INT_DIGITS,
  maxDepth: MAX_PYTHON_JSON_NESTING,
} as const;

/** How the relay words each refusal of the reader in its `malformed_json` message. */
const SYNTAX_MESSAGES: Readonly<Record<PythonJsonSyntaxReason, string>> = {
  expected_value: 'expecting value',
  invalid_number: 'expecting value',
  extra_data: 'extra data',
  expected_key: 'expecting property name',
  expected_colon: "expecting ':'",
  expected_object_delimiter: "expecting ',' or '}'",
  expected_array_delimiter: "expecting ',' or ']'",
  unterminated_string: 'unterminated string',
  control_character: 'invalid control character',
  invalid_escape: 'invalid escape',
  invalid_unicode_escape: 'invalid \\uXXXX escape',
  integer_too_long: `integer of more than ${MAX_PYTHON_INT_DIGITS} digits`,
  // Only with non-finite numbers refused, which the gateway's reader never does.
  float_out_of_range: 'float out of range',
  nesting_too_deep: 'nesting too deep',
};

/**
 * Reads JSON text exactly as Python's `json.loads` does: standard JSON plus the bare tokens `NaN`,
 * `Infinity` and `-Infinity`; integers exact, duplicate keys keeping their first place and last value.
 *
 * @throws {RelayError} `malformed_json` (`details.offset`: where) for anything `json.loads` raises on: syntax
 * (a leading BOM included), an integer of more than {@link MAX_PYTHON_INT_DIGITS} digits, nesting beyond
 * {@link MAX_PYTHON_JSON_NESTING}.
 */
export function parsePythonJsonExact(text: string): PythonJsonValue {
  return readGatewayJson(text, { dicts: 'map', integers: 'bigint' }) as PythonJsonValue;
}

/** The shared reader with the gateway's limits; its refusal as the relay's `malformed_json`. */
function readGatewayJson(text: string, options: PythonJsonParseOptions): unknown {
  try {
    return readPythonJson(text, { ...options, ...GATEWAY_LIMITS });
  } catch (error) {
    if (error instanceof PythonJsonSyntaxError) throw malformedJsonError(error);
    throw error;
  }
}

/**
 * `malformed_json`: text `json.loads` refuses, at UTF-16 offset `details.offset`. After an object
 * member or an array item the relay has always reported the offset just past the character it found
 * instead of a delimiter (tests and callers pin it), so those two add one to the reader's offset.
 */
function malformedJsonError(error: PythonJsonSyntaxError): RelayError {
  const pastFound =
    error.reason === 'expected_object_delimiter' || error.reason === 'expected_array_delimiter';
  const offset = pastFound ? error.offset + 1 : error.offset;
  return new RelayError('malformed_json', `${SYNTAX_MESSAGES[error.reason]} at offset ${offset}`, {
    details: { offset },
    cause: error,
  });
}

/**
 * Reads JSON text the way Python's `json.loads` does: standard JSON plus the bare tokens `NaN`,
 * `Infinity` and `-Infinity`; duplicate keys keep the last value. Integers read as numbers: beyond the
 * double range as ±Infinity (Python keeps them exact). `JSON.parse` reads what it can; the rest, and
 * any value that may pass one of Python's limits, goes through the Python reader.
 *
 * @throws {RelayError} `malformed_json` (`details.offset`: where) for anything `json.loads` raises
 *   on: syntax (a leading BOM included), an integer of more than 4300 digits, nesting beyond
 *   {@link MAX_PYTHON_JSON_NESTING}.
 * @example
 * parsePythonJson('{"a": NaN, "a": 1e400}'); // { a: Infinity }
 */
export function parsePythonJson(text: string): JsonValue {
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    return readGatewayJson(text, { dicts: 'object', integers: 'number' }) as JsonValue;
  }
  // JSON.parse knows neither of Python's limits. An integer of more than 4300 digits reads as ±Infinity,
  // so a value holding ±Infinity, or nested too deep, is read again by the Python reader, which raises as
  // json.loads does (and accepts a float such as 1e400).
  if (mayPassPythonLimits(value, 0)) readGatewayJson(text, { dicts: 'object', integers: 'number' });
  return value;
}

function mayPassPythonLimits(value: JsonValue, depth: number): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (value === null || typeof value !== 'object') return false;
  if (depth === MAX_PYTHON_JSON_NESTING) return true;
  return Object.values(value).some((item) => mayPassPythonLimits(item, depth + 1));
}

/** Python's `text.rstrip(char)` for a single character: every trailing copy of `char` removed. */
export function rstripChar(text: string, char: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === char) end--;
  return text.slice(0, end);
}
