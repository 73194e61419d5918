import { describe, expect, it } from 'vitest';
import { createEvent } from '../events/event.js';
import { coSign } from './membership-rules.js';
import { authorise, replay } from './replay.js';
import {
  alice,
  bob,
  carol,
  communityId,
  dave,
  eve,
  foundedCommunity,
  LogBuilder,
  mallory,
  outsider,
  policy,
  root,
} from './replay.test-support.js';

const run = (log: LogBuilder) => replay(log.events, { communityId });

function refusalOf(log: LogBuilder, eventId: string) {
  const result = run(log);
  expect(result.applied).not.toContain(eventId);
  return result.rejected.find((rejection) => rejection.event_id === eventId);
}

const levelOf = (log: LogBuilder, key: { nodeId: string }) =>
  run(log).views.membership?.members.find((member) => member.node_id === key.nodeId)?.level;

describe('community.created', () => {
  it('makes the root key the founding anchor', () => {
    const log = new LogBuilder();
    const created = log.create();
    const membership = run(log).views.membership;
    expect(membership).toMatchObject({
      community_id: communityId,
      root_key: root.nodeId,
      name: 'Niederrhein Demo',
      created_at: created.wall_clock,
      lamport_at_creation: 1,
      policy,
      members: [
        { node_id: root.nodeId, level: 'anchor', added_at: created.wall_clock, added_by: root.nodeId },
      ],
      revoked: [],
      head_lamport: 1,
    });
  });

  it('is accepted once only', () => {
    const log = new LogBuilder();
    log.create();
    const again = log.create();
    expect(refusalOf(log, again.event_id)).toMatchObject({
      reason: 'community_exists',
      code: 'unauthorized',
    });
  });

  it('must come from the root key', () => {
    const log = new LogBuilder();
    const forged = log.add(alice, 'community.created', { name: 'x', founder_node_id: alice.nodeId, policy });
    expect(refusalOf(log, forged.event_id)).toMatchObject({ reason: 'not_root', code: 'unauthorized' });
    expect(run(log).views.membership).toBeNull();
  });

  it('comes before every other event', () => {
    const log = new LogBuilder();
    const early = log.post(root, 'p-1', { lamport: 1 });
    log.create();
    expect(refusalOf(log, early.event_id)).toMatchObject({
      reason: 'community_not_created',
      code: 'unauthorized',
    });
  });
});

