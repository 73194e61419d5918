import { frameError } from '../frames/errors.js';
import { jsonPath } from '../json/json-path.js';
import { pythonFloatRepr } from './float-repr.js';

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
 * `options` mirror `ensure_ascii=False` (only `"`, `\` and C0 controls escaped) and `sort_keys=True`.
 *
 * @throws {RelayError} `unencodable_frame`: a bigint, function, symbol, cycle or non-plain object.
 */
export function pythonJsonDumps(value: unknown, options: PythonJsonDumpsOptions = {}): string {
  const style: Style = {
    quote: options.ensureAscii === false ? quoteUnicode : quote,
    sortKeys: options.sortKeys === true,
  };
  return write(value, [], new Set(), style);
}

/** How {@link write} quotes strings and orders keys. */
interface Style {
  readonly quote: (text: string) => string;
  readonly sortKeys: boolean;
}

/**
 * `path` is the key path of `value`, pushed and popped in place as the writer descends (it is only
 * read to name the place of an error).
 */
function write(value: unknown, path: PropertyKey[], ancestors: Set<object>, style: Style): string {
  switch (typeof value) {
    case 'string':
      return style.quote(value);
    case 'number':
      return pythonJsonNumber(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      return writeContainer(value, path, ancestors, style);
    default:
      throw frameError('unencodable_frame', `a ${typeof value} cannot be written as JSON`, jsonPath(path));
  }
}

function writeContainer(value: object, path: PropertyKey[], ancestors: Set<object>, style: Style): string {
  if (ancestors.has(value))
    throw frameError('unencodable_frame', 'a frame cannot contain itself', jsonPath(path));
  ancestors.add(value);
  let text: string;
  if (Array.isArray(value)) {
    text = '[';
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (i > 0) text += ', ';
      if (item === undefined) text += 'null';
      else {
        path.push(i);
        text += write(item, path, ancestors, style);
        path.pop();
      }
    }
    text += ']';
  } else {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      throw frameError('unencodable_frame', 'only plain objects can be written as JSON', jsonPath(path));
    }
    text = '{';
    let first = true;
    const keys = Object.keys(value);
    if (style.sortKeys) keys.sort(compareCodePoints);
    for (const key of keys) {
      const member: unknown = (value as Record<string, unknown>)[key];
      if (member === undefined) continue;
      if (!first) text += ', ';
      first = false;
      path.push(key);
      text += `${style.quote(key)}: ${write(member, path, ancestors, style)}`;
      path.pop();
    }
    text += '}';
  }
  ancestors.delete(value);
  return text;
}

/** Printable ASCII without `"` and `\`: written as it is. */
const VERBATIM = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

const SHORT_ESCAPES: Readonly<Record<number, string>> = {
  34: '\\"',
  92: '\\\\',
  10: '\\n',
  13: '\\r',
  9: '\\t',
  8: '\\b',
  12: '\\f',
};

function quote(text: string): string {
  if (VERBATIM.test(text)) return `"${text}"`;
  let out = '"';
  let runStart = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x20 && unit <= 0x7e && unit !== 0x22 && unit !== 0x5c) continue;
    out += text.slice(runStart, i);
    out += SHORT_ESCAPES[unit] ?? `\\u${unit.toString(16).padStart(4, '0')}`;
    runStart = i + 1;
  }
  return `${out}${text.slice(runStart)}"`;
}

/** `ensure_ascii=False`: only `"`, `\` and the C0 controls are escaped (Python's `ESCAPE` set). */
function quoteUnicode(text: string): string {
  let out = '"';
  let runStart = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x20 && unit !== 0x22 && unit !== 0x5c) continue;
    out += text.slice(runStart, i);
    out += SHORT_ESCAPES[unit] ?? `\\u${unit.toString(16).padStart(4, '0')}`;
    runStart = i + 1;
  }
  return `${out}${text.slice(runStart)}"`;
}

/** Python's `str` ordering: by code point (JavaScript's default sort compares UTF-16 code units). */
function compareCodePoints(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const difference = left[i]!.codePointAt(0)! - right[i]!.codePointAt(0)!;
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

/**
 * A number as `json.dumps` writes it: `NaN`, `Infinity`, `-Infinity`; an integral number as a Python
 * `int`; any other as the float `repr`.
 */
export function pythonJsonNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return 'Infinity';
  if (value === Number.NEGATIVE_INFINITY) return '-Infinity';
  if (Number.isSafeInteger(value)) return String(value);
  if (Number.isInteger(value)) return BigInt(value).toString();
  return pythonFloatRepr(value);
}
