import { isCanonicalNumber } from './format-number.js';
import { sortKeysByCodePoint } from './key-order.js';
import { containerKind, Traversal, unsupportedValue } from './traversal.js';

/**
 * Lists the JSON paths of the numbers that canonical JSON does not keep as they are (see
 * {@link isCanonicalNumber}): floats with more than 6 significant digits, `-0`. A payload whose list is
 * empty reads back from its canonical bytes unchanged; a signature verified over a payload with
 * lossy numbers also covers every other payload that rounds to the same bytes.
 *
 * Paths are in canonical order: `$` is the root, `.key` or `["key"]` an object key, `[i]` an index.
 *
 * @throws {CanonicalJsonError} whatever {@link canonicalJson} throws for the same value.
 * @example
 * findLossyNumbers({ a: [1, 0.1 + 0.2], 'b-c': 2.5 }); // ['$.a[1]']
 */
export function findLossyNumbers(value: unknown): string[] {
  const paths: string[] = [];
  collectLossy(value, new Traversal(), paths);
  return paths;
}

function collectLossy(value: unknown, traversal: Traversal, paths: string[]): void {
  switch (typeof value) {
    case 'string':
      traversal.checkString(value, 'string');
      return;
    case 'number':
      if (!Number.isFinite(value)) throw traversal.error('non_finite_number', `${value} has no JSON form`);
      if (!isCanonicalNumber(value)) paths.push(traversal.path());
      return;
    case 'boolean':
    case 'bigint':
      return;
    case 'object':
      if (value === null) return;
      if (containerKind(value, traversal) === 'array')
        collectLossyInArray(value as readonly unknown[], traversal, paths);
      else collectLossyInObject(value as Readonly<Record<string, unknown>>, traversal, paths);
      return;
    default:
      throw unsupportedValue(value, traversal);
  }
}

function collectLossyInArray(array: readonly unknown[], traversal: Traversal, paths: string[]): void {
  const level = traversal.enter(array);
  const segments = traversal.segments;
  for (let i = 0; i < array.length; i++) {
    segments[level] = i;
    const item = array[i];
    if (item === undefined && !(i in array)) throw unsupportedValue(item, traversal, true);
    collectLossy(item, traversal, paths);
  }
  traversal.leave();
}

function collectLossyInObject(
  object: Readonly<Record<string, unknown>>,
  traversal: Traversal,
  paths: string[],
): void {
  const level = traversal.enter(object);
  const segments = traversal.segments;
  for (const key of sortKeysByCodePoint(Object.keys(object))) {
    segments[level] = key;
    traversal.checkString(key, 'key');
    collectLossy(object[key], traversal, paths);
  }
  traversal.leave();
}
