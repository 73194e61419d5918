import { pythonFloatRepr } from '../python/float-repr.js';
import { type PythonJsonDict, type PythonJsonValue, pythonStr } from '../python/index.js';

// Python's operations on the values `json.loads` gave the gateway, as its interaction converter
// uses them: `isinstance(v, dict)`, `d.get(k)`, `bool(v)`, `v == n` and `str(v)`.

/** `isinstance(value, dict)`. */
export function isPythonDict(value: PythonJsonValue | undefined): value is PythonJsonDict {
  return value instanceof Map;
}

/** `dict.get(key)`: `None` (here `null`) for an absent key. */
export function pythonGet(dict: PythonJsonDict, key: string): PythonJsonValue {
  return dict.get(key) ?? null;
}

/** `value == n` for a small integer `n`: an `int`, a `float` of that value, or a `bool` (`True == 1`). */
export function equalsInteger(value: PythonJsonValue, n: number): boolean {
  if (typeof value === 'bigint') return value === BigInt(n);
  if (typeof value === 'number') return value === n;
  if (typeof value === 'boolean') return Number(value) === n;
  return false;
}

/** `str(value)`: a string as it is; everything else in `repr` form (`1.0`, `True`, `{'a': [1, None]}`). */
export function strOf(value: PythonJsonValue): string {
  return typeof value === 'string' ? value : reprOf(value);
}

function reprOf(value: PythonJsonValue): string {
  if (value === null || typeof value === 'boolean') return pythonStr(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return pythonFloatRepr(value);
  // A one-element list's repr is the element's repr in brackets: `['it\'s']` → `"it's"`.
  if (typeof value === 'string') return pythonStr([value]).slice(1, -1);
  if (Array.isArray(value)) return `[${value.map(reprOf).join(', ')}]`;
  const items = [...(value as PythonJsonDict)].map(([key, item]) => `${reprOf(key)}: ${reprOf(item)}`);
  return `{${items.join(', ')}}`;
}
