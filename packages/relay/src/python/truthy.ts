import type { JsonValue } from '../json/json-value.js';

/**
 * Python's `bool(value)` for a value the gateway read from JSON: `None` (`null`, or `undefined` for
 * an absent key), `False`, `0`, `""`, `[]` and `{}` are false; everything else, `NaN` included, is
 * true. A `bigint` stands for a Python `int` beyond the double range (`0n` is false).
 *
 * @example
 * isPythonTruthy(Number.NaN); // true
 * isPythonTruthy({}); // false
 */
export function isPythonTruthy(value: JsonValue | bigint | undefined): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'bigint') return value !== 0n;
  if (typeof value === 'string') return value !== '';
  if (Array.isArray(value)) return value.length > 0;
  return Object.keys(value).length > 0;
}
