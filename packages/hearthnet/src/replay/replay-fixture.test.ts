import { describe, expect, it } from 'vitest';
import { canonicalJsonString } from '../canonical-json/canonical-json.js';
import { decodeTagged, loadHearthnetFixture } from '../crypto/fixture-test-support.js';
import { keyPairFromSeed } from '../crypto/key-pair.js';
import { buildCommunityManifest, verifyCommunityManifest } from './community-manifest.js';
import { replay } from './replay.js';
import { viewHash } from './views.js';

interface ReplayCase {
  readonly id: string;
  readonly operation: 'replay';
  readonly community_id: string;
  readonly now_ms: number;
  readonly events: readonly unknown[];
  readonly expected: {
    readonly applied: readonly string[];
    readonly rejected: readonly [string, string, string][];
    readonly views: { readonly [view: string]: unknown };
    readonly view_hashes: { readonly [view: string]: string };
  };
}

interface ManifestCase {
  readonly id: string;
  readonly operation: 'community-manifest';
  readonly community_id: string;
  readonly head_lamport: number | null;
  readonly seed: unknown;
  readonly events: readonly unknown[];
  readonly canonical: string;
  readonly expected: { readonly [field: string]: unknown };
}

const fixture = loadHearthnetFixture<ReplayCase | ManifestCase>('replay.json');
const replayCases = fixture.cases.filter((c): c is ReplayCase => c.operation === 'replay');
const manifestCases = fixture.cases.filter((c): c is ManifestCase => c.operation === 'community-manifest');

describe('replay.json', () => {
  it('covers every chain the issue names', () => {
    expect(replayCases.map((c) => c.id)).toEqual([
      'valid-chain',
      'reordered-with-duplicates',
      'tampered-join',
      'forged-co-signatures',
      'revoked-author',
      'duplicate-ids',
    ]);
    expect(manifestCases).toHaveLength(2);
  });

  it.each(replayCases)('$id', (c) => {
    const result = replay(c.events, { communityId: c.community_id, now: c.now_ms });
    expect(result.applied).toEqual(c.expected.applied);
    expect(result.rejected.map((r) => [r.event_id, r.reason, r.code])).toEqual(c.expected.rejected);
    expect(result.views).toEqual(c.expected.views);
    for (const [name, view] of Object.entries(result.views)) {
      expect(viewHash(view), name).toBe(c.expected.view_hashes[name]);
    }
  });

  it.each(manifestCases)('$id', (c) => {
    const key = keyPairFromSeed(decodeTagged(c.seed) as Uint8Array);
    const manifest = buildCommunityManifest(c.events, key, {
      communityId: c.community_id,
      ...(c.head_lamport === null ? {} : { headLamport: c.head_lamport }),
    });
    const { signature, ...body } = manifest;
    expect(canonicalJsonString(body)).toBe(c.canonical);
    expect(signature).toBe(c.expected['signature']);
    expect(manifest).toEqual(c.expected);
    expect(verifyCommunityManifest(c.expected, c.events)).toMatchObject({ valid: true, signer: key.nodeId });
  });
});
