import descriptorsFixture from '../../../fixtures/relay/descriptors.json' with { type: 'json' };
import { assertEqual, assertRejects } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import {
  decodeFixtureValue,
  type FixtureCase,
  readBoolean,
  readFixtureFile,
  readObject,
  readString,
  readStringArray,
  sinceOf,
} from '../../fixtures/fixture-file.js';
import type { ConformanceCase } from '../../suite.js';
import type { CapabilityMembers } from '../capability-members.js';
import { levelForTags } from './case-level.js';
import { DESCRIPTOR_VIEWS_AND_EVENTS_SINCE, RELAY_SUITE_VERSION } from './suite-version.js';

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
  /**
   * The gateway's `to_json()` of a parsed descriptor: `json.dumps` of the baseline gateway's fourteen
   * fields, `sort_keys=True`, `ensure_ascii=False`. Capability `descriptor-to-json`.
   */
  descriptorToJson?(descriptor: Readonly<Record<string, unknown>>): string | Promise<string>;
  /**
   * The adapter's length of `text` under a parsed descriptor: UTF-16 code units when `len_unit` is
   * exactly `"utf16"`, else code points. Capability `descriptor-message-length`.
   */
  descriptorMessageLength?(
    descriptor: Readonly<Record<string, unknown>>,
    text: string,
  ): number | Promise<number>;
  /**
   * Whether a parsed descriptor's platform renders code blocks (`markdown_dialect` not `""` or
   * `"plain"`). Capability `descriptor-supports-code-blocks`.
   */
  descriptorSupportsCodeBlocks?(descriptor: Readonly<Record<string, unknown>>): boolean | Promise<boolean>;
  /** The missing field names a missing-fields refusal carries; when given, those cases check them. */
  missingDescriptorFields?(error: unknown): readonly string[] | undefined;
  /** The implementation's error code for a refused input; when given, error cases check it. */
  errorCode?(error: unknown): string | undefined;
}

const FIXTURE_NAME = 'relay/descriptors.json';
const SECTION = 'relay-reference §3.2; contract §2';
const SECTION_VIEWS = 'relay-reference §3.3, §15.3';
const fixture = readFixtureFile(descriptorsFixture, FIXTURE_NAME);
/** The texts whose lengths the `message_lengths` of each parsed case gives, in order. */
const sampleTexts = readStringArray(
  (descriptorsFixture as { readonly sample_texts?: unknown }).sample_texts,
  `${FIXTURE_NAME} sample_texts`,
);

/** The members of a DescriptorImplementation that provide each capability. */
export const DESCRIPTOR_MEMBERS = {
  'parse-descriptor': ['parseDescriptor'],
  'descriptor-supports-op': ['descriptorSupportsOp'],
  'descriptor-to-json': ['descriptorToJson'],
  'descriptor-message-length': ['descriptorMessageLength'],
  'descriptor-supports-code-blocks': ['descriptorSupportsCodeBlocks'],
} as const satisfies CapabilityMembers<DescriptorImplementation>;

/**
 * Cases from `fixtures/relay/descriptors.json`, ids `<prefix>.descriptors.<fixture id>` (parsing),
 * `….supports-op` (op support of the expected descriptor) and, since 1.2.0, `….to-json`,
 * `….message-lengths` and `….supports-code-blocks` (the gateway's views of it). A `to_json()` that
 * keeps an integral float (`2e3` → `2000.0`) needs capability `python-number-fidelity`: once the
 * fixture is read by JavaScript the float is the integer, so no JavaScript implementation can be
 * asked to tell them apart.
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
  const common = {
    section: SECTION,
    level: levelForTags(entry.tags),
    since: sinceOf(entry, location, RELAY_SUITE_VERSION),
  } as const;
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
    ...viewCases<Ctx>(id, entry, location, descriptor),
  ];
}

/** The `to_json()`, message-length and code-block cases of one parsed descriptor. */
function viewCases<Ctx extends DescriptorImplementation>(
  id: string,
  entry: FixtureCase,
  location: string,
  descriptor: () => Record<string, unknown>,
): ConformanceCase<Ctx>[] {
  const common = {
    section: SECTION_VIEWS,
    level: levelForTags(entry.tags),
    since: sinceOf(entry, location, DESCRIPTOR_VIEWS_AND_EVENTS_SINCE),
  } as const;
  const toJson = readString(entry['to_json'], `${location}.to_json`);
  const lengths = readLengths(entry['message_lengths'], `${location}.message_lengths`);
  const codeBlocks = readBoolean(entry['supports_code_blocks'], `${location}.supports_code_blocks`);
  return [
    {
      ...common,
      id: `${id}.to-json`,
      title: `to_json() of descriptor ${entry.id}`,
      requires: keepsIntegralFloat(descriptor(), toJson) ? 'python-number-fidelity' : 'descriptor-to-json',
      run: async (impl) => assertEqual(await impl.descriptorToJson?.(descriptor()), toJson, 'to_json()'),
    },
    {
      ...common,
      id: `${id}.message-lengths`,
      title: `message lengths of the sample texts under descriptor ${entry.id}`,
      requires: 'descriptor-message-length',
      run: async (impl) => {
        const measured: unknown[] = [];
        for (const text of sampleTexts)
          measured.push(await impl.descriptorMessageLength?.(descriptor(), text));
        assertEqual(measured, lengths, 'lengths of the sample texts');
      },
    },
    {
      ...common,
      id: `${id}.supports-code-blocks`,
      title: `code-block support of descriptor ${entry.id}`,
      requires: 'descriptor-supports-code-blocks',
      run: async (impl) =>
        assertEqual(
          await impl.descriptorSupportsCodeBlocks?.(descriptor()),
          codeBlocks,
          'supports code blocks',
        ),
    },
  ];
}

/** Whether `toJson` writes `max_message_length` as a float that JavaScript reads as an integer. */
function keepsIntegralFloat(descriptor: Record<string, unknown>, toJson: string): boolean {
  const length = descriptor['max_message_length'];
  return Number.isInteger(length) && toJson.includes(`"max_message_length": ${String(length)}.0`);
}

function readLengths(value: unknown, location: string): number[] {
  if (!Array.isArray(value) || value.length !== sampleTexts.length) {
    throw invalidFixtureError(location, 'expected one length per sample text');
  }
  return value.map((length, i) => {
    if (!Number.isInteger(length) || (length as number) < 0) {
      throw invalidFixtureError(`${location}[${i}]`, 'expected a non-negative integer');
    }
    return length as number;
  });
}
