import { formatJsonPath } from '../canonical-json/json-path.js';
import { compareByCodePoint } from '../canonical-json/key-order.js';
import { HearthNetLocalError } from '../errors.js';
import { PythonFloat, pythonFloatRepr } from './python-float.js';

/** Options of {@link pythonAsciiJson}. */
export interface PythonAsciiJsonOptions {
  /** Sort object keys by code point at every level (`sort_keys=True`); otherwise keep insertion order. */
  readonly sortKeys: boolean;
}

const SHORT_ESCAPES: { readonly [char: string]: string } = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
};

/**
 * Python's `json.dumps(value, ensure_ascii=True, separators=(",", ":"))`, with `sort_keys` as asked:
 * every character outside U+0020–U+007E is a lower-case `\uXXXX` escape (astral characters as
 * surrogate pairs), floats use Python's `repr` ({@link pythonFloatRepr}). This is the reference's
 * event and snapshot signing form ("B-form", with sorted keys) and its invite blob form (insertion
 * order).
 *
 * Numbers: an integral `number` or a `bigint` is a Python `int` (plain digits), any other `number`
 * and a {@link PythonFloat} a Python `float`. Python would write non-finite floats as `NaN` or
 * `Infinity`, which is not JSON; they are refused here.
 *
 * @throws {HearthNetLocalError} `python_json_unencodable` for non-finite numbers, cycles and values JSON
 *   cannot carry.
 * @example
 * pythonAsciiJson({ b: 'é', a: 0.5 }, { sortKeys: true }); // '{"a":0.5,"b":"\\u00e9"}'
 */
export function pythonAsciiJson(value: unknown, options: PythonAsciiJsonOptions): string {
  const parts: string[] = [];
  write(value, options.sortKeys, [], new Set(), parts);
  return parts.join('');
}

/** The string literal Python's `json.dumps(text, ensure_ascii=True)` writes, quotes included. */
export function pythonAsciiString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const char = text.charAt(i);
    const unit = text.charCodeAt(i);
    const short = SHORT_ESCAPES[char];
    if (short !== undefined) out += short;
    else if (unit < 0x20 || unit > 0x7e) out += `\\u${unit.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return `${out}"`;
}

function write(
  value: unknown,
  sortKeys: boolean,
  path: (string | number)[],
  ancestors: Set<object>,
  parts: string[],
): void {
  if (value === null) parts.push('null');
  else if (value === true) parts.push('true');
  else if (value === false) parts.push('false');
  else if (typeof value === 'string') parts.push(pythonAsciiString(value));
  else if (typeof value === 'bigint') parts.push(value.toString());
  else if (typeof value === 'number') parts.push(numberText(value, false, path));
  else if (value instanceof PythonFloat) parts.push(numberText(value.value, true, path));
  else if (Array.isArray(value)) {
    enter(value, path, ancestors);
    parts.push('[');
    // Plain loops, not callbacks: one stack frame per nesting level (reference JSON nests up to 1000 deep).
    for (let index = 0; index < value.length; index++) {
      if (index > 0) parts.push(',');
      path.push(index);
      write(value[index], sortKeys, path, ancestors, parts);
      path.pop();
    }
    parts.push(']');
    ancestors.delete(value);
  } else if (isPlainObject(value)) {
    enter(value, path, ancestors);
    const keys = Object.keys(value);
    if (sortKeys) keys.sort(compareByCodePoint);
    parts.push('{');
    for (const [index, key] of keys.entries()) {
      if (index > 0) parts.push(',');
      parts.push(pythonAsciiString(key), ':');
      path.push(key);
      write(value[key], sortKeys, path, ancestors, parts);
      path.pop();
    }
    parts.push('}');
    ancestors.delete(value);
  } else {
    throw unencodable(path, `a ${describe(value)} has no JSON form`);
  }
}

function numberText(value: number, float: boolean, path: (string | number)[]): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw unencodable(path, `${String(value)} is not a finite number`);
  }
  if (!float && Number.isInteger(value)) return BigInt(value).toString();
  return pythonFloatRepr(value);
}

function enter(value: object, path: (string | number)[], ancestors: Set<object>): void {
  if (ancestors.has(value)) throw unencodable(path, 'the value contains itself');
  ancestors.add(value);
}

function isPlainObject(value: unknown): value is { readonly [key: string]: unknown } {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function describe(value: unknown): string {
  if (typeof value === 'object' && value !== null) return value.constructor?.name ?? 'object';
  return typeof value;
}

/** The `python_json_unencodable` error at `path`: its message starts with the JSON path. */
function unencodable(path: readonly (string | number)[], message: string): HearthNetLocalError {
  const at = formatJsonPath(path);
  return new HearthNetLocalError('python_json_unencodable', `${at}: ${message}`, { path: at });
}
