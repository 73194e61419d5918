import fromDictFixture from '../../../fixtures/relay/session-source-from-dict.json' with { type: 'json' };
import { assertEqual, assertRejects } from '../../assert.js';
import { type FixtureCase, readFixtureFile } from '../../fixtures/fixture-file.js';
import { readObject, readString } from '../../fixtures/read-fields.js';
import type { ConformanceCase } from '../../suite.js';
import { assertOrderedEqual } from './assert-key-order.js';

/** The SessionSource persistence reader a relay codec may offer. */
export interface SessionSourceFromDictImplementation {
  /**
   * The SessionSource the gateway's `SessionSource.from_dict()` reads from a stored object; throws or
   * rejects where `from_dict` raises. With `sessionSourceToWire` (its `to_dict()`), capability
   * `session-source-from-dict`.
   */
  sessionSourceFromDict?(value: unknown): unknown;
  sessionSourceToWire?(source: Readonly<Record<string, unknown>>): unknown;
  /** The implementation's error code for a refused input; when given, error cases check it. */
  errorCode?(error: unknown): string | undefined;
}

/** The suite version that added these cases. */
export const SESSION_SOURCE_FROM_DICT_SINCE = '1.1.0';

const FIXTURE_NAME = 'relay/session-source-from-dict.json';
const SECTION = 'relay-reference §5.3, §5.2';
const CAPABILITY = 'session-source-from-dict';
/**
 * Cases whose input holds a float Python tells from an integer (`1.0`, `1e16`, `-0.0`): once the
 * fixture is read as JSON by JavaScript they are the integers, so no JavaScript implementation can
 * be asked for Python's `str()` of them. They run only for an implementation that declares
 * `python-number-fidelity` (none does in JavaScript), and are otherwise listed as skipped.
 */
const PYTHON_NUMBER_TAGS: ReadonlySet<string> = new Set(['js-integral-float', 'js-ambiguous-number']);
/** Keys a newer gateway's `from_dict` carries and the baseline one (the fixture's expectation) drops. */
const NEWER_KEYS: readonly string[] = [
  'prospective_thread_id',
  'is_bot',
  'message_is_edit',
  'one_to_one_verified',
];
const fixture = readFixtureFile(fromDictFixture, FIXTURE_NAME);

/** The capability `implementation` declares through its optional persistence-reader functions. */
export function sessionSourceFromDictCapabilities(
  implementation: SessionSourceFromDictImplementation,
): string[] {
  return implementation.sessionSourceFromDict && implementation.sessionSourceToWire ? [CAPABILITY] : [];
}

/**
 * Cases from `fixtures/relay/session-source-from-dict.json`, ids `<prefix>.session-source-from-dict.<fixture id>`:
 * the `to_dict()` of what the reader makes of each input, key order compared, or its refusal. A case
 * tagged `newer` also accepts the newer fields a newer gateway carries. Recommended in this version.
 */
export function sessionSourceFromDictCases<Ctx extends SessionSourceFromDictImplementation>(
  prefix: string,
): ConformanceCase<Ctx>[] {
  return fixture.cases.map((entry, index) =>
    caseFor<Ctx>(`${prefix}.session-source-from-dict.${entry.id}`, entry, `${FIXTURE_NAME} cases[${index}]`),
  );
}

function caseFor<Ctx extends SessionSourceFromDictImplementation>(
  id: string,
  entry: FixtureCase,
  location: string,
): ConformanceCase<Ctx> {
  const requires = entry.tags.some((tag) => PYTHON_NUMBER_TAGS.has(tag))
    ? 'python-number-fidelity'
    : CAPABILITY;
  const common = {
    id,
    level: 'recommended',
    since: SESSION_SOURCE_FROM_DICT_SINCE,
    section: SECTION,
    requires,
  } as const;
  if ('error' in entry) {
    const code = readString(entry['error'], `${location}.error`);
    return {
      ...common,
      title: `from_dict() refuses ${entry.id} (${code})`,
      run: async (impl) => {
        const error = await assertRejects(
          () => impl.sessionSourceFromDict?.(entry['input']),
          `refused (${code})`,
        );
        if (impl.errorCode) assertEqual(impl.errorCode(error), code, 'error code');
      },
    };
  }
  const expected = readObject(entry['expected'], `${location}.expected`);
  const newer = entry.tags.includes('newer');
  return {
    ...common,
    title: `to_dict() of from_dict() of ${entry.id}`,
    run: async (impl) => {
      const source = await impl.sessionSourceFromDict?.(entry['input']);
      const wire = await impl.sessionSourceToWire?.(source as Readonly<Record<string, unknown>>);
      assertOrderedEqual(newer ? withoutNewerKeys(wire) : wire, expected, 'to_dict() of the source read');
    },
  };
}

function withoutNewerKeys(wire: unknown): unknown {
  if (typeof wire !== 'object' || wire === null || Array.isArray(wire)) return wire;
  return Object.fromEntries(Object.entries(wire).filter(([key]) => !NEWER_KEYS.includes(key)));
}
