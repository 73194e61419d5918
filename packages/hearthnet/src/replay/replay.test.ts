import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJsonString } from '../canonical-json/canonical-json.js';
import { replay } from './replay.js';
import {
  alice,
  bob,
  carol,
  communityId,
  dave,
  foundedCommunity,
  type LogBuilder,
  mallory,
  root,
} from './replay.test-support.js';
import { viewHash } from './views.js';

const NOW = Date.UTC(2026, 4, 26, 8, 30);

/** A log with every kind of event, concurrent Lamport values, and refused events. */
function busyLog(): LogBuilder {
  const log = foundedCommunity();
  const wood = log.post(dave, 'p-1');
  log.post(mallory, 'p-2', { lamport: 20 });
  log.post(alice, 'p-3', { lamport: 20 });
  log.add(dave, 'market.post.updated', {
    client_id: 'u-1',
    target_event_id: wood.event_id,
    fields: { body: '2 Ster' },
  });
  const hello = log.chat(dave, bob, 'c-1');
  log.add(bob, 'chat.message.delivered', {
    target_event_id: hello.event_id,
    delivered_at: '2026-05-26T08:10:00Z',
  });
  log.add(bob, 'chat.message.read', { target_event_id: hello.event_id, read_at: '2026-05-26T08:11:00Z' });
  log.add(carol, 'chat.message.read', { target_event_id: hello.event_id, read_at: '2026-05-26T08:12:00Z' });
  log.revoke(alice, mallory, [bob, carol], { lamport: 30 });
  log.post(mallory, 'p-4', { lamport: 30 });
  log.chat(mallory, dave, 'c-2');
  log.add(root, 'community.policy.updated', {
    policy: {
      min_signatures_to_invite: 1,
      min_signatures_to_demote: 2,
      min_signatures_to_revoke: 3,
      capability_token_ttl_seconds: 3600,
      federation_enabled: false,
      default_member_can_invite: false,
    },
  });
  log.add(alice, 'community.member.promoted', {
    target_node_id: dave.nodeId,
    new_level: 'trusted',
    co_signers: [],
  });
  log.post(dave, 'p-5', { lamport: 1_000, wallClockMs: Date.UTC(2026, 4, 26, 7, 0) });
  return log;
}

function fingerprint(events: readonly unknown[]): string {
  const { views, applied, rejected } = replay(events, { communityId, now: NOW });
  return canonicalJsonString({ views, applied, rejected });
}

describe('replay', () => {
  it('gives the same views in any of 100 delivery orders, with duplicates', () => {
    const events = busyLog().events;
    const expected = fingerprint(events);
    const hashes = replay(events, { communityId, now: NOW }).views;
    fc.assert(
      fc.property(
        fc.shuffledSubarray(events, { minLength: events.length, maxLength: events.length }),
        fc.array(fc.nat(events.length - 1), { maxLength: 10 }),
        (shuffled, repeats) => {
          const delivered = [...shuffled, ...repeats.map((i) => structuredClone(events[i]!))];
          const result = replay(delivered, { communityId, now: NOW });
          expect(fingerprint(delivered)).toBe(expected);
          expect(viewHash(result.views.membership)).toBe(viewHash(hashes.membership));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('applies the busy log as the rules say', () => {
    const result = replay(busyLog().events, { communityId, now: NOW });
    const { membership, marketplace, chat } = result.views;
    expect(membership?.members.map((m) => [m.node_id, m.level]).sort()).toEqual(
      [
        [root.nodeId, 'anchor'],
        [alice.nodeId, 'trusted'],
        [bob.nodeId, 'trusted'],
        [carol.nodeId, 'trusted'],
        [dave.nodeId, 'trusted'],
      ].sort(),
    );
    expect(membership?.revoked.map((r) => r.node_id)).toEqual([mallory.nodeId]);
    expect(membership?.head_lamport).toBe(1_000);
    expect(marketplace.posts.map((p) => p.client_id)).toEqual(['p-1', 'p-2', 'p-3']);
    expect(chat.messages).toHaveLength(1);
    expect(result.rejected.map((r) => r.reason).sort()).toEqual([
      'author_revoked',
      'author_revoked',
      'not_recipient',
    ]);
    expect(result.applied).toHaveLength(busyLog().events.length - 3);
  });

  it('refuses every version of an event_id that arrives with different contents', () => {
    const log = foundedCommunity();
    const post = log.post(dave, 'p-1');
    const clash = log.add(
      mallory,
      'market.post.created',
      { ...post.data, title: 'other' },
      { eventId: post.event_id },
    );
    const result = replay([...log.events, post], { communityId });
    expect(result.applied).not.toContain(post.event_id);
    expect(result.views.marketplace.posts).toEqual([]);
    expect(result.rejected).toEqual([
      expect.objectContaining({
        event_id: clash.event_id,
        reason: 'duplicate_event_id',
        code: 'bad_request',
      }),
    ]);
  });

  it('reports events that fail verification with their reason and code, and applies the rest', () => {
    const log = foundedCommunity();
    const post = log.post(dave, 'p-1');
    const tampered = { ...post, data: { ...post.data, title: 'changed' } };
    const result = replay([...log.events.slice(0, -1), tampered, { nonsense: true }, 42], { communityId });
    expect(result.rejected).toEqual([
      expect.objectContaining({ event_id: null, reason: 'malformed_envelope', code: 'bad_request' }),
      expect.objectContaining({ event_id: null, reason: 'malformed_envelope', code: 'bad_request' }),
      expect.objectContaining({
        event_id: post.event_id,
        reason: 'invalid_signature',
        code: 'invalid_signature',
      }),
    ]);
    expect(result.applied).toHaveLength(log.events.length - 1);
  });

  it('replays up to a Lamport head', () => {
    const log = foundedCommunity();
    log.post(dave, 'p-1', { lamport: 40 });
    const result = replay(log.events, { communityId, upToLamport: 39 });
    expect(result.views.marketplace.posts).toEqual([]);
    expect(result.views.membership?.head_lamport).toBe(log.events.at(-2)!.lamport);
  });

  it('has no membership view before community.created', () => {
    expect(replay([], { communityId }).views).toEqual({
      membership: null,
      marketplace: { posts: [] },
      chat: { messages: [] },
    });
  });

  it('throws invalid_replay_options for unusable options', () => {
    expect(() => replay([], { communityId: 'root' })).toThrow(
      expect.objectContaining({ code: 'invalid_replay_options' }),
    );
    expect(() => replay([], { communityId, now: Number.NaN })).toThrow(
      expect.objectContaining({ code: 'invalid_replay_options' }),
    );
    expect(() => replay([], { communityId, upToLamport: -1 })).toThrow(
      expect.objectContaining({ code: 'invalid_replay_options' }),
    );
  });
});

describe('viewHash', () => {
  it('is the BLAKE3 of the canonical JSON', () => {
    // Expected values from an independent pure-Python BLAKE3 (the fixture tools of @agentwire/conformance).
    expect(viewHash({})).toBe('blake3:6e46dd10defc9b56c29a6ec56b508c21f54c08192194e4df25bf36f0c9c3c279');
    expect(viewHash({ b: 1, a: [true, null] })).toBe(
      'blake3:f070bbc35d7f09691284af8700049714acfd802b7c65b4d8e6a838101ab9e049',
    );
    expect(viewHash({ a: 1 })).not.toBe(viewHash({ a: 2 }));
  });
});
