import type { JsonValue } from '../json/json-value.js';
import type { PythonJsonValue } from './json-exact.js';

/**
 * Python's `bool(value)` for a value the gateway read from JSON: `None` (`null`, or `undefined` for
 * an absent key), `False`, `0`, `""`, `[]` and `{}` are false; everything else, `NaN` included, is
 * true. A `bigint` stands for a Python `int` (`0n` is false), a `Map` for a `dict` as
 * `parsePythonJsonExact` reads one.
 *
 * @example
 * isPythonTruthy(Number.NaN); // true
 * isPythonTruthy({}); // false
 */
export function isPythonTruthy(value: JsonValue | PythonJsonValue | undefined): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'bigint') return value !== 0n;
  if (typeof value === 'string') return value !== '';
  if (Array.isArray(value)) return value.length > 0;
  return value instanceof Map ? value.size > 0 : Object.keys(value).length > 0;
}
