import {
  CAPABILITY_CATALOGUE,
  type CapabilityDescriptor,
  catalogueDescriptor,
} from '@agentwire/hearthnet/capabilities';
import { afterAll, describe, expect, it } from 'vitest';
import { runSuite } from '../../run-suite.js';
import { registerSuite } from '../../vitest/index.js';
import { agentwireCatalogue, lookUp } from './agentwire-capabilities.js';
import { capabilitySchemaSuite } from './capability-schemas.js';

const agentwire = agentwireCatalogue(lookUp);

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
