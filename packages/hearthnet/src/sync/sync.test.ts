// Acceptance (issue 7): nodes with their own event stores gossip over real loopback HTTP.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalJsonString } from '../canonical-json/canonical-json.js';
import type { SignedEvent } from '../events/event.js';
import { InMemoryEventStore } from '../events/event-store.js';
import { type ServedBusHandler, serveBusHandler } from '../node-http.js';
import { buildCommunityManifest } from '../replay/community-manifest.js';
import { replay } from '../replay/replay.js';
import {
  alice,
  bob,
  carol,
  communityId,
  dave,
  LogBuilder,
  mallory,
  root,
  T0,
} from '../replay/replay.test-support.js';
import { viewHash } from '../replay/views.js';
import { syncWith } from './sync-client.js';
import { createSyncHandler } from './sync-handler.js';

interface Node {
  readonly store: InMemoryEventStore;
  readonly served: ServedBusHandler;
}

const running: ServedBusHandler[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((served) => served.close()));
});

async function startNode(events: readonly SignedEvent[] = []): Promise<Node> {
  const store = new InMemoryEventStore();
  for (const event of events) await store.append(event);
  const served = await serveBusHandler(createSyncHandler({ store }));
  running.push(served);
  return { store, served };
}

/**
 * The acceptance scenario, each event on the node of its author: the founder creates the community
 * and admits three trusted co-signers and two members; the members post; mallory is revoked by
 * three trusted signatures on the founder's node while, on her own node, she goes on posting with
 * later Lamport values.
 */
function scenario() {
  const log = new LogBuilder();
  const founder = [
    log.create(),
    ...[alice, bob, carol].flatMap((key) => {
      const invite = log.invite(root, key, 'trusted');
      return [invite, log.join(key, invite)];
    }),
  ];
  const daveInvite = log.invite(root, dave);
  const malloryInvite = log.invite(root, mallory);
  founder.push(daveInvite, malloryInvite, log.join(dave, daveInvite), log.join(mallory, malloryInvite));
  const daves = [log.post(dave, 'd-1'), log.chat(dave, mallory, 'c-1')];
  const malloryBefore = log.post(mallory, 'm-1');
  const revocation = log.revoke(alice, mallory, [bob, carol]);
  const malloryAfter = log.post(mallory, 'm-2');
  const alices = [revocation, log.post(alice, 'a-1')];
  return {
    all: log.events,
    founderNode: [...founder, ...alices],
    daveNode: [...founder, ...daves],
    malloryNode: [...founder, malloryBefore, malloryAfter],
    revocation,
    malloryAfter,
  };
}

async function stateOf(node: Node) {
  const events = await node.store.list(communityId);
  const result = replay(events, { communityId, now: T0 });
  return {
    views: viewHash(result.views),
    manifest: canonicalJsonString(buildCommunityManifest(events, root, { communityId })),
    result,
  };
}

describe('gossip sync over loopback HTTP', () => {
  it('converges three nodes in any order; the revoked member’s later events are refused everywhere', async () => {
    const s = scenario();
    const expected = replay(s.all, { communityId, now: T0 });
    expect(expected.rejected.map((r) => [r.event_id, r.reason])).toEqual([
      [s.malloryAfter.event_id, 'author_revoked'],
    ]);
    const pairs: readonly (readonly [number, number])[] = [
      [0, 1],
      [1, 0],
      [0, 2],
      [2, 0],
      [1, 2],
      [2, 1],
    ];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...pairs), { minLength: 0, maxLength: 6 }), async (order) => {
        const nodes = [
          await startNode(s.founderNode),
          await startNode(s.daveNode),
          await startNode(s.malloryNode),
        ];
        // Random gossip first, then one round that reaches everyone (a line there and back).
        for (const [from, to] of [...order, [0, 1], [1, 2], [0, 1]] as const) {
          await syncWith(nodes[to]!.served.url, { store: nodes[from]!.store });
        }
        const states = await Promise.all(nodes.map(stateOf));
        for (const state of states) {
          expect(state.views).toBe(viewHash(expected.views));
          expect(state.manifest).toBe(states[0]!.manifest);
          expect(state.result.applied).not.toContain(s.malloryAfter.event_id);
        }
        // Stored only where it arrived before the revocation (mallory's own node at least), and
        // refused there by replay.
        for (const [index, node] of nodes.entries()) {
          const stored = await node.store.get(s.malloryAfter.event_id);
          if (index === 2) expect(stored).toBeDefined();
          if (stored === undefined) continue;
          expect((await stateOf(node)).result.rejected).toContainEqual(
            expect.objectContaining({ event_id: s.malloryAfter.event_id, reason: 'author_revoked' }),
          );
        }
        await Promise.all(running.splice(0).map((served) => served.close()));
      }),
      { numRuns: 8 },
    );
  });

  it('refuses a revoked member’s later event at a node that knows the revocation', async () => {
    const s = scenario();
    const founder = await startNode(s.founderNode);
    const mallorys = new InMemoryEventStore();
    for (const event of s.malloryNode) await mallorys.append(event);
    const [report] = await syncWith(founder.served.url, { store: mallorys });
    expect(report!.pushed.rejected).toEqual([
      expect.objectContaining({
        event_id: s.malloryAfter.event_id,
        reason: 'author_revoked',
        code: 'revoked',
      }),
    ]);
    expect(await founder.store.get(s.malloryAfter.event_id)).toBeUndefined();
    expect(report!.pulled.accepted).toContain(s.revocation.event_id);
  });

  it('converges histories that overlap in Lamport values (sending by id, not by range)', async () => {
    const log = new LogBuilder();
    log.create();
    log.admit(root, alice);
    log.admit(root, dave);
    const base = [...log.events];
    const head = base.at(-1)!.lamport;
    const ours = [log.post(alice, 'a', { lamport: head + 1 }), log.post(alice, 'b', { lamport: head + 2 })];
    const theirs = [log.post(dave, 'c', { lamport: head + 1 }), log.post(dave, 'd', { lamport: head + 2 })];
    const a = await startNode([...base, ...ours]);
    const b = await startNode([...base, ...theirs]);
    expect(await a.store.head(communityId)).toBe(await b.store.head(communityId));

    const [report] = await syncWith(b.served.url, { store: a.store, batchSize: 1, bucketWidth: 1 });
    expect([...report!.pulled.accepted].sort()).toEqual(theirs.map((e) => e.event_id).sort());
    expect([...report!.pushed.accepted].sort()).toEqual(ours.map((e) => e.event_id).sort());
    expect(report!.pushed.new_head_lamport).toBe(head + 2);
    expect(await a.store.count()).toBe(base.length + 4);
    expect((await stateOf(a)).views).toBe((await stateOf(b)).views);

    const [again] = await syncWith(b.served.url, { store: a.store });
    expect(again!.pulled.accepted).toEqual([]);
    expect(again!.pushed.accepted).toEqual([]);
  });
});
