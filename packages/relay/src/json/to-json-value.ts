import type { JsonValue } from './json-value.js';

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
