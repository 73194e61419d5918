import * as z from 'zod/mini';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Formats a path of keys and indexes as a JSON path: `["action", "options", 0]` → `$.action.options[0]`. */
export function jsonPath(segments: readonly PropertyKey[]): string {
  let path = '$';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (typeof segment === 'string' && IDENTIFIER.test(segment)) path += `.${segment}`;
    else path += `[${JSON.stringify(String(segment))}]`;
  }
  return path;
}

/**
 * A value that JSON can carry. Non-finite numbers are allowed because the gateway's Python JSON reader
 * accepts `NaN`, `Infinity` and `1e400`, and keeps them.
 */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/** Containers nested deeper than this are refused (no JSON the gateway sends comes close). */
const MAX_JSON_DEPTH = 512;

/**
 * Whether `value` is plain JSON data: null, booleans, finite numbers, strings, and arrays and plain
 * objects of those, without cycles. A hand-written walk: frames are validated on every message, and a
 * recursive zod union costs several times the `JSON.parse` that produced the value.
 */
export function isJsonValue(value: unknown): value is JsonValue {
  return isJsonAt(value, 0, []);
}

function isJsonAt(value: unknown, depth: number, ancestors: object[]): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (value === null) return true;
      if (depth >= MAX_JSON_DEPTH || ancestors.includes(value)) return false;
      ancestors.push(value);
      let ok = true;
      if (Array.isArray(value)) {
        for (let i = 0; ok && i < value.length; i++) ok = isJsonAt(value[i], depth + 1, ancestors);
      } else {
        const prototype = Object.getPrototypeOf(value);
        ok = prototype === Object.prototype || prototype === null;
        const record = value as Record<string, unknown>;
        for (const key in record) {
          if (!ok) break;
          if (Object.hasOwn(record, key)) ok = isJsonAt(record[key], depth + 1, ancestors);
        }
      }
      ancestors.pop();
      return ok;
    }
    default:
      return false;
  }
}

/** Zod schema of {@link JsonValue}: plain JSON data, no `undefined`, functions, bigints or class instances. */
export const jsonValueSchema: z.ZodMiniType<JsonValue> = /* @__PURE__ */ z.custom<JsonValue>(isJsonValue, {
  error: 'expected plain JSON data (null, boolean, finite number, string, array or plain object)',
});

/** Why {@link copyJsonValue} refused a value: what is not JSON data, and where. */
export interface NotJsonValue {
  /**
   * What is wrong, ending with ` at <path>` unless it is the root (`undefined is not JSON data at items[2]`).
   */
  readonly message: string;
  /** Dotted path of the offending value (`items[2].name`), `''` for the root. */
  readonly path: string;
}

/** What {@link copyJsonValue} makes of a value: its plain JSON copy, or why there is none. */
export type JsonValueCopy =
  | { readonly ok: true; readonly value: JsonValue }
  | { readonly ok: false; readonly refusal: NotJsonValue };

/**
 * Copies a decoded JSON-like value into fresh plain {@link JsonValue} data. Object properties whose
 * value is `undefined` are left out (as `JSON.stringify` does); anything else that is not JSON data
 * (`undefined` in an array, functions, symbols, bigints, class instances, cycles) is refused: the
 * result says what and where.
 */
export function copyJsonValue(value: unknown): JsonValueCopy {
  const steps: (string | number)[] = [];
  try {
    return { ok: true, value: copyAt(value, steps, new Set()) };
  } catch (error) {
    if (!(error instanceof PendingProblem)) throw error;
    const path = joinPath('', steps);
    return {
      ok: false,
      refusal: { message: path === '' ? error.message : `${error.message} at ${path}`, path },
    };
  }
}

/**
 * {@link copyJsonValue}, throwing what `refuse` makes of a refusal (each caller refuses with its own
 * `RelayError` code).
 */
export function toJsonValue(value: unknown, refuse: (refusal: NotJsonValue) => Error): JsonValue {
  const copy = copyJsonValue(value);
  if (!copy.ok) throw refuse(copy.refusal);
  return copy.value;
}

/** A refusal on its way up; the path is joined only once, when it reaches {@link toJsonValue}. */
class PendingProblem {
  constructor(readonly message: string) {}
}

/** Copies `value`; on a refusal `steps` is left holding the keys and indexes down to the culprit. */
function copyAt(value: unknown, steps: (string | number)[], seen: Set<object>): JsonValue {
  if (
    value === null ||
    typeof value === 'boolean' ||
    typeof value === 'number' ||
    typeof value === 'string'
  ) {
    return value;
  }
  if (typeof value !== 'object') throw new PendingProblem(`${typeof value} is not JSON data`);
  if (seen.has(value)) throw new PendingProblem('cyclic value');
  seen.add(value);
  if (Array.isArray(value)) {
    const items: JsonValue[] = [];
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      steps.push(i);
      if (item === undefined) throw new PendingProblem('undefined is not JSON data');
      items.push(copyAt(item, steps, seen));
      steps.pop();
    }
    seen.delete(value);
    return items;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null)
    throw new PendingProblem('only plain objects are JSON data');
  const result: Record<string, JsonValue> = {};
  for (const key of Object.keys(value)) {
    const item: unknown = (value as Record<string, unknown>)[key];
    if (item === undefined) continue;
    steps.push(key);
    const copy = copyAt(item, steps, seen);
    steps.pop();
    // Plain assignment would set the prototype for "__proto__" instead of an own key.
    if (key === '__proto__') {
      Object.defineProperty(result, key, {
        value: copy,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else result[key] = copy;
  }
  seen.delete(value);
  return result;
}

function joinPath(base: string, steps: readonly (string | number)[]): string {
  let path = base;
  for (const step of steps) {
    if (typeof step === 'number') path = `${path}[${step}]`;
    else path = path === '' ? step : `${path}.${step}`;
  }
  return path;
}
