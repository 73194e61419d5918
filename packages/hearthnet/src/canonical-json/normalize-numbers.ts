import { formatGeneral } from './format-number.js';
import { sortKeysByCodePoint } from './key-order.js';
import { containerKind, Traversal, unsupportedValue } from './traversal.js';

/**
 * Returns a deep copy of a JSON value in which every number is replaced by the number its canonical
 * form reads back as, `Number(formatCanonicalNumber(n))` (`-0` → `0`, `3.141592653589793` →
 * `3.14159`); bigints are kept. Sign the copy and send the copy: what the receiver parses is then
 * exactly what was signed.
 *
 * The copy's objects keep their prototype (`Object.prototype` or `null`) and list keys in canonical
 * order. Normalising does not always keep the canonical bytes: `1234567.5` is written `1.23457e+06`,
 * but reads back as the integer `1234570`, written `1234570` — the same thing happens to the number
 * when the reference parses the payload.
 *
 * @throws {HearthNetLocalError} whatever {@link canonicalJson} throws for the same value.
 * @example
 * normalizeNumbers({ price: 0.1 + 0.2, qty: -0 }); // { price: 0.3, qty: 0 }
 */
export function normalizeNumbers<T>(value: T): T {
  return normalizeValue(value, new Traversal()) as T;
}

function normalizeValue(value: unknown, traversal: Traversal): unknown {
  switch (typeof value) {
    case 'string':
      traversal.checkString(value, 'string');
      return value;
    case 'number':
      if (Number.isInteger(value) && value < 1e16 && value > -1e16) return value === 0 ? 0 : value;
      if (!Number.isFinite(value)) throw traversal.error('non_finite_number', `${value} has no JSON form`);
      return Number(formatGeneral(value));
    case 'boolean':
    case 'bigint':
      return value;
    case 'object':
      if (value === null) return null;
      return containerKind(value, traversal) === 'array'
        ? normalizeArray(value as readonly unknown[], traversal)
        : normalizeObject(value as Readonly<Record<string, unknown>>, traversal);
    default:
      throw unsupportedValue(value, traversal);
  }
}

function normalizeArray(array: readonly unknown[], traversal: Traversal): unknown[] {
  const level = traversal.enter(array);
  const segments = traversal.segments;
  const copy = new Array<unknown>(array.length);
  for (let i = 0; i < array.length; i++) {
    segments[level] = i;
    const item = array[i];
    if (item === undefined && !(i in array)) throw unsupportedValue(item, traversal, true);
    copy[i] = normalizeValue(item, traversal);
  }
  traversal.leave();
  return copy;
}

function normalizeObject(object: Readonly<Record<string, unknown>>, traversal: Traversal): object {
  const level = traversal.enter(object);
  const segments = traversal.segments;
  const copy: Record<string, unknown> = Object.getPrototypeOf(object) === null ? Object.create(null) : {};
  const keys = sortKeysByCodePoint(Object.keys(object));
  for (const key of keys) {
    segments[level] = key;
    traversal.checkString(key, 'key');
    const item = normalizeValue(object[key], traversal);
    // An own "__proto__" key (JSON.parse makes one) must stay data, not become the prototype.
    if (key === '__proto__')
      Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[key] = item;
  }
  traversal.leave();
  return copy;
}
