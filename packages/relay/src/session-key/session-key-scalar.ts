import { RelayError } from '../errors.js';
import type { JsonValue } from '../json/index.js';
import { pythonStr } from '../python/index.js';

/**
 * A value a source field can hold once the gateway has read it from JSON. `undefined` (absent)
 * behaves like `null` (Python `None`). A `number` stands for a Python `int` when it is an integer and
 * for a Python `float` otherwise; use `bigint` for integers beyond ±(2^53 − 1).
 */
export type SessionKeyScalar = string | number | bigint | boolean | null | undefined;

/** True for the values {@link keyPartStr} can render; the check callers run on untrusted input. */
export function isSessionKeyScalar(value: unknown): value is SessionKeyScalar {
  switch (typeof value) {
    case 'string':
    case 'bigint':
    case 'boolean':
    case 'undefined':
      return true;
    case 'number':
      return !Number.isInteger(value) || Number.isSafeInteger(value);
    default:
      return value === null;
  }
}

/**
 * What a source field the key reads can hold: a {@link SessionKeyScalar}, or JSON data (an array or
 * object, which the gateway renders with Python's `str()`, e.g. `['9001']`).
 */
export type SessionKeyValue = SessionKeyScalar | JsonValue;

/**
 * Python's `str()` of a source field, as the gateway's `":".join(str(part) ...)` renders it (arrays and
 * objects in `repr` form: `{'a': 1}`).
 *
 * @throws {RelayError} `invalid_session_source`: for an integral `number` beyond ±(2^53 − 1), also inside an
 * array or object: JavaScript cannot tell which Python `int` (or whether a `float` such as `1e+16`) it
 * came from.
 */
export function keyPartStr(value: SessionKeyValue, path: string): string {
  if (holdsUnsafeInteger(value)) {
    throw new RelayError(
      'invalid_session_source',
      `${path} is or holds an integral number beyond the safe integer range: pass a bigint or a string`,
      { path },
    );
  }
  return pythonStr(value);
}

function holdsUnsafeInteger(value: SessionKeyValue): boolean {
  if (typeof value === 'number') return Number.isInteger(value) && !Number.isSafeInteger(value);
  if (typeof value !== 'object' || value === null) return false;
  const members: readonly JsonValue[] = Array.isArray(value) ? value : Object.values(value);
  return members.some(holdsUnsafeInteger);
}
