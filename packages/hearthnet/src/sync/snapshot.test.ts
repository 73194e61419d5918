import { describe, expect, it } from 'vitest';
import { replay } from '../replay/replay.js';
import {
  alice,
  bob,
  carol,
  communityId,
  dave,
  eve,
  foundedCommunity,
  mallory,
  root,
  T0,
} from '../replay/replay.test-support.js';
import { viewHash } from '../replay/views.js';
import { buildSnapshot, restoreSnapshot, verifySnapshot } from './snapshot.js';

function scenario() {
  const log = foundedCommunity();
  const post = log.post(dave, 'p-1');
  log.chat(dave, mallory, 'c-1');
  const cut = log.post(mallory, 'p-2').lamport;
  log.add(dave, 'market.post.updated', {
    client_id: 'p-1',
    target_event_id: post.event_id,
    fields: { title: 'new' },
  });
  log.revoke(alice, mallory, [bob, carol]);
  log.post(mallory, 'p-3');
  log.add(dave, 'market.post.expired', {
    client_id: 'p-1',
    target_event_id: post.event_id,
    reason: 'fulfilled',
  });
  return { log, cut };
}

describe('snapshots', () => {
  it('restore plus the tail gives the views of a full replay', () => {
    const { log, cut } = scenario();
    const snapshot = buildSnapshot(log.events, root, { communityId, atLamport: cut, now: T0 });
    expect(snapshot.covers_events_up_to).toBe(cut);
    expect(verifySnapshot(snapshot, { events: log.events })).toMatchObject({
      valid: true,
      signer: root.nodeId,
    });
    const tail = log.events.filter((event) => event.lamport > cut);
    const restored = restoreSnapshot(JSON.parse(JSON.stringify(snapshot)), tail, {
      events: log.events,
      now: T0,
    });
    const full = replay(log.events, { communityId, now: T0 });
    expect(full.rejected.map((r) => r.reason)).toEqual(['author_revoked']);
    expect(viewHash(restored.views)).toBe(viewHash(full.views));
    expect(restored.applied).toEqual(full.applied.slice(full.applied.length - restored.applied.length));
    expect(restored.rejected.map((r) => r.reason)).toEqual(
      full.rejected.filter((r) => tail.some((e) => e.event_id === r.event_id)).map((r) => r.reason),
    );
  });

  it('is signed by an anchor only', () => {
    const { log } = scenario();
    expect(() => buildSnapshot(log.events, alice, { communityId })).toThrow(
      expect.objectContaining({ code: 'unauthorized_signer' }),
    );
  });

  it('refuses a tampered state or signature', () => {
    const { log } = scenario();
    const snapshot = buildSnapshot(log.events, root, { communityId, now: T0 });
    const membership = snapshot.state.views.membership!;
    expect(verifySnapshot({ ...snapshot, wall_clock: '2030-01-01T00:00:00Z' }, { membership })).toMatchObject(
      {
        valid: false,
        reason: 'invalid_signature',
      },
    );
    const views = { ...snapshot.state.views, chat: { messages: [] } };
    expect(
      verifySnapshot({ ...snapshot, state: { ...snapshot.state, views } }, { membership }),
    ).toMatchObject({
      valid: false,
      reason: 'inconsistent_state',
    });
    expect(verifySnapshot({ ...snapshot, covers_events_up_to: 1 }, { membership })).toMatchObject({
      reason: 'malformed',
    });
    expect(verifySnapshot({ ...snapshot, lamport: 'x' }, { membership })).toMatchObject({
      reason: 'malformed',
    });
    expect(() => restoreSnapshot({}, [], { membership })).toThrow(
      expect.objectContaining({ code: 'invalid_snapshot' }),
    );
  });

  it('refuses a snapshot whose state differs from the trusted events', () => {
    const { log, cut } = scenario();
    const snapshot = buildSnapshot(log.events, root, { communityId, atLamport: cut, now: T0 });
    const fewer = log.events.filter((event) => event.lamport !== cut);
    expect(verifySnapshot(snapshot, { events: fewer })).toMatchObject({ valid: false, reason: 'mismatch' });
  });

  it('needs the signer to be an anchor in the trusted membership', () => {
    const log = foundedCommunity();
    const before = replay(log.events, { communityId }).views.membership!;
    log.admit(root, eve, 'anchor');
    const snapshot = buildSnapshot(log.events, eve, { communityId, now: T0 });
    expect(verifySnapshot(snapshot, { events: log.events })).toMatchObject({
      valid: true,
      signer: eve.nodeId,
    });
    expect(verifySnapshot(snapshot, { membership: before })).toMatchObject({
      valid: false,
      reason: 'signer_not_anchor',
    });
    expect(verifySnapshot(snapshot, { membership: { ...before, community_id: alice.nodeId } })).toMatchObject(
      { reason: 'wrong_community' },
    );
  });
});
