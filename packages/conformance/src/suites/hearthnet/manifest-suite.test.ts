import { parseNodeId, verifyPayload } from '@agentwire/hearthnet';
import {
  NODE_MANIFEST_LIFETIME_MS,
  parseTimestamp,
  signedNodeManifestSchema,
} from '@agentwire/hearthnet/manifests';
import { describe, expect, it } from 'vitest';
import { runSuite } from '../../run-suite.js';
import { agentwireManifests } from './agentwire-manifests.js';
import { type ManifestImplementation, type ManifestVerdict, manifestSuite } from './manifest-suite.js';

/**
 * A hand-written verifier of §6.1 that can leave out one rule (as the reference leaves out several);
 * `'nothing'` keeps every rule.
 */
function verifierWithout(
  rule: 'lifetime' | 'expiry' | 'pins' | 'exact-contract-version' | 'nothing',
): ManifestImplementation {
  const refuse = (code: string, reason: string): ManifestVerdict => ({ valid: false, code, reason });
  return {
    verify: (value, { now, pins }) => {
      const parsed = signedNodeManifestSchema.safeParse(value);
      if (!parsed.success) return refuse('bad_request', 'malformed');
      const manifest = parsed.data;
      if (manifest.version !== 1) return refuse('bad_request', 'unsupported_version');
      const contractVersion = rule === 'exact-contract-version' ? /^1\./ : /^1\.\d+$/;
      if (!contractVersion.test(manifest.contract_version))
        return refuse('schema_mismatch', 'unsupported_contract_version');
      const issuedAt = parseTimestamp(manifest.issued_at);
      const expiresAt = parseTimestamp(manifest.expires_at);
      if (rule !== 'lifetime' && expiresAt - issuedAt !== NODE_MANIFEST_LIFETIME_MS)
        return refuse('bad_request', 'invalid_lifetime');
      if (!verifyPayload(value, manifest.node_id).valid)
        return refuse('invalid_signature', 'invalid_signature');
      if (rule !== 'expiry' && now >= expiresAt) return refuse('expired', 'expired');
      const pinned = pins.get(manifest.node_id);
      const key = parseNodeId(manifest.node_id);
      if (rule !== 'pins' && pinned !== undefined && !pinned.every((byte, i) => byte === key[i]))
        return refuse('invalid_signature', 'pinned_key_mismatch');
      return { valid: true };
    },
  };
}

async function failedCases(implementation: ManifestImplementation): Promise<string[]> {
  const report = await runSuite(manifestSuite(implementation));
  return report.results.filter((r) => r.status === 'failed').map((r) => r.id);
}

/** A refusal case and its `recommended` reason case. */
const refusal = (name: string) => [`hearthnet.manifests.${name}`, `hearthnet.manifests.${name}.reason`];