describe('invites and joins', () => {
  it('admits an invitee at the invited level, added by the inviter', () => {
    const log = foundedCommunity();
    const joined = log.events.find(
      (event) => event.event_type === 'community.member.joined' && event.author === dave.nodeId,
    )!;
    expect(run(log).views.membership?.members).toContainEqual({
      node_id: dave.nodeId,
      level: 'member',
      added_at: joined.wall_clock,
      added_by: alice.nodeId,
    });
  });

  it('refuses events by non-members', () => {
    const log = foundedCommunity();
    const post = log.post(outsider, 'p-1');
    expect(refusalOf(log, post.event_id)).toMatchObject({ reason: 'not_a_member', code: 'unauthorized' });
  });

  it('lets only trusted members invite when default_member_can_invite is false', () => {
    const log = foundedCommunity();
    log.add(root, 'community.policy.updated', { policy: { ...policy, default_member_can_invite: false } });
    const byMember = log.invite(dave, outsider);
    const byTrusted = log.invite(alice, outsider);
    expect(refusalOf(log, byMember.event_id)).toMatchObject({
      reason: 'cannot_invite',
      code: 'unauthorized',
    });
    expect(run(log).applied).toContain(byTrusted.event_id);
  });

  it('refuses an invite above the inviter’s level', () => {
    const log = foundedCommunity();
    const invite = log.invite(dave, outsider, 'trusted');
    expect(refusalOf(log, invite.event_id)).toMatchObject({
      reason: 'insufficient_level',
      code: 'unauthorized',
    });
  });

  it('needs min_signatures_to_invite signers with the invite right', () => {
    const log = foundedCommunity();
    log.add(root, 'community.policy.updated', { policy: { ...policy, min_signatures_to_invite: 2 } });
    const alone = log.invite(alice, outsider);
    const intent = {
      invitee_node_id: outsider.nodeId,
      display_name: 'device',
      initial_level: 'member' as const,
      expires_at: '2026-05-27T00:00:00Z',
    };
    const paired = log.add(alice, 'community.member.invited', {
      ...intent,
      co_signers: [coSign(intent, bob)],
    });
    expect(refusalOf(log, alone.event_id)).toMatchObject({ reason: 'insufficient_signatures' });
    expect(run(log).applied).toContain(paired.event_id);
  });

  it('refuses a join by someone else, without an invite, or after the invite expired', () => {
    const log = foundedCommunity();
    const invite = log.invite(alice, outsider);
    const thief = log.join(mallory, invite);
    const unknown = log.add(outsider, 'community.member.joined', {
      invite_event_id: '01ARYZ6S410000000000000000',
      node_manifest: thief.data.node_manifest,
    });
    const late = log.join(outsider, invite, { wallClockMs: Date.UTC(2026, 4, 27) });
    expect(refusalOf(log, thief.event_id)).toMatchObject({ reason: 'already_member', code: 'bad_request' });
    expect(refusalOf(log, unknown.event_id)).toMatchObject({ reason: 'invite_not_found', code: 'not_found' });
    expect(refusalOf(log, late.event_id)).toMatchObject({ reason: 'invite_expired', code: 'expired' });
  });

  it('refuses a join carrying someone else’s manifest', () => {
    const log = foundedCommunity();
    const invite = log.invite(alice, outsider);
    const other = log.events.find((event) => event.event_type === 'community.member.joined')!;
    const joined = log.add(outsider, 'community.member.joined', {
      invite_event_id: invite.event_id,
      node_manifest: (other as typeof other & { event_type: 'community.member.joined' }).data.node_manifest,
    });
    expect(refusalOf(log, joined.event_id)).toMatchObject({ reason: 'manifest_mismatch' });
  });

  it('refuses a join by a node that is not the invitee', () => {
    const log = foundedCommunity();
    const invite = log.invite(alice, outsider);
    const joined = log.join(eve, invite);
    expect(refusalOf(log, joined.event_id)).toMatchObject({ reason: 'not_invitee', code: 'unauthorized' });
  });
});

