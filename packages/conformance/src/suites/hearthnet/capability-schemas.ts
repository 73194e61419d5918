import samplesFixture from '../../../fixtures/hearthnet/capability-samples.json' with { type: 'json' };
import hashesFixture from '../../../fixtures/hearthnet/capability-schema-hashes.json' with { type: 'json' };
import versionsFixture from '../../../fixtures/hearthnet/capability-versions.json' with { type: 'json' };
import { assertEqual, assertRejects, fail } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import {
  type FixtureCase,
  readBoolean,
  readFixtureFile,
  readObject,
  readString,
} from '../../fixtures/fixture-file.js';
import type { ConformanceCase, ConformanceSuite } from '../../suite.js';
import { type CapabilityMembers, memberNeeds, providedCapabilities } from '../capability-members.js';
import { HEARTHNET_CAPABILITY_SCHEMAS_SUITE_VERSION, HEARTHNET_SUITE_VERSION } from './suite-version.js';

/** Which schema of a capability a value is checked against. */
export type CapabilitySchemaPart = 'request' | 'response' | 'stream';

/** What an implementation says about one value: accepted or not, and (optionally) the value with defaults filled in. */
export interface CapabilityValidationVerdict {
  readonly valid: boolean;
  /** The validated value with schema defaults filled in; when given, cases with `parsed` compare it. */
  readonly value?: unknown;
}

/** The descriptor fields besides the schemas, with the fixture's field names. */
export interface CapabilityDescriptorFacts {
  readonly stability: string;
  readonly trust: { readonly level: string; readonly condition?: string };
  readonly idempotency: { readonly kind: string; readonly key?: string };
  readonly streaming: string;
}

/**
 * The capability catalogue under test. `schemaDocument` and `schemaHash` are required; each other
 * function enables its cases (capabilities `descriptor`, `reference-schema-hash`, `validation`,
 * `satisfies`). Return `undefined` for a capability the implementation does not offer: its cases then fail.
 */
export interface CapabilityCatalogueImplementation {
  /** `{name, version, request_schema, response_schema, stream_schema}` of `name@version` (contract §11). */
  schemaDocument(name: string, version: string): unknown | Promise<unknown>;
  /** The contract §11 schema hash, `blake3:<64 lowercase hex>`. */
  schemaHash(name: string, version: string): string | undefined | Promise<string | undefined>;
  /** The hash reference nodes publish (SHA-256, labelled `blake3:`). Capability `reference-schema-hash`. */
  referenceSchemaHash?(name: string, version: string): string | Promise<string>;
  /** Stability, trust, idempotency and streaming of `name@version`. Capability `descriptor`. */
  descriptor?(
    name: string,
    version: string,
  ): CapabilityDescriptorFacts | undefined | Promise<CapabilityDescriptorFacts | undefined>;
  /** Validates `value` against one schema of `name@version`. Capability `validation`. */
  validate?(
    name: string,
    version: string,
    part: CapabilitySchemaPart,
    value: unknown,
  ): CapabilityValidationVerdict | Promise<CapabilityValidationVerdict>;
  /**
   * Whether an offered `name@X.Y` meets a requirement `name@>=A.B` (or `name@A.B`) by the contract §2.1
   * rule; throws for malformed input. Capability `satisfies`.
   */
  satisfies?(requirement: string, offered: string): boolean | Promise<boolean>;
  /**
   * The stable code of an error `satisfies` threw (`invalid_capability_name`, `invalid_capability_version`);
   * checked when given.
   */
  errorCode?(error: unknown): string | undefined;
}

const HASHES = 'hearthnet/capability-schema-hashes.json';
const SAMPLES = 'hearthnet/capability-samples.json';
const SECTION_HASH = 'HearthNet §11';
const SECTION_CATALOGUE = 'HearthNet §3.2, §4';
const VERSIONS = 'hearthnet/capability-versions.json';
const SECTION_VERSIONS = 'HearthNet §2.1';
const hashes = readFixtureFile(hashesFixture, HASHES);
const samples = readFixtureFile(samplesFixture, SAMPLES);
const versions = readFixtureFile(versionsFixture, VERSIONS);
/** The cases `hearthnet.capability-schemas` 1.1.0 added (satisfies edges, minLength samples); the others date from 1.0.0. */
const ADDED_IN_1_1: ReadonlySet<string> = new Set([
  'satisfies-three-segments',
  'satisfies-name-128-characters',
  'satisfies-two-digit-major',
  'satisfies-name-leading-dash',
  'satisfies-name-trailing-dash',
  'satisfies-name-129-characters',
  'satisfies-version-prefixed',
  'satisfies-version-three-parts',
  'satisfies-version-leading-zero',
  'satisfies-offered-without-version',
  'llm-chat-request-empty-model',
  'chat-send-request-empty-client-id',
  'chat-send-request-one-character-client-id',
]);
const parts: ReadonlySet<string> = new Set<CapabilitySchemaPart>(['request', 'response', 'stream']);

