import sessionSourceFixture from '../../../fixtures/relay/session-source.json' with { type: 'json' };
import fromDictFixture from '../../../fixtures/relay/session-source-from-dict.json' with { type: 'json' };
import { assertEqual, assertRejects } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import {
  decodeFixtureValue,
  type FixtureCase,
  readFixtureFile,
  readObject,
  readString,
  sinceOf,
} from '../../fixtures/fixture-file.js';
import type { ConformanceCase } from '../../suite.js';
import type { CapabilityMembers } from '../capability-members.js';
import { levelForTags } from './case-level.js';
import { RELAY_SUITE_VERSION } from './suite-version.js';

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

/** The SessionSource wire functions a relay codec may offer; each one enables its cases. */
export interface SessionSourceImplementation {
  /**
   * The wire object of a gateway-side SessionSource (snake_case keys), keys in `to_dict()` order.
   * Capability `session-source-to-wire`.
   */
  sessionSourceToWire?(source: Readonly<Record<string, unknown>>): unknown;
  /**
   * The SessionSource the gateway's relay path reads from an event's `source` value (`undefined` when
   * the event has none), every baseline key present in declaration order; throws or rejects for a
   * truthy non-object. Capability `session-source-from-wire`.
   */
  sessionSourceFromWire?(wire: unknown): unknown;
  /** The implementation's error code for a refused input; when given, error cases check it. */
  errorCode?(error: unknown): string | undefined;
}

const FIXTURE_NAME = 'relay/session-source.json';
const SECTION_TO_WIRE = 'relay-reference §5.2; contract §3';
const SECTION_FROM_WIRE = 'relay-reference §4.2';
const fixture = readFixtureFile(sessionSourceFixture, FIXTURE_NAME);

/** The members of a SessionSourceImplementation that provide each capability. */
export const SESSION_SOURCE_MEMBERS = {
  'session-source-to-wire': ['sessionSourceToWire'],
  'session-source-from-wire': ['sessionSourceFromWire'],
} as const satisfies CapabilityMembers<SessionSourceImplementation>;

/**
 * Cases from `fixtures/relay/session-source.json`, ids `<prefix>.session-source.<fixture id>`, and
 * `….rewire` for the `to_dict()` of a source read from the wire. Key order is compared.
 */
export function sessionSourceCases<Ctx extends SessionSourceImplementation>(
  prefix: string,
): ConformanceCase<Ctx>[] {
  return fixture.cases.flatMap((entry, index) =>
    casesFor<Ctx>(`${prefix}.session-source.${entry.id}`, entry, `${FIXTURE_NAME} cases[${index}]`),
  );
}

function casesFor<Ctx extends SessionSourceImplementation>(
  id: string,
  entry: FixtureCase,
  location: string,
): ConformanceCase<Ctx>[] {
  const common = {
    id,
    level: levelForTags(entry.tags),
    since: sinceOf(entry, location, RELAY_SUITE_VERSION),
  } as const;
  const object = (field: string) =>
    readObject(decodeFixtureValue(entry[field], `${location}.${field}`), `${location}.${field}`);
  switch (entry['op']) {
    case 'to_wire': {
      const wire = object('wire');
      return [
        {
          ...common,
          title: `to_dict() of ${entry.id}`,
          section: SECTION_TO_WIRE,
          requires: 'session-source-to-wire',
          run: async (impl) =>
            assertOrderedEqual(await impl.sessionSourceToWire?.(object('source')), wire, 'wire object'),
        },
      ];
    }
    case 'from_wire': {
      // An absent `wire` is an event without a `source` key.
      const wire = () =>
        'wire' in entry ? decodeFixtureValue(entry['wire'], `${location}.wire`) : undefined;
      if ('error' in entry) {
        const code = readString(entry['error'], `${location}.error`);
        return [
          {
            ...common,
            title: `refuses source ${entry.id} (${code})`,
            section: SECTION_FROM_WIRE,
            requires: 'session-source-from-wire',
            run: async (impl) => {
              const error = await assertRejects(
                () => impl.sessionSourceFromWire?.(wire()),
                `not a source (${code})`,
              );
              if (impl.errorCode) assertEqual(impl.errorCode(error), code, 'error code');
            },
          },
        ];
      }
      const source = object('source');
      const rewire = object('rewire');
      return [
        {
          ...common,
          title: `reads source ${entry.id}`,
          section: SECTION_FROM_WIRE,
          requires: 'session-source-from-wire',
          run: async (impl) =>
            assertOrderedEqual(await impl.sessionSourceFromWire?.(wire()), source, 'SessionSource'),
        },
        {
          ...common,
          id: `${id}.rewire`,
          title: `to_dict() of the source read from ${entry.id}`,
          section: SECTION_TO_WIRE,
          requires: 'session-source-to-wire',
          run: async (impl) =>
            assertOrderedEqual(await impl.sessionSourceToWire?.(object('source')), rewire, 'wire object'),
        },
      ];
    }
    default:
      throw invalidFixtureError(`${location}.op`, 'expected "to_wire" or "from_wire"');
  }
}

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

const FROM_DICT_FIXTURE_NAME = 'relay/session-source-from-dict.json';
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
const fromDictFixtureFile = readFixtureFile(fromDictFixture, FROM_DICT_FIXTURE_NAME);

/** The members of a SessionSourceFromDictImplementation that provide its capability. */
export const SESSION_SOURCE_FROM_DICT_MEMBERS = {
  [CAPABILITY]: ['sessionSourceFromDict', 'sessionSourceToWire'],
} as const satisfies CapabilityMembers<SessionSourceFromDictImplementation>;

/**
 * Cases from `fixtures/relay/session-source-from-dict.json`, ids `<prefix>.session-source-from-dict.<fixture id>`:
 * the `to_dict()` of what the reader makes of each input, key order compared, or its refusal. A case
 * tagged `newer` also accepts the newer fields a newer gateway carries. Recommended in this version.
 */
export function sessionSourceFromDictCases<Ctx extends SessionSourceFromDictImplementation>(
  prefix: string,
): ConformanceCase<Ctx>[] {
  return fromDictFixtureFile.cases.map((entry, index) =>
    caseFor<Ctx>(
      `${prefix}.session-source-from-dict.${entry.id}`,
      entry,
      `${FROM_DICT_FIXTURE_NAME} cases[${index}]`,
    ),
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
    since: sinceOf(entry, location, SESSION_SOURCE_FROM_DICT_SINCE),
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
