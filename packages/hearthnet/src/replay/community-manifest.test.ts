import { describe, expect, it } from 'vitest';
import { signPayload } from '../crypto/payload-signature.js';
import { buildCommunityManifest, verifyCommunityManifest } from './community-manifest.js';
import { replay } from './replay.js';
import {
  alice,
  bob,
  carol,
  communityId,
  dave,
  foundedCommunity,
  LogBuilder,
  root,
} from './replay.test-support.js';

describe('buildCommunityManifest', () => {
  it('signs the membership view at the head with version 1', () => {
    const log = foundedCommunity();
    const manifest = buildCommunityManifest(log.events, root, { communityId });
    const { signature, version, ...body } = manifest;
    expect(version).toBe(1);
    expect(body).toEqual(replay(log.events, { communityId }).views.membership);
    expect(signature).toMatch(/^ed25519:/);
    expect(verifyCommunityManifest(manifest, log.events)).toEqual({
      valid: true,
      manifest,
      signer: root.nodeId,
    });
  });

  it('derives at an earlier head and verifies against a longer log', () => {
    const log = foundedCommunity();
    const head = log.events.at(-1)!.lamport;
    log.revoke(alice, dave, [bob, carol]);
    const manifest = buildCommunityManifest(log.events, root, { communityId, headLamport: head });
    expect(manifest.head_lamport).toBe(head);
    expect(manifest.revoked).toEqual([]);
    expect(verifyCommunityManifest(manifest, log.events)).toMatchObject({ valid: true });
  });

  it('lets an anchor regenerate it, not a trusted member', () => {
    const log = foundedCommunity();
    const anchorLog = new LogBuilder();
    anchorLog.create();
    anchorLog.admit(root, alice, 'anchor');
    const byAnchor = buildCommunityManifest(anchorLog.events, alice, { communityId });
    expect(verifyCommunityManifest(byAnchor, anchorLog.events)).toMatchObject({
      valid: true,
      signer: alice.nodeId,
    });
    expect(() => buildCommunityManifest(log.events, bob, { communityId })).toThrow(
      expect.objectContaining({ code: 'unauthorized_signer' }),
    );
  });

  it('throws community_not_created without community.created', () => {
    expect(() => buildCommunityManifest([], root, { communityId })).toThrow(
      expect.objectContaining({ code: 'community_not_created' }),
    );
  });
});

describe('verifyCommunityManifest', () => {
  const log = foundedCommunity();
  const manifest = buildCommunityManifest(log.events, root, { communityId });

  it('refuses a manifest that differs from the replayed view', () => {
    const forged = signPayload({ ...manifest, members: manifest.members.slice(1) }, root);
    expect(verifyCommunityManifest(forged, log.events)).toMatchObject({
      valid: false,
      reason: 'mismatch',
      code: 'bad_request',
    });
  });

  it('refuses a manifest signed by a trusted member, or with a broken signature', () => {
    const byTrusted = signPayload({ ...manifest }, bob);
    expect(verifyCommunityManifest(byTrusted, log.events)).toMatchObject({ reason: 'invalid_signature' });
    const broken = { ...manifest, signature: byTrusted.signature };
    expect(verifyCommunityManifest(broken, log.events)).toMatchObject({ code: 'invalid_signature' });
  });

  it('refuses malformed manifests and logs without the community', () => {
    expect(verifyCommunityManifest({ ...manifest, extra: 1 }, log.events)).toMatchObject({
      reason: 'malformed',
    });
    expect(verifyCommunityManifest(null, log.events)).toMatchObject({
      reason: 'malformed',
      code: 'bad_request',
    });
    expect(verifyCommunityManifest(manifest, [])).toMatchObject({ reason: 'community_not_created' });
  });
});
