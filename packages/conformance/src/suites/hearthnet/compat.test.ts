import { afterAll, describe, expect, it } from 'vitest';
import compatFixture from '../../../fixtures/hearthnet/compat.json' with { type: 'json' };
import { readFixtureFile } from '../../fixtures/fixture-file.js';
import { runSuite } from '../../run-suite.js';
import { registerSuite } from '../../vitest/index.js';
import { agentwireCompat } from './agentwire-compat.js';
import { type CompatImplementation, compatSuite } from './compat.js';

async function failedCases(implementation: CompatImplementation): Promise<Set<string>> {
  const report = await runSuite(compatSuite(implementation));
  return new Set(report.results.filter((r) => r.status === 'failed').map((r) => r.id));
}

describe('compatSuite', () => {
  it('passes every case against @agentwire/hearthnet/compat, with nothing skipped', async () => {
    const report = await runSuite(compatSuite(agentwireCompat));
    expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
    expect(report.counts.passed).toBe(compatSuite(agentwireCompat).cases.length);
  });

  it('runs a fixture with every operation', () => {
    const operations = new Set(
      readFixtureFile(compatFixture, 'hearthnet/compat.json').cases.map((c) => c['operation']),
    );
    expect([...operations].sort()).toEqual(
      [
        'float-repr',
        'b-form',
        'ascii-insertion',
        'event-id-to-ulid',
        'timestamp-to-contract',
        'sign-reference-event',
        'verify-reference-event',
        'reference-to-contract',
        'contract-to-reference',
        'make-invite',
        'encode-invite',
        'decode-invite',
        'verify-invite',
        'verify-reference-node-manifest',
        'verify-reference-community-manifest',
        'reference-manifest-to-contract',
        'snapshot-signing-bytes',
        'snapshot-sign',
        'snapshot-verify',
        'sse-frame',
        'manifest-cid',
        'blob-cid',
      ].sort(),
    );
  });

  it('skips what an implementation leaves out, and only checks that refusals throw without errorFacts', async () => {
    const report = await runSuite(
      compatSuite({ eventIdToUlid: agentwireCompat.eventIdToUlid!, sseFrame: agentwireCompat.sseFrame! }),
    );
    expect(report.ok).toBe(true);
    const byStatus = (status: string) => report.results.filter((r) => r.status === status).map((r) => r.id);
    expect(byStatus('passed')).toContain('hearthnet.compat.sse-frame-event-line-break');
    expect(byStatus('skipped')).toContain('hearthnet.compat.float-repr-00');
  });

  it('fails JavaScript number formatting, sorted keys, and a verifier that ignores accept_unsigned', async () => {
    const failed = await failedCases({
      ...agentwireCompat,
      floatRepr: (value) => String(value),
      // Writes the sorted-key B-form where the reference keeps insertion order.
      asciiJson: async (text) => JSON.stringify(sortKeys(JSON.parse(text))),
      verifyEvent: (text) => agentwireCompat.verifyEvent!(text, { acceptUnsigned: false }),
    });
    expect(failed).toContain('hearthnet.compat.float-repr-00');
    expect(failed).not.toContain('hearthnet.compat.float-repr-03');
    // `whitespace` differs from its sorted form only in key order; `nested-empty` is already sorted.
    expect(failed).toContain('hearthnet.compat.ascii-insertion-whitespace');
    expect(failed).not.toContain('hearthnet.compat.ascii-insertion-nested-empty');
    expect(failed).toContain('hearthnet.compat.event-verify-absent-signature-unsigned');
  });

  it('fails refusals with the wrong reason, and CIDs that always hash with BLAKE3', async () => {
    const failed = await failedCases({
      ...agentwireCompat,
      errorFacts: (error) => ({ ...agentwireCompat.errorFacts!(error), reason: 'invalid_json' }),
      blobCid: (chunkCids) => agentwireCompat.blobCid!(chunkCids, 'blake3'),
      manifestCid: (manifest) => agentwireCompat.manifestCid!(manifest, 'blake3'),
    });
    expect(failed).toContain('hearthnet.compat.invite-decode-wrong-prefix');
    expect(failed).not.toContain('hearthnet.compat.invite-decode-not-json');
    expect(failed).toContain('hearthnet.compat.blob-cid-sha256-fallback');
    expect(failed).toContain('hearthnet.compat.manifest-cid-sha256-fallback');
    expect(failed).not.toContain('hearthnet.compat.blob-cid-hello');
  });
});

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}

describe('compatSuite through registerSuite', () => {
  registerSuite(compatSuite(agentwireCompat), { describe, it, afterAll });
});
