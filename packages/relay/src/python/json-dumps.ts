import { FrameEncodeError } from '../frames/errors.js';
import { jsonPath } from '../json/json-path.js';
import { pythonFloatRepr } from './float-repr.js';

/**
 * Writes a JSON value the way Python's `json.dumps(value)` does with its defaults, which is how the
 * gateway writes every frame: separators `", "` and `": "`, `ensure_ascii` (everything outside
 * U+0020–U+007E as lowercase `\uXXXX`, astral characters as surrogate pairs), keys in insertion
 * order, `NaN`/`Infinity`/`-Infinity` literals. JavaScript has one number type, so an integral number
 * is written as a Python `int` (`3`, not `3.0`) and any other as Python's float `repr` (`1e-05`).
 *
 * @throws {FrameEncodeError} a bigint, function, symbol, cycle or non-plain object.
 */
export function pythonJsonDumps(value: unknown): string {
  return write(value, [], new Set());
}

function write(value: unknown, path: PropertyKey[], ancestors: Set<object>): string {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return pythonJsonNumber(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      return writeContainer(value, path, ancestors);
    default:
      throw new FrameEncodeError(`a ${typeof value} cannot be written as JSON`, jsonPath(path));
  }
}

function writeContainer(value: object, path: PropertyKey[], ancestors: Set<object>): string {
  if (ancestors.has(value)) throw new FrameEncodeError('a frame cannot contain itself', jsonPath(path));
  ancestors.add(value);
  let text: string;
  if (Array.isArray(value)) {
    const items: string[] = [];
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      items.push(item === undefined ? 'null' : write(item, [...path, i], ancestors));
    }
    text = `[${items.join(', ')}]`;
  } else {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      throw new FrameEncodeError('only plain objects can be written as JSON', jsonPath(path));
    }
    const members: string[] = [];
    for (const [key, member] of Object.entries(value)) {
      if (member === undefined) continue;
      members.push(`${quote(key)}: ${write(member, [...path, key], ancestors)}`);
    }
    text = `{${members.join(', ')}}`;
  }
  ancestors.delete(value);
  return text;
}

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

/**
 * A number as `json.dumps` writes it: `NaN`, `Infinity`, `-Infinity`; an integral number as a Python
 * `int`; any other as the float `repr`.
 */
export function pythonJsonNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return 'Infinity';
  if (value === Number.NEGATIVE_INFINITY) return '-Infinity';
  if (Number.isInteger(value)) return BigInt(value).toString();
  return pythonFloatRepr(value);
}