type CatalogueCase = ConformanceCase<CapabilityCatalogueImplementation>;

/** The members of a CapabilityCatalogueImplementation that provide each capability. */
const CATALOGUE_MEMBERS = {
  'reference-schema-hash': ['referenceSchemaHash'],
  descriptor: ['descriptor'],
  validation: ['validate'],
  satisfies: ['satisfies'],
} as const satisfies CapabilityMembers<CapabilityCatalogueImplementation>;

/**
 * The capability catalogue of contract §3.2/§4 against `fixtures/hearthnet/capability-schema-hashes.json`
 * (schemas, descriptor facts, the §11 hash and the hash reference nodes publish, for all 18
 * capabilities), `capability-samples.json` (values each schema must accept or refuse) and the
 * `satisfies` cases of `capability-versions.json` (the §2.1 compatibility rule). Its `parse_name` and
 * `parse_version` cases name the parts of a name and a version, which this interface does not ask
 * for; they are not run here.
 *
 * @example
 * ```ts
 * import { catalogueDescriptor, referenceSchemaHash, schemaHash, schemaHashDocument } from '@agentwire/hearthnet/capabilities';
 * const report = await runSuite(capabilitySchemaSuite({
 *   schemaDocument: (name) => schemaHashDocument(catalogueDescriptor(name)!),
 *   schemaHash: (name) => schemaHash(catalogueDescriptor(name)!),
 *   referenceSchemaHash,
 * }));
 * ```
 */
export function capabilitySchemaSuite(
  implementation: CapabilityCatalogueImplementation,
): ConformanceSuite<CapabilityCatalogueImplementation> {
  const capabilities = new Set(providedCapabilities(implementation, CATALOGUE_MEMBERS));
  return {
    name: 'hearthnet.capability-schemas',
    version: HEARTHNET_CAPABILITY_SCHEMAS_SUITE_VERSION,
    description: `${hashes.description} Samples: ${samples.description} Versions: ${versions.description}`,
    cases: [
      ...hashes.cases.flatMap(hashCases),
      ...samples.cases.map(sampleCase),
      ...versions.cases.flatMap(satisfiesCases),
    ],
    setup: () => ({ ctx: implementation, capabilities }),
    needs: memberNeeds(CATALOGUE_MEMBERS, 'CapabilityCatalogueImplementation'),
  };
}

function hashCases(entry: FixtureCase, index: number): CatalogueCase[] {
  const location = `${HASHES} cases[${index}]`;
  const name = readString(entry['name'], `${location}.name`);
  const version = readString(entry['version'], `${location}.version`);
  const document = readObject(entry['schema_document'], `${location}.schema_document`);
  const descriptor = readObject(entry['descriptor'], `${location}.descriptor`);
  const expected = readObject(entry['expected'], `${location}.expected`);
  const hash = readString(expected['schema_hash'], `${location}.expected.schema_hash`);
  const referenceHash = readString(
    expected['reference_schema_hash'],
    `${location}.expected.reference_schema_hash`,
  );
  const id = `hearthnet.capability-schemas.${entry.id}`;
  const ref = `${name}@${version}`;
  const common = { level: 'required', since: HEARTHNET_SUITE_VERSION } as const;
  return [
    {
      ...common,
      id: `${id}.schemas`,
      title: `the JSON Schemas of ${ref}`,
      section: SECTION_CATALOGUE,
      run: async (impl) =>
        assertEqual(await impl.schemaDocument(name, version), document, `schema document of ${ref}`),
    },
    {
      ...common,
      id: `${id}.schema-hash`,
      title: `the schema hash of ${ref}`,
      section: SECTION_HASH,
      run: async (impl) => assertEqual(await impl.schemaHash(name, version), hash, `schema hash of ${ref}`),
    },
    {
      ...common,
      id: `${id}.reference-schema-hash`,
      title: `the schema hash reference nodes publish for ${ref}`,
      section: SECTION_HASH,
      requires: 'reference-schema-hash',
      run: async (impl) =>
        assertEqual(
          await impl.referenceSchemaHash?.(name, version),
          referenceHash,
          `reference schema hash of ${ref}`,
        ),
    },
    {
      ...common,
      id: `${id}.descriptor`,
      title: `stability, trust, idempotency and streaming of ${ref}`,
      section: SECTION_CATALOGUE,
      requires: 'descriptor',
      run: async (impl) => {
        const facts = await impl.descriptor?.(name, version);
        if (facts === undefined) fail(`no descriptor for ${ref}`);
        assertEqual(
          {
            stability: facts.stability,
            trust: facts.trust,
            idempotency: facts.idempotency,
            streaming: facts.streaming,
          },
          descriptor,
          `descriptor of ${ref}`,
        );
      },
    },
  ];
}

