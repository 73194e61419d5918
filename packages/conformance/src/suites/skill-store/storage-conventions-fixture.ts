import storageConventionsFixture from '../../../fixtures/agent-connector/storage-conventions.json' with {
  type: 'json',
};
import { assertEqual, assertRejects } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import { type FixtureCase, readFixtureFile, readString } from '../../fixtures/fixture-file.js';

/** The fixture file both storage suites read: the skill-store operations and the data-store ones. */
export const STORAGE_CONVENTIONS_FIXTURE = 'agent-connector/storage-conventions.json';

/** The spec section every storage-convention case proves. */
export const STORAGE_CONVENTIONS_SECTION = 'AgentConnector v1.0 §Storage-layer conventions';

/** Operations the skill-store suite runs. */
export const SKILL_STORE_OPERATIONS = [
  'content-hash',
  'version-from-hash',
  'change-token',
  'status-header',
  'set-status',
] as const;

/** Operations the data-store suite runs. */
export const DATA_STORE_OPERATIONS = ['enforce-filters', 'bridge-query', 'bridge-write', 'summary'] as const;

/** One operation of `storage-conventions.json`. */
export type StorageOperation =
  | (typeof SKILL_STORE_OPERATIONS)[number]
  | (typeof DATA_STORE_OPERATIONS)[number];

/** The error codes a storage-convention case may expect. */
const ERROR_CODES: ReadonlySet<string> = new Set(['storage_validation', 'unsupported_filter']);

/** A case of the fixture with its operation and its `location` for error messages. */
export interface StorageConventionCase {
  readonly entry: FixtureCase;
  readonly operation: StorageOperation;
  /** Where the case sits, for `invalid_fixture` messages (`… cases[4]`). */
  readonly location: string;
  /** The error code the case expects, when it expects one. */
  readonly error: string | undefined;
}

const fixture = readFixtureFile(storageConventionsFixture, STORAGE_CONVENTIONS_FIXTURE);
const known: ReadonlySet<string> = new Set([...SKILL_STORE_OPERATIONS, ...DATA_STORE_OPERATIONS]);

/**
 * Every case of the fixture, its operation and error code checked: a case naming an operation or an
 * error code neither storage suite knows is an `invalid_fixture` error rather than a case nobody runs.
 */
const allCases: readonly StorageConventionCase[] = fixture.cases.map((entry, index) => {
  const location = `${STORAGE_CONVENTIONS_FIXTURE} cases[${index}]`;
  const operation = readString(entry['operation'], `${location}.operation`);
  if (!known.has(operation))
    throw invalidFixtureError(`${location}.operation`, `unknown operation ${operation}`);
  const error = entry['error'] === undefined ? undefined : readString(entry['error'], `${location}.error`);
  if (error !== undefined && !ERROR_CODES.has(error)) {
    throw invalidFixtureError(`${location}.error`, `unknown error code ${error}`);
  }
  return { entry, operation: operation as StorageOperation, location, error };
});

/** The fixture cases of the given operations, in file order. */
export function storageConventionCases(
  operations: readonly StorageOperation[],
): readonly StorageConventionCase[] {
  return allCases.filter((testCase) => operations.includes(testCase.operation));
}

/**
 * Requires `call` to throw (or reject) with an error whose `code` is `code`; matched by `code`, not by
 * class, so an implementation from another package qualifies.
 */
export async function assertStorageError(call: () => unknown, what: string, code: string): Promise<unknown> {
  const error = await assertRejects(call, `${what} must fail with ${code}`);
  assertEqual((error as { readonly code?: unknown } | null)?.code, code, `code of the error ${what} threw`);
  return error;
}