describe('community.member.revoked', () => {
  it('revokes with three trusted co-signers and rejects the target’s later events', () => {
    const log = foundedCommunity();
    const revoke = log.revoke(alice, mallory, [alice, bob, carol]);
    const later = log.post(mallory, 'p-1');
    const result = run(log);
    expect(result.applied).toContain(revoke.event_id);
    expect(result.views.membership?.revoked).toEqual([
      { node_id: mallory.nodeId, revoked_at: revoke.wall_clock },
    ]);
    expect(result.views.membership?.members.map((m) => m.node_id)).not.toContain(mallory.nodeId);
    expect(result.rejected).toContainEqual(
      expect.objectContaining({ event_id: later.event_id, reason: 'author_revoked', code: 'revoked' }),
    );
  });

  it('counts the author as a signer: author plus two co-signers is three', () => {
    const log = foundedCommunity();
    const revoke = log.revoke(alice, mallory, [bob, carol]);
    expect(run(log).applied).toContain(revoke.event_id);
  });

  it('needs min_signatures_to_revoke distinct trusted signers', () => {
    const log = foundedCommunity();
    const twice = log.revoke(alice, mallory, [alice, bob, bob]);
    const withMember = log.revoke(alice, mallory, [bob, dave]);
    expect(refusalOf(log, twice.event_id)).toMatchObject({
      reason: 'insufficient_signatures',
      code: 'unauthorized',
    });
    expect(refusalOf(log, withMember.event_id)).toMatchObject({ reason: 'insufficient_signatures' });
  });

  it('refuses forged co-signatures with invalid_signature', () => {
    const log = foundedCommunity();
    const intent = { target_node_id: mallory.nodeId, reason: 'compromised' };
    const forged = coSign({ ...intent, reason: 'other' }, carol);
    const revoke = log.add(alice, 'community.member.revoked', {
      ...intent,
      co_signers: [coSign(intent, alice), coSign(intent, bob), forged],
    });
    expect(refusalOf(log, revoke.event_id)).toMatchObject({
      reason: 'invalid_co_signature',
      code: 'invalid_signature',
    });
  });

  it('refuses a revocation by a plain member, of the root, of a stranger or twice', () => {
    const log = foundedCommunity();
    const byMember = log.revoke(dave, mallory, [alice, bob, carol]);
    const ofRoot = log.revoke(alice, root, [alice, bob, carol]);
    const ofStranger = log.revoke(alice, outsider, [alice, bob, carol]);
    log.revoke(alice, mallory, [alice, bob, carol]);
    const twice = log.revoke(bob, mallory, [alice, bob, carol]);
    expect(refusalOf(log, byMember.event_id)).toMatchObject({ reason: 'insufficient_level' });
    expect(refusalOf(log, ofRoot.event_id)).toMatchObject({ reason: 'target_is_root' });
    expect(refusalOf(log, ofStranger.event_id)).toMatchObject({
      reason: 'target_not_found',
      code: 'not_found',
    });
    expect(refusalOf(log, twice.event_id)).toMatchObject({ reason: 'already_revoked' });
  });

  it('applies a revocation before the revoked party’s events of the same Lamport value', () => {
    const log = foundedCommunity();
    const post = log.post(mallory, 'p-1', { lamport: 50 });
    const revoke = log.revoke(alice, mallory, [alice, bob, carol], { lamport: 50 });
    // The post's id sorts first (its ULID time is the same, its counter lower); the revocation still wins.
    expect(post.event_id < revoke.event_id).toBe(true);
    expect(refusalOf(log, post.event_id)).toMatchObject({ reason: 'author_revoked', code: 'revoked' });
  });

  it('keeps the revoked party’s earlier events and cancels its pending invites', () => {
    const log = foundedCommunity();
    const earlier = log.post(mallory, 'p-1');
    const invite = log.invite(mallory, outsider);
    log.revoke(alice, mallory, [alice, bob, carol]);
    const joined = log.join(outsider, invite);
    const result = run(log);
    expect(result.views.marketplace.posts.map((p) => p.event_id)).toEqual([earlier.event_id]);
    expect(refusalOf(log, joined.event_id)).toMatchObject({ reason: 'invite_not_found' });
  });

  it('refuses a rejoin of a revoked node', () => {
    const log = foundedCommunity();
    log.revoke(alice, mallory, [alice, bob, carol]);
    const invite = log.invite(alice, mallory);
    expect(refusalOf(log, invite.event_id)).toMatchObject({ reason: 'target_revoked', code: 'revoked' });
  });
});

