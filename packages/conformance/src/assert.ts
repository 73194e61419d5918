import { deepEqual } from './deep-equal.js';
import { ConformanceError } from './errors.js';
import { formatValue } from './format-value.js';

/**
 * Throws unless `actual` structurally equals `expected` (see `deepEqual`: bytes by content,
 * objects regardless of key order, `NaN` equal to itself, `-0` distinct from `0`).
 *
 * @example
 * ```ts
 * assertEqual(impl.blake3Hex(new Uint8Array()), 'af1349b9…', 'BLAKE3 of the empty input');
 * ```
 */
export function assertEqual(actual: unknown, expected: unknown, message?: string): void {
  if (deepEqual(actual, expected)) return;
  const detail = `expected ${formatValue(expected)}, got ${formatValue(actual)}`;
  throw new ConformanceError('assertion_failed', message ? `${message}: ${detail}` : detail, {
    details: { actual, expected },
  });
}

/** Throws unless `condition` is `true`. */
export function assertTrue(condition: boolean, message: string): asserts condition {
  if (condition !== true) {
    throw new ConformanceError('assertion_failed', message, {
      details: { actual: condition, expected: true },
    });
  }
}

/** Fails the current case. */
export function fail(message: string, cause?: unknown): never {
  throw new ConformanceError('assertion_failed', message, { cause });
}

/**
 * Calls `action` and requires it to throw or to return a promise that rejects; resolves with the error.
 *
 * @example
 * ```ts
 * const error = await assertRejects(() => impl.canonicalize(Number.NaN), 'NaN has no canonical form');
 * ```
 */
export async function assertRejects(action: () => unknown, message: string): Promise<unknown> {
  let result: unknown;
  try {
    result = await action();
  } catch (error) {
    return error;
  }
  throw new ConformanceError(
    'assertion_failed',
    `${message}: expected an error, got ${formatValue(result)}`,
    {
      details: { actual: result },
    },
  );
}
