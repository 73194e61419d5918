import canonicalJsonFixture from '../../../fixtures/hearthnet/canonical-json.json' with { type: 'json' };
import { assertEqual, assertRejects } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import {
  decodeFixtureValue,
  type FixtureCase,
  readFixtureFile,
  readString,
  sinceOf,
} from '../../fixtures/fixture-file.js';
import type { ConformanceCase, ConformanceSuite } from '../../suite.js';
import { HEARTHNET_CANONICAL_JSON_SUITE_VERSION, HEARTHNET_SUITE_VERSION } from './suite-version.js';

/** The canonical JSON encoder under test. */
export interface CanonicalJsonImplementation {
  /** The canonical form of `value`, as UTF-8 bytes or as text; throws or rejects when there is none. */
  canonicalize(value: unknown): Uint8Array | string | Promise<Uint8Array | string>;
  /** The implementation's error code for a rejected value; when given, error cases check it. */
  errorCode?(error: unknown): string | undefined;
}

const FIXTURE_NAME = 'hearthnet/canonical-json.json';
const SECTION = 'HearthNet §1.2';
const fixture = readFixtureFile(canonicalJsonFixture, FIXTURE_NAME);
const utf8 = new TextEncoder();
const NON_FINITE_NUMBER = 'non_finite_number';

/**
 * HearthNet canonical JSON (the reference `canonical_json`, byte for byte) from
 * `fixtures/hearthnet/canonical-json.json`: one case per fixture case. Error cases require `canonicalize`
 * to throw or reject, and check the error code when the implementation provides `errorCode`.
 *
 * @example
 * ```ts
 * import { canonicalJson } from '@agentwire/hearthnet';
 * const report = await runSuite(canonicalJsonSuite({ canonicalize: canonicalJson }));
 * ```
 */
export function canonicalJsonSuite(
  implementation: CanonicalJsonImplementation,
): ConformanceSuite<CanonicalJsonImplementation> {
  return {
    name: 'hearthnet.canonical-json',
    version: HEARTHNET_CANONICAL_JSON_SUITE_VERSION,
    description: fixture.description,
    cases: fixture.cases.map(caseFor),
    setup: () => ({ ctx: implementation }),
  };
}

function caseFor(entry: FixtureCase, index: number): ConformanceCase<CanonicalJsonImplementation> {
  const location = `${FIXTURE_NAME} cases[${index}]`;
  const common = {
    id: `hearthnet.canonical-json.${entry.id}`,
    section: SECTION,
    since: sinceOf(entry, location, HEARTHNET_SUITE_VERSION),
  } as const;
  const input = () => decodeFixtureValue(entry['input'], `${location}.input`);
  if ('error' in entry) {
    const code = readString(entry['error'], `${location}.error`);
    return {
      ...common,
      title: `rejects ${entry.id} (${code})`,
      // The reference writes NaN and ±Infinity as (invalid) JSON and the contract is silent, so refusing
      // them is advice; a lone surrogate makes the reference raise too.
      level: code === NON_FINITE_NUMBER ? 'recommended' : 'required',
      run: async (impl) => {
        const error = await assertRejects(
          () => impl.canonicalize(input()),
          `no canonical form exists (${code})`,
        );
        if (impl.errorCode) assertEqual(impl.errorCode(error), code, 'error code');
      },
    };
  }
  if (!('expected' in entry)) throw invalidFixtureError(location, 'a case needs "expected" or "error"');
  const expected = readString(entry['expected'], `${location}.expected`);
  return {
    ...common,
    title: `canonical form of ${entry.id}`,
    level: 'required',
    run: async (impl) => {
      const actual = await impl.canonicalize(input());
      if (actual instanceof Uint8Array)
        assertEqual(actual, utf8.encode(expected), `canonical bytes (${expected})`);
      else assertEqual(actual, expected, 'canonical text');
    },
  };
}
