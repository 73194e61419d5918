import { assertEqual } from '../../assert.js';

/**
 * Throws unless `actual` equals `expected` and every object in it lists its keys in the same order
 * (for wire objects whose key order is part of the contract, such as `SessionSource.to_dict()`).
 */
export function assertOrderedEqual(actual: unknown, expected: unknown, message: string): void {
  assertEqual(actual, expected, message);
  assertSameKeyOrder(actual, expected, message, '$');
}

function assertSameKeyOrder(actual: unknown, expected: unknown, message: string, path: string): void {
  if (Array.isArray(expected) && Array.isArray(actual)) {
    for (const [i, item] of expected.entries()) assertSameKeyOrder(actual[i], item, message, `${path}[${i}]`);
    return;
  }
  if (!isPlainObject(expected) || !isPlainObject(actual)) return;
  assertEqual(Object.keys(actual), Object.keys(expected), `${message}: key order of ${path}`);
  for (const key of Object.keys(expected)) {
    assertSameKeyOrder(actual[key], expected[key], message, `${path}.${key}`);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Uint8Array)
  );
}
