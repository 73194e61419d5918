import { encodeHex } from '@agentwire/internal';
import { ConformanceError } from './errors.js';

/**
 * Structural equality for fixture data: primitives by `Object.is` (so `NaN` equals `NaN` and `-0` differs
 * from `0`), bytes by content, arrays by element, plain objects by own enumerable keys regardless of order.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    return a instanceof Uint8Array && b instanceof Uint8Array && bytesEqual(a, b);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  }
  const aKeys = Object.keys(a);
  const bRecord = b as Record<string, unknown>;
  const aRecord = a as Record<string, unknown>;
  return (
    aKeys.length === Object.keys(b).length &&
    aKeys.every((key) => Object.hasOwn(b, key) && deepEqual(aRecord[key], bRecord[key]))
  );
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

const MAX_CHARS = 200;

/**
 * A short, unambiguous rendering of a value for failure messages: strings JSON-quoted, bigints with
 * `n`, bytes as `bytes(<hex>)`, `-0` kept, long output cut.
 */
export function formatValue(value: unknown): string {
  const text = render(value, new Set());
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS)}… (${text.length} chars)` : text;
}

function render(value: unknown, seen: Set<object>): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'bigint':
      return `${value}n`;
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'undefined':
    case 'boolean':
    case 'symbol':
      return String(value);
    case 'function':
      return `[function ${value.name || 'anonymous'}]`;
  }
  if (value === null) return 'null';
  const object = value as object;
  if (object instanceof Uint8Array) return `bytes(${encodeHex(object)})`;
  if (seen.has(object)) return '[circular]';
  seen.add(object);
  try {
    if (Array.isArray(object)) return `[${object.map((item) => render(item, seen)).join(', ')}]`;
    if (object instanceof Error) return `${object.name}: ${object.message}`;
    const entries = Object.entries(object).map(
      ([key, item]) => `${JSON.stringify(key)}: ${render(item, seen)}`,
    );
    return `{${entries.join(', ')}}`;
  } finally {
    seen.delete(object);
  }
}

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

/**
 * What a typed refusal must carry: its `code`, the argument or field it names (`path`) when given, and
 * the given members of its `details`.
 */
export interface ExpectedRefusal {
  readonly code: string;
  readonly path?: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

/**
 * Calls `action` and requires a typed refusal: an `Error` with a message, the `code` expected and, when
 * `expected.path` is given, that `path`. Resolves with the error.
 *
 * @example
 * ```ts
 * await assertRefuses(() => store.list(id, { fromLamport: -1 }), { code: 'invalid_lamport', path: 'fromLamport' }, 'a negative bound');
 * ```
 */
export async function assertRefuses(
  action: () => unknown,
  expected: ExpectedRefusal,
  message: string,
): Promise<Error> {
  const error = await assertRejects(action, message);
  if (!(error instanceof Error)) fail(`${message}: expected an Error, got ${formatValue(error)}`, error);
  const { code, path, details } = error as Error & {
    readonly code?: unknown;
    readonly path?: unknown;
    readonly details?: unknown;
  };
  assertTrue(error.message.trim() !== '', `${message}: the ${String(code)} refusal has an empty message`);
  assertEqual(code, expected.code, `${message}: error code`);
  if (expected.path !== undefined) assertEqual(path, expected.path, `${message}: error path`);
  for (const [key, value] of Object.entries(expected.details ?? {})) {
    const actual =
      typeof details === 'object' && details !== null ? (details as Record<string, unknown>)[key] : undefined;
    assertEqual(actual, value, `${message}: details.${key} of the error`);
  }
  return error;
}
