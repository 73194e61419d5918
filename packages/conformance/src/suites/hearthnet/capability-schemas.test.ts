import {
  CAPABILITY_CATALOGUE,
  type CapabilityDescriptor,
  catalogueDescriptor,
} from '@agentwire/hearthnet/capabilities';
import { afterAll, describe, expect, it } from 'vitest';
import samplesFixture from '../../../fixtures/hearthnet/capability-samples.json' with { type: 'json' };
import hashesFixture from '../../../fixtures/hearthnet/capability-schema-hashes.json' with { type: 'json' };
import { runSuite } from '../../run-suite.js';
import { registerSuite } from '../../vitest/index.js';
import { agentwireCatalogue, lookUp } from './agentwire-capabilities.js';
import { capabilitySchemaSuite } from './capability-schemas.js';

const agentwire = agentwireCatalogue(lookUp);

describe('fixtures hearthnet/capability-schema-hashes.json and capability-samples.json', () => {
  it('list exactly the 18 capabilities of the catalogue, in order', () => {
    expect(hashesFixture.cases.map((c) => `${c.name}@${c.version}`)).toEqual(
      CAPABILITY_CATALOGUE.map((d) => `${d.name}@${d.version}`),
    );
  });

  it('give the descriptor case every descriptor field besides the name, version and schemas', () => {
    for (const descriptor of CAPABILITY_CATALOGUE) {
      const { name, version, requestSchema, responseSchema, streamSchema, ...rest } = descriptor;
      const entry = hashesFixture.cases.find((c) => c.name === name);
      expect(JSON.parse(JSON.stringify(rest)), name).toEqual(entry?.descriptor);
    }
  });

  it('sample every capability and every part it has', () => {
    const covered = new Set(samplesFixture.cases.map((c) => `${c.capability} ${c.part}`));
    for (const d of CAPABILITY_CATALOGUE) {
      expect(covered.has(`${d.name} request`), d.name).toBe(true);
      if (d.responseSchema !== null) expect(covered.has(`${d.name} response`), d.name).toBe(true);
      if (d.streamSchema !== null) expect(covered.has(`${d.name} stream`), d.name).toBe(true);
    }
  });
});

