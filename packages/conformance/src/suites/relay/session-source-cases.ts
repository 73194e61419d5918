import sessionSourceFixture from '../../../fixtures/relay/session-source.json' with { type: 'json' };
import { assertEqual, assertRejects } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import { decodeFixtureValue } from '../../fixtures/decode-fixture-value.js';
import { type FixtureCase, readFixtureFile } from '../../fixtures/fixture-file.js';
import { readObject, readString } from '../../fixtures/read-fields.js';
import type { ConformanceCase } from '../../suite.js';
import { assertOrderedEqual } from './assert-key-order.js';
import { levelForTags } from './case-level.js';
import { RELAY_SUITE_VERSION } from './suite-version.js';

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

/** The capabilities `implementation` declares through its optional SessionSource functions. */
export function sessionSourceCapabilities(implementation: SessionSourceImplementation): string[] {
  const capabilities: string[] = [];
  if (implementation.sessionSourceToWire) capabilities.push('session-source-to-wire');
  if (implementation.sessionSourceFromWire) capabilities.push('session-source-from-wire');
  return capabilities;
}

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
  const common = { id, level: levelForTags(entry.tags), since: RELAY_SUITE_VERSION } as const;
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
