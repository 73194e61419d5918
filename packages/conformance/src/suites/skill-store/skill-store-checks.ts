import { parseStorageValue } from '@agentwire/agent-connector';
import { assertEqual, assertRejects, assertTrue, fail } from '../../assert.js';
import { formatValue } from '../../format-value.js';

/**
 * Calls a store method and fails the case when it rejects: names what was called and keeps the error as
 * the cause.
 */
export async function mustResolve<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const name = error instanceof Error ? `${error.name}: ${error.message}` : formatValue(error);
    return fail(`${what} threw ${name}`, error);
  }
}

/** One of the contract's zod schemas, as `parseStorageValue` takes it. */
type StorageSchema = Parameters<typeof parseStorageValue>[0];

/** Checks `value` against one of the contract's schemas; fails the case naming `what` and the broken rule. */
export function assertMatches<Schema extends StorageSchema>(
  schema: Schema,
  value: unknown,
  what: string,
): ReturnType<typeof parseStorageValue<Schema>> {
  try {
    return parseStorageValue(schema, value, what);
  } catch (error) {
    return fail(`${what} breaks the contract (${(error as Error).message}): ${formatValue(value)}`, error);
  }
}

/** How far a timestamp may be from the wall clock and still pass as plausible, in seconds. */
const PLAUSIBLE_SKEW_SECONDS = 86_400;

/**
 * Fails unless `value` is a whole number of unix seconds within a day of the wall clock: catches
 * milliseconds (a thousand times too large), zero and fractional values.
 */
export function assertUnixSeconds(value: unknown, field: string): void {
  const nowSeconds = Date.now() / 1000;
  assertTrue(
    typeof value === 'number' &&
      Number.isInteger(value) &&
      Math.abs(value - nowSeconds) <= PLAUSIBLE_SKEW_SECONDS,
    `${field} must be whole unix seconds near now (${Math.floor(nowSeconds)}), got ${formatValue(value)}`,
  );
}

/**
 * Requires `call` to reject with the named storage error. Errors are matched by `name` and `code` (and
 * `connector_type: 'skill_store'`), not by class: a store from another package has its own classes.
 */
export async function assertStoreError(
  call: () => Promise<unknown>,
  what: string,
  expected: { readonly name: string; readonly code: string },
): Promise<void> {
  const error = await assertRejects(call, `${what} must reject with ${expected.name}`);
  const fields = error as {
    readonly name?: unknown;
    readonly code?: unknown;
    readonly connector_type?: unknown;
  };
  const got = `${formatValue(fields?.name)}: ${error instanceof Error ? error.message : formatValue(error)}`;
  assertEqual(fields?.name, expected.name, `${what} rejected with ${got}; name`);
  assertEqual(fields.code, expected.code, `${what}: code of ${expected.name}`);
  assertEqual(fields.connector_type, 'skill_store', `${what}: connector_type of ${expected.name}`);
}

/** `SkillNotFoundError`, as {@link assertStoreError} matches it. */
export const SKILL_NOT_FOUND = { name: 'SkillNotFoundError', code: 'skill_not_found' } as const;
/** `SkillNotFoundError` for a version the store cannot return, as {@link assertStoreError} matches it. */
export const VERSION_NOT_FOUND = { name: 'SkillNotFoundError', code: 'version_not_found' } as const;