describe('capabilitySchemaSuite', () => {
  it('passes every case against @agentwire/hearthnet/capabilities', async () => {
    const suite = capabilitySchemaSuite(agentwire);
    const report = await runSuite(suite);
    expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
    expect(report.counts.passed).toBe(suite.cases.length);
  });

  it('has four cases per capability and one per sample', () => {
    const ids = capabilitySchemaSuite(agentwire).cases.map((c) => c.id);
    expect(ids.filter((id) => id.endsWith('.schema-hash'))).toHaveLength(CAPABILITY_CATALOGUE.length);
    expect(ids).toContain('hearthnet.capability-schemas.llm-chat-1-0.reference-schema-hash');
    expect(ids).toContain('hearthnet.capability-schemas.sample.embed-text-request-257-texts');
  });

  it('skips the optional cases for a hash-only implementation', async () => {
    const { schemaDocument, schemaHash: hash } = agentwire;
    const report = await runSuite(capabilitySchemaSuite({ schemaDocument, schemaHash: hash }));
    expect(report.counts.passed).toBe(2 * CAPABILITY_CATALOGUE.length);
    expect(report.results.some((r) => r.status === 'failed')).toBe(false);
  });

  it('fails the cases a wrong catalogue gets wrong', async () => {
    // k allowed up to 50 in rag.query: its schemas, its hash and the k=21 sample must fail; others pass.
    const loose = structuredClone(catalogueDescriptor('rag.query')) as unknown as {
      requestSchema: { properties: { input: { properties: { k: { maximum: number } } } } };
    };
    loose.requestSchema.properties.input.properties.k.maximum = 50;
    const report = await runSuite(
      capabilitySchemaSuite(
        agentwireCatalogue((name, version) =>
          name === 'rag.query' ? (loose as unknown as CapabilityDescriptor) : lookUp(name, version),
        ),
      ),
    );
    const failed = new Set(report.results.filter((r) => r.status === 'failed').map((r) => r.id));
    expect([...failed].sort()).toEqual([
      'hearthnet.capability-schemas.rag-query-1-0.schema-hash',
      'hearthnet.capability-schemas.rag-query-1-0.schemas',
      'hearthnet.capability-schemas.sample.rag-query-request-k-21',
    ]);
  });

  it('fails a satisfies that compares versions as text or ignores the major version', async () => {
    const asText = (requirement: string, offered: string) => {
      const [name, minimum] = requirement.replace('>=', '').split('@');
      const [offeredName, version] = offered.split('@');
      return name === offeredName && version! >= minimum!;
    };
    const report = await runSuite(capabilitySchemaSuite({ ...agentwire, satisfies: asText }));
    const failed = report.results.filter((r) => r.status === 'failed').map((r) => r.id);
    expect(failed).toContain('hearthnet.capability-schemas.satisfies-numeric-minor');
    expect(failed).toContain('hearthnet.capability-schemas.satisfies-higher-major');
    expect(failed).toContain('hearthnet.capability-schemas.satisfies-malformed-1');
    expect(failed).not.toContain('hearthnet.capability-schemas.satisfies-same');
    expect(failed.every((id) => id.includes('.satisfies-'))).toBe(true);
  });

  it('fails malformed satisfies inputs refused with another code', async () => {
    const report = await runSuite(
      capabilitySchemaSuite({ ...agentwire, errorCode: () => 'invalid_capability_name' }),
    );
    const failed = report.results.filter((r) => r.status === 'failed').map((r) => r.id);
    expect(failed.sort()).toEqual(
      [
        ...[1, 2, 3, 4].map((n) => `satisfies-malformed-${n}`),
        'satisfies-offered-without-version',
        'satisfies-version-leading-zero',
        'satisfies-version-prefixed',
        'satisfies-version-three-parts',
      ].map((id) => `hearthnet.capability-schemas.${id}`),
    );
  });

  it('fails a satisfies whose name check is unanchored or forgets the length limit', async () => {
    const lax = (requirement: string, offered: string) => {
      const strip = (ref: string) =>
        ref
          .replace(/^[^a-z]+/, '')
          .replace(/[^a-z0-9_]+@/, '@')
          .replace(/^(a\.b{126})b+@/, '$1@');
      return agentwire.satisfies?.(strip(requirement), strip(offered)) ?? false;
    };
    const report = await runSuite(capabilitySchemaSuite({ ...agentwire, satisfies: lax }));
    const failed = report.results.filter((r) => r.status === 'failed').map((r) => r.id);
    expect(failed.sort()).toEqual(
      ['satisfies-name-129-characters', 'satisfies-name-leading-dash', 'satisfies-name-trailing-dash'].map(
        (id) => `hearthnet.capability-schemas.${id}`,
      ),
    );
  });

  it('fails every case of a capability the implementation does not offer', async () => {
    const report = await runSuite(
      capabilitySchemaSuite(
        agentwireCatalogue((name, version) => (name === 'file.put' ? undefined : lookUp(name, version))),
      ),
    );
    const failed = report.results.filter((r) => r.status === 'failed').map((r) => r.id);
    expect(failed).toContain('hearthnet.capability-schemas.file-put-1-0.schema-hash');
    expect(failed).toContain('hearthnet.capability-schemas.file-put-1-0.descriptor');
    expect(failed).toContain('hearthnet.capability-schemas.sample.file-put-request-manifest');
    expect(failed.every((id) => id.includes('file-put'))).toBe(true);
  });
});

describe('capabilitySchemaSuite through registerSuite', () => {
  registerSuite(capabilitySchemaSuite(agentwire), { describe, it, afterAll });
});