describe('promotion and demotion', () => {
  it('promotes with one trusted signature (the author’s)', () => {
    const log = foundedCommunity();
    log.add(alice, 'community.member.promoted', {
      target_node_id: dave.nodeId,
      new_level: 'trusted',
      co_signers: [],
    });
    expect(levelOf(log, dave)).toBe('trusted');
  });

  it('refuses a promotion by a member, above the author’s level, or that does not raise', () => {
    const log = foundedCommunity();
    const byMember = log.add(dave, 'community.member.promoted', {
      target_node_id: mallory.nodeId,
      new_level: 'trusted',
      co_signers: [],
    });
    const toAnchor = log.add(alice, 'community.member.promoted', {
      target_node_id: dave.nodeId,
      new_level: 'anchor',
      co_signers: [],
    });
    const sideways = log.add(alice, 'community.member.promoted', {
      target_node_id: bob.nodeId,
      new_level: 'trusted',
      co_signers: [],
    });
    expect(refusalOf(log, byMember.event_id)).toMatchObject({ reason: 'insufficient_level' });
    expect(refusalOf(log, toAnchor.event_id)).toMatchObject({ reason: 'insufficient_level' });
    expect(refusalOf(log, sideways.event_id)).toMatchObject({
      reason: 'invalid_level_change',
      code: 'bad_request',
    });
  });

  it('demotes with min_signatures_to_demote trusted signers, never the root', () => {
    const log = foundedCommunity();
    const intent = { target_node_id: carol.nodeId, new_level: 'member' as const };
    const short = log.add(alice, 'community.member.demoted', {
      ...intent,
      co_signers: [coSign(intent, bob)],
    });
    expect(refusalOf(log, short.event_id)).toMatchObject({ reason: 'insufficient_signatures' });
    log.add(alice, 'community.member.demoted', {
      ...intent,
      co_signers: [coSign(intent, bob), coSign(intent, root)],
    });
    expect(levelOf(log, carol)).toBe('member');
    const rootIntent = { target_node_id: root.nodeId, new_level: 'member' as const };
    const ofRoot = log.add(alice, 'community.member.demoted', {
      ...rootIntent,
      co_signers: [coSign(rootIntent, bob), coSign(rootIntent, root)],
    });
    expect(refusalOf(log, ofRoot.event_id)).toMatchObject({ reason: 'target_is_root' });
  });
});

describe('policy and node manifests', () => {
  it('lets only the root key update the policy, last writer wins', () => {
    const log = foundedCommunity();
    const byAnchor = log.add(alice, 'community.policy.updated', {
      policy: { ...policy, federation_enabled: false },
    });
    log.add(root, 'community.policy.updated', { policy: { ...policy, capability_token_ttl_seconds: 60 } });
    log.add(root, 'community.policy.updated', { policy: { ...policy, capability_token_ttl_seconds: 120 } });
    expect(refusalOf(log, byAnchor.event_id)).toMatchObject({ reason: 'not_root', code: 'unauthorized' });
    expect(run(log).views.membership?.policy.capability_token_ttl_seconds).toBe(120);
  });

  it('accepts node.manifest.updated only for the author’s own signed manifest', () => {
    const log = foundedCommunity();
    const own = log.events.find(
      (event) => event.event_type === 'community.member.joined' && event.author === bob.nodeId,
    );
    const manifest = (own as typeof own & { event_type: 'community.member.joined' }).data.node_manifest;
    const ok = log.add(bob, 'node.manifest.updated', { manifest });
    const foreign = log.add(alice, 'node.manifest.updated', { manifest });
    const tampered = log.add(bob, 'node.manifest.updated', {
      manifest: { ...manifest, display_name: 'evil' },
    });
    expect(run(log).applied).toContain(ok.event_id);
    expect(refusalOf(log, foreign.event_id)).toMatchObject({ reason: 'not_manifest_owner' });
    expect(refusalOf(log, tampered.event_id)).toMatchObject({ code: 'invalid_signature' });
  });
});

describe('reference-only types and other communities', () => {
  it('lets a member leave, refuses community.member.removed', () => {
    const log = foundedCommunity();
    log.add(dave, 'community.member.left', {});
    const removed = log.add(alice, 'community.member.removed', { target_node_id: mallory.nodeId });
    expect(levelOf(log, dave)).toBeUndefined();
    expect(refusalOf(log, removed.event_id)).toMatchObject({
      reason: 'unsupported_event',
      code: 'unauthorized',
    });
  });

  it('refuses an event of another community', () => {
    const log = foundedCommunity();
    const state = run(log).state;
    const foreign = createEvent(
      {
        community_id: alice.nodeId,
        event_type: 'file.cid.unpinned',
        data: { cid: `blake3:${'ab'.repeat(32)}` },
        lamport: 99,
      },
      alice,
    );
    expect(authorise(foreign, state)).toMatchObject({ authorised: false, reason: 'wrong_community' });
  });
});
