import type { JsonValue } from './json-value.js';

/** Raised by {@link toJsonValue} for a value that plain JSON data cannot hold. */
export class NotJsonValueError extends Error {
  override readonly name = 'NotJsonValueError';
  /** Dotted path of the offending value, `''` for the root. */
  readonly path: string;

  constructor(message: string, path: string) {
    super(path === '' ? message : `${message} at ${path}`);
    this.path = path;
  }
}

/**
 * Copies a decoded JSON-like value into fresh plain {@link JsonValue} data. Object properties whose
 * value is `undefined` are left out (as `JSON.stringify` does); anything else that is not JSON data
 * (`undefined` in an array, functions, symbols, bigints, class instances, cycles) is refused.
 *
 * @throws {NotJsonValueError}
 */
export function toJsonValue(value: unknown, path = '', seen: Set<object> = new Set()): JsonValue {
  if (
    value === null ||
    typeof value === 'boolean' ||
    typeof value === 'number' ||
    typeof value === 'string'
  ) {
    return value;
  }
  if (typeof value !== 'object') throw new NotJsonValueError(`${typeof value} is not JSON data`, path);
  if (seen.has(value)) throw new NotJsonValueError('cyclic value', path);
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      const items: JsonValue[] = [];
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (item === undefined) throw new NotJsonValueError('undefined is not JSON data', `${path}[${i}]`);
        items.push(toJsonValue(item, `${path}[${i}]`, seen));
      }
      return items;
    }
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      throw new NotJsonValueError('only plain objects are JSON data', path);
    }
    const result: Record<string, JsonValue> = {};
    for (const key of Object.keys(value)) {
      const item: unknown = (value as Record<string, unknown>)[key];
      if (item === undefined) continue;
      const itemPath = path === '' ? key : `${path}.${key}`;
      Object.defineProperty(result, key, {
        value: toJsonValue(item, itemPath, seen),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return result;
  } finally {
    seen.delete(value);
  }
}
