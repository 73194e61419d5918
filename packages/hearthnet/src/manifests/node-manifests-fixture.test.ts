import { describe, expect, it } from 'vitest';
import { canonicalJsonString } from '../canonical-json/canonical-json.js';
import { decodeTagged, loadHearthnetFixture } from '../crypto/fixture-test-support.js';
import { keyPairFromSeed } from '../crypto/key-pair.js';
import type { NodeManifestInput } from './node-manifest.js';
import { buildNodeManifest, InMemoryPinStore, NodeManifestVerifier } from './node-manifest.js';

interface Case {
  readonly id: string;
  readonly operation: 'build' | 'verify';
  readonly [field: string]: unknown;
}

const fixture = loadHearthnetFixture<Case>('node-manifests.json');

describe('node-manifests.json', () => {
  it.each(fixture.cases.filter((c) => c.operation === 'build'))('$id', (c) => {
    const manifest = buildNodeManifest(
      c['input'] as NodeManifestInput,
      keyPairFromSeed(decodeTagged(c['seed']) as Uint8Array),
      { now: c['now_ms'] as number },
    );
    const { signature: _, ...unsigned } = manifest;
    expect(canonicalJsonString(unsigned)).toBe(c['canonical']);
    expect(manifest).toEqual(c['expected']);
  });

  it.each(fixture.cases.filter((c) => c.operation === 'verify'))('$id', async (c) => {
    const pins = ((c['pins'] ?? []) as { node_id: string; public_key: unknown }[]).map(
      ({ node_id, public_key }) => [node_id, decodeTagged(public_key) as Uint8Array] as const,
    );
    const verifier = new NodeManifestVerifier({
      pinStore: new InMemoryPinStore(pins),
      clock: () => c['now_ms'] as number,
    });
    const verdict = await verifier.verify(c['manifest']);
    if ('error' in c) {
      expect(verdict).toMatchObject({ valid: false, code: c['error'], reason: c['reason'] });
      await expect(verifier.accept(c['manifest'])).rejects.toMatchObject({ code: c['error'] });
    } else {
      expect(verdict).toMatchObject({ valid: true, manifest: c['manifest'] });
    }
  });
});