describe('manifestSuite', () => {
  it('passes every case against @agentwire/hearthnet', async () => {
    const report = await runSuite(manifestSuite(agentwireManifests));
    expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
    expect(report.counts.passed).toBe(manifestSuite(agentwireManifests).cases.length);
  });

  it('has a build case, required refusals with §9 codes and recommended reasons', () => {
    const cases = manifestSuite(agentwireManifests).cases;
    expect(cases.find((c) => c.id === 'hearthnet.manifests.build-garage-pc')?.requires).toBe('build');
    expect(cases.find((c) => c.id === 'hearthnet.manifests.pinned-key-conflict')?.level).toBe('required');
    expect(cases.find((c) => c.id === 'hearthnet.manifests.pinned-key-conflict.reason')?.level).toBe(
      'recommended',
    );
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
  });

  it('the hand-written verifier passes every verify case when it checks every rule', async () => {
    const report = await runSuite(manifestSuite(verifierWithout('nothing')));
    expect(report.results.filter((r) => r.status === 'failed')).toEqual([]);
    const skipped = report.results.filter((r) => r.status === 'skipped').map((r) => r.id);
    expect(skipped).toContain('hearthnet.manifests.build-garage-pc');
    expect(skipped.every((id) => id.startsWith('hearthnet.manifests.build-') || id.endsWith('.accept'))).toBe(
      true,
    );
  });

  it('fails a verifier that reads contract_version by its prefix, on 1.0.1 only', async () => {
    expect(await failedCases(verifierWithout('exact-contract-version'))).toEqual(
      refusal('contract-version-three-parts'),
    );
  });

  it('fails a verifier without the 30 s lifetime rule on the lifetime cases only', async () => {
    expect(await failedCases(verifierWithout('lifetime'))).toEqual([
      ...refusal('wrong-duration-29s'),
      ...refusal('wrong-duration-31s'),
      ...refusal('reference-24h-lifetime'),
    ]);
  });

  it('fails a verifier without expiry on the expired cases only', async () => {
    expect(await failedCases(verifierWithout('expiry'))).toEqual([
      ...refusal('expired-at-expires-at'),
      ...refusal('expired-long-after'),
      ...refusal('timestamps-with-milliseconds-expired'),
    ]);
  });

  it('fails a verifier without key pinning on the pinned-key conflict only', async () => {
    expect(await failedCases(verifierWithout('pins'))).toEqual(refusal('pinned-key-conflict'));
  });

  it('fails a verifier that drops the milliseconds of a timestamp, on the expiry at the fraction', async () => {
    const wholeSeconds: ManifestImplementation = {
      verify: (value, options) => {
        const { issued_at, expires_at } = value as { issued_at?: unknown; expires_at?: unknown };
        const expiry = typeof expires_at === 'string' ? Date.parse(expires_at.replace(/\.\d+Z$/, 'Z')) : 0;
        if (typeof issued_at === 'string' && issued_at.includes('.') && options.now >= expiry)
          return { valid: false, code: 'expired', reason: 'expired' };
        return agentwireManifests.verify(value, options);
      },
    };
    expect(await failedCases(wholeSeconds)).toEqual([
      'hearthnet.manifests.timestamps-with-milliseconds',
      'hearthnet.manifests.timestamps-with-centiseconds',
    ]);
  });

  it('fails an accept that refuses what verify accepts', async () => {
    const refusing: ManifestImplementation = {
      ...agentwireManifests,
      accept: async () => {
        throw Object.assign(new Error('refused'), { code: 'bad_request' });
      },
    };
    const failed = await failedCases(refusing);
    expect(failed).toContain('hearthnet.manifests.valid-at-issued-at.accept');
    expect(failed.every((id) => id.endsWith('.accept'))).toBe(true);
  });

  it('fails a build that signs input breaking the §6.1 shape', async () => {
    const lax: ManifestImplementation = {
      ...agentwireManifests,
      build: (input, seed, options) => agentwireManifests.build?.({ endpoints: [], ...input }, seed, options),
    };
    expect(await failedCases(lax)).toEqual(['hearthnet.manifests.build-refuses-missing-endpoints']);
  });

  it('fails a verifier that reports the wrong §9 code but not its reason case', async () => {
    const wrongCode: ManifestImplementation = {
      verify: async (value, options) => {
        const verdict = await agentwireManifests.verify(value, options);
        return verdict.valid || verdict.reason !== 'pinned_key_mismatch'
          ? verdict
          : { ...verdict, code: 'forbidden' };
      },
    };
    expect(await failedCases(wrongCode)).toEqual(['hearthnet.manifests.pinned-key-conflict']);
  });

  it('fails an accept that stores expired manifests, on the expired cases only', async () => {
    const lenientAccept: ManifestImplementation = {
      ...agentwireManifests,
      accept: async (value, options) => {
        const verdict = await agentwireManifests.verify(value, options);
        if (!verdict.valid && verdict.code !== 'expired')
          throw Object.assign(new Error(verdict.code), verdict);
        return value;
      },
    };
    expect(await failedCases(lenientAccept)).toEqual([
      'hearthnet.manifests.expired-at-expires-at.accept',
      'hearthnet.manifests.expired-long-after.accept',
      'hearthnet.manifests.timestamps-with-milliseconds-expired.accept',
    ]);
  });
});