function sampleCase(entry: FixtureCase, index: number): CatalogueCase {
  const location = `${SAMPLES} cases[${index}]`;
  const name = readString(entry['capability'], `${location}.capability`);
  const version = readString(entry['version'], `${location}.version`);
  const part = readString(entry['part'], `${location}.part`);
  if (!parts.has(part)) throw invalidFixtureError(`${location}.part`, 'expected request, response or stream');
  const valid = readBoolean(entry['valid'], `${location}.valid`);
  const value = entry['value'];
  const hasParsed = 'parsed' in entry;
  return {
    id: `hearthnet.capability-schemas.sample.${entry.id}`,
    title: `${name}@${version} ${part} ${valid ? 'accepts' : 'refuses'} ${entry.id}`,
    section: SECTION_CATALOGUE,
    level: 'required',
    since: ADDED_IN_1_1.has(entry.id) ? HEARTHNET_CAPABILITY_SCHEMAS_SUITE_VERSION : HEARTHNET_SUITE_VERSION,
    requires: 'validation',
    run: async (impl) => {
      const verdict = await impl.validate?.(
        name,
        version,
        part as CapabilitySchemaPart,
        structuredClone(value),
      );
      assertEqual(verdict?.valid, valid, `verdict on ${entry.id}`);
      if (valid && hasParsed && verdict?.value !== undefined) {
        assertEqual(verdict.value, entry['parsed'], `${entry.id} with defaults filled in`);
      }
    },
  };
}

/** The `satisfies` operation of `capability-versions.json`: one case per entry; other operations yield none. */
function satisfiesCases(entry: FixtureCase, index: number): CatalogueCase[] {
  if (entry['operation'] !== 'satisfies') return [];
  const location = `${VERSIONS} cases[${index}]`;
  const requirement = readString(entry['requirement'], `${location}.requirement`);
  const offered = readString(entry['offered'], `${location}.offered`);
  const common = {
    id: `hearthnet.capability-schemas.${entry.id}`,
    section: SECTION_VERSIONS,
    level: 'required',
    since: ADDED_IN_1_1.has(entry.id) ? HEARTHNET_CAPABILITY_SCHEMAS_SUITE_VERSION : HEARTHNET_SUITE_VERSION,
    requires: 'satisfies',
  } as const;
  if ('error' in entry) {
    const code = readString(entry['error'], `${location}.error`);
    return [
      {
        ...common,
        title: `refuses ${offered} against ${requirement} (${code})`,
        run: async (impl) => {
          const error = await assertRejects(
            () => impl.satisfies?.(requirement, offered),
            `${offered} against ${requirement} is malformed`,
          );
          if (impl.errorCode) assertEqual(impl.errorCode(error), code, 'error code');
        },
      },
    ];
  }
  const expected = readBoolean(entry['expected'], `${location}.expected`);
  return [
    {
      ...common,
      title: `${offered} ${expected ? 'satisfies' : 'does not satisfy'} ${requirement}`,
      run: async (impl) =>
        assertEqual(
          await impl.satisfies?.(requirement, offered),
          expected,
          `${offered} against ${requirement}`,
        ),
    },
  ];
}
