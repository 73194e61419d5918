import descriptorsFixture from '../../../fixtures/relay/descriptors.json' with { type: 'json' };
import { assertEqual, assertRejects } from '../../assert.js';
import {
  decodeFixtureValue,
  type FixtureCase,
  readBoolean,
  readFixtureFile,
  readObject,
  readString,
  readStringArray,
} from '../../fixtures/fixture-file.js';
import type { ConformanceCase } from '../../suite.js';
import { levelForTags } from './case-level.js';
import { RELAY_SUITE_VERSION } from './suite-version.js';

/** The CapabilityDescriptor functions a relay codec may offer; each one enables its cases. */
export interface DescriptorImplementation {
  /**
   * The descriptor the gateway's `from_json` makes of `text` (snake_case keys, every field, defaults
   * filled in); throws or rejects where the gateway refuses it. Capability `parse-descriptor`.
   */
  parseDescriptor?(text: string): unknown;
  /** Whether a parsed descriptor allows `op` (empty `supported_ops` = the legacy set). Capability `descriptor-supports-op`. */
  descriptorSupportsOp?(
    descriptor: Readonly<Record<string, unknown>>,
    op: string,
  ): boolean | Promise<boolean>;
  /** The missing field names a missing-fields refusal carries; when given, those cases check them. */
  missingDescriptorFields?(error: unknown): readonly string[] | undefined;
  /** The implementation's error code for a refused input; when given, error cases check it. */
  errorCode?(error: unknown): string | undefined;
}

const FIXTURE_NAME = 'relay/descriptors.json';
const SECTION = 'relay-reference §3.2; contract §2';
const fixture = readFixtureFile(descriptorsFixture, FIXTURE_NAME);

/** The capabilities `implementation` declares through its optional descriptor functions. */
export function descriptorCapabilities(implementation: DescriptorImplementation): string[] {
  const capabilities: string[] = [];
  if (implementation.parseDescriptor) capabilities.push('parse-descriptor');
  if (implementation.descriptorSupportsOp) capabilities.push('descriptor-supports-op');
  return capabilities;
}

/**
 * Cases from `fixtures/relay/descriptors.json`, ids `<prefix>.descriptors.<fixture id>` (parsing) and
 * `….supports-op` (op support of the expected descriptor).
 */
export function descriptorCases<Ctx extends DescriptorImplementation>(
  prefix: string,
): ConformanceCase<Ctx>[] {
  return fixture.cases.flatMap((entry, index) =>
    casesFor<Ctx>(`${prefix}.descriptors.${entry.id}`, entry, `${FIXTURE_NAME} cases[${index}]`),
  );
}

function casesFor<Ctx extends DescriptorImplementation>(
  id: string,
  entry: FixtureCase,
  location: string,
): ConformanceCase<Ctx>[] {
  const common = { section: SECTION, level: levelForTags(entry.tags), since: RELAY_SUITE_VERSION } as const;
  const input = readString(entry['input'], `${location}.input`);
  if ('error' in entry) {
    const code = readString(entry['error'], `${location}.error`);
    const missing = 'missing' in entry ? readStringArray(entry['missing'], `${location}.missing`) : undefined;
    return [
      {
        ...common,
        id,
        title: `refuses descriptor ${entry.id} (${code})`,
        requires: 'parse-descriptor',
        run: async (impl) => {
          const error = await assertRejects(
            () => impl.parseDescriptor?.(input),
            `the gateway refuses it (${code})`,
          );
          if (impl.errorCode) assertEqual(impl.errorCode(error), code, 'error code');
          const reported = impl.missingDescriptorFields?.(error);
          if (missing !== undefined && reported !== undefined)
            assertEqual(reported, missing, 'missing fields');
        },
      },
    ];
  }
  const expected = readObject(
    decodeFixtureValue(entry['expected'], `${location}.expected`),
    `${location}.expected`,
  );
  const descriptor = () =>
    readObject(decodeFixtureValue(entry['expected'], `${location}.expected`), `${location}.expected`);
  const supportsOp = Object.entries(readObject(entry['supports_op'], `${location}.supports_op`)).map(
    ([op, supported]) => [op, readBoolean(supported, `${location}.supports_op.${op}`)] as const,
  );
  return [
    {
      ...common,
      id,
      title: `parses descriptor ${entry.id}`,
      requires: 'parse-descriptor',
      run: async (impl) => assertEqual(await impl.parseDescriptor?.(input), expected, 'parsed descriptor'),
    },
    {
      ...common,
      id: `${id}.supports-op`,
      title: `op support of descriptor ${entry.id}`,
      requires: 'descriptor-supports-op',
      run: async (impl) => {
        for (const [op, supported] of supportsOp) {
          assertEqual(await impl.descriptorSupportsOp?.(descriptor(), op), supported, `supports ${op}`);
        }
      },
    },
  ];
}
