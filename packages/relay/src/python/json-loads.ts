import type { JsonValue } from '../json/json-value.js';
import { MAX_PYTHON_JSON_NESTING, type PythonJsonValue, parsePythonJsonExact } from './json-exact.js';

/**
 * Reads JSON text the way Python's `json.loads` does: standard JSON plus the bare tokens `NaN`,
 * `Infinity` and `-Infinity`; duplicate keys keep the last value. Integers read as numbers: beyond the
 * double range as ±Infinity (Python keeps them exact). `JSON.parse` reads what it can; the rest, and
 * any value that may pass one of Python's limits, goes through {@link parsePythonJsonExact}.
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
    return asJsonValue(parsePythonJsonExact(text));
  }
  // JSON.parse knows neither of Python's limits. An integer of more than 4300 digits reads as ±Infinity,
  // so a value holding ±Infinity, or nested too deep, is read again by the exact reader, which raises as
  // json.loads does (and accepts a float such as 1e400).
  if (mayPassPythonLimits(value, 0)) parsePythonJsonExact(text);
  return value;
}

function mayPassPythonLimits(value: JsonValue, depth: number): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (value === null || typeof value !== 'object') return false;
  if (depth === MAX_PYTHON_JSON_NESTING) return true;
  return Object.values(value).some((item) => mayPassPythonLimits(item, depth + 1));
}

/** An exact value as plain JSON: a dict as an object with own keys (`__proto__` too), an int as a number. */
function asJsonValue(value: PythonJsonValue): JsonValue {
  if (typeof value === 'bigint') return Number(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(asJsonValue);
  const result: Record<string, JsonValue> = {};
  for (const [key, item] of value as ReadonlyMap<string, PythonJsonValue>) {
    Object.defineProperty(result, key, {
      value: asJsonValue(item),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return result;
}
