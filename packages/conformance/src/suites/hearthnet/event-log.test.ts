import {
  createUlidFactory,
  InMemoryEventStore,
  type SignedEvent,
  verifyEvent,
} from '@agentwire/hearthnet/events';
import { replay } from '@agentwire/hearthnet/replay';
import { createSyncHandler, SYNC_PATHS } from '@agentwire/hearthnet/sync';
import { describe, expect, it } from 'vitest';
import eventsFixture from '../../../fixtures/hearthnet/events.json' with { type: 'json' };
import replayFixture from '../../../fixtures/hearthnet/replay.json' with { type: 'json' };
import syncFixture from '../../../fixtures/hearthnet/sync.json' with { type: 'json' };
import { readFixtureFile } from '../../fixtures/fixture-file.js';
import { runSuite } from '../../run-suite.js';
import { agentwireEventLog } from './agentwire-event-log.js';
import { type EventLogImplementation, eventLogSuite } from './event-log.js';

const hearthnet = agentwireEventLog;

async function failedCases(implementation: EventLogImplementation): Promise<Set<string>> {
  const report = await runSuite(eventLogSuite(implementation));
  return new Set(report.results.filter((r) => r.status === 'failed').map((r) => r.id));
}

const operationsOf = (cases: readonly { readonly [field: string]: unknown }[]) =>
  [...new Set(cases.map((c) => String(c['operation'])))].sort();

describe('eventLogSuite', () => {
  it('passes every case against @agentwire/hearthnet', async () => {
    const report = await runSuite(eventLogSuite(hearthnet));
    expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
    expect(report.counts.passed).toBe(eventLogSuite(hearthnet).cases.length);
  });

  it('runs fixtures with every chain, envelope operation and sync operation', () => {
    const chains = readFixtureFile(replayFixture, 'hearthnet/replay.json').cases;
    expect(chains.filter((c) => c['operation'] === 'replay').map((c) => c.id)).toEqual([
      'valid-chain',
      'reordered-with-duplicates',
      'tampered-join',
      'forged-co-signatures',
      'revoked-author',
      'duplicate-ids',
    ]);
    expect(chains.filter((c) => c['operation'] === 'community-manifest')).toHaveLength(2);
    expect(operationsOf(readFixtureFile(eventsFixture, 'hearthnet/events.json').cases)).toEqual(
      [
        'lamport',
        'replay-order',
        'sign-event',
        'ulid-decode',
        'ulid-encode',
        'ulid-monotonic',
        'verify-event',
      ].sort(),
    );
    const sync = readFixtureFile(syncFixture, 'hearthnet/sync.json').cases;
    expect(sync.filter((c) => c['operation'] === 'ingest').length).toBeGreaterThanOrEqual(12);
    expect(sync.filter((c) => c['operation'] === 'digests')).toHaveLength(3);
  });

  it('fails an implementation that applies everything', async () => {
    const naive: EventLogImplementation = {
      replay: (events, options) => {
        const result = replay(events, options);
        return {
          ...result,
          applied: [...result.applied, ...result.rejected.map((r) => r.event_id ?? '')],
          rejected: [],
        };
      },
    };
    const report = await runSuite(eventLogSuite(naive));
    const failed = report.results.filter((r) => r.status === 'failed').map((r) => r.id);
    expect(failed).toContain('hearthnet.event-log.revoked-author');
    expect(failed).toContain('hearthnet.event-log.forged-co-signatures');
    expect(failed).not.toContain('hearthnet.event-log.valid-chain');
    expect(report.results.filter((r) => r.status === 'skipped').map((r) => r.id)).toContain(
      'hearthnet.event-log.valid-chain.view-hashes',
    );
  });

  it('fails lower-case ULIDs, a factory that redraws randomness, and a receive rule without max', async () => {
    const failed = await failedCases({
      ...hearthnet,
      encodeUlid: async (timeMs, randomness) =>
        (await hearthnet.encodeUlid!(timeMs, randomness)).toLowerCase(),
      // Draws fresh randomness for every id instead of incrementing within the same millisecond.
      ulidFactory: (clock, random) => () => createUlidFactory({ clock, random: () => random() })(),
      lamport: { forSend: (counter) => counter + 1, afterReceive: (_counter, received) => received + 1 },
    });
    expect(failed).toContain('hearthnet.event-log.events.ulid-encode-spec-example');
    expect(failed).not.toContain('hearthnet.event-log.events.ulid-encode-zero');
    expect(failed).toContain('hearthnet.event-log.events.ulid-monotonic-same-ms-and-clock-back');
    expect(failed).toContain('hearthnet.event-log.events.lamport-send-and-receive');
    expect(failed).not.toContain('hearthnet.event-log.events.verify-tampered-data');
  });

  it('fails signing with a fresh event id, codes flattened to invalid_signature, and lamport-only order', async () => {
    const failed = await failedCases({
      ...hearthnet,
      signEvent: (unsigned, seed) => hearthnet.signEvent!({ ...unsigned, event_id: undefined }, seed),
      verifyEvent: async (event) => {
        const verdict = await hearthnet.verifyEvent!(event);
        return verdict.valid ? verdict : { ...verdict, code: 'invalid_signature' };
      },
      sortForReplay: (events) =>
        [...events].sort((a, b) => (a as SignedEvent).lamport - (b as SignedEvent).lamport),
    });
    expect(failed).toContain('hearthnet.event-log.events.event-community-created');
    expect(failed).toContain('hearthnet.event-log.events.verify-unknown-type');
    expect(failed).toContain('hearthnet.event-log.events.verify-schema-version-2');
    expect(failed).not.toContain('hearthnet.event-log.events.verify-tampered-data');
    expect(failed).not.toContain('hearthnet.event-log.events.verify-unknown-type.reason');
    expect(failed).toContain('hearthnet.event-log.events.replay-order-lamport-then-event-id');
  });

  it('fails a push that stores every verified event, digests on the default width, and a wrong signer', async () => {
    const failed = await failedCases({
      ...hearthnet,
      // Checks signatures but not what replay authorises.
      syncIngest: async (stored, communityId, pushed) => {
        const store = new InMemoryEventStore();
        for (const event of stored) await store.append(event as SignedEvent);
        const accepted: string[] = [];
        for (const event of pushed) {
          const verdict = verifyEvent(event);
          if (!verdict.valid || verdict.event.community_id !== communityId) continue;
          if ((await store.append(verdict.event)).status === 'appended')
            accepted.push(verdict.event.event_id);
        }
        const head = await store.head(communityId);
        return { accepted, rejected: [], new_head_lamport: head ?? null, stored: await store.count() };
      },
      // Leaves out bucket_width, so the node answers with its default of 64.
      syncDigests: async (events, communityId) => {
        const store = new InMemoryEventStore();
        for (const event of events) await store.append(event as SignedEvent);
        const response = await createSyncHandler({ store })(
          new Request(`http://node.invalid${SYNC_PATHS.digests}`, {
            method: 'POST',
            body: JSON.stringify({ community_id: communityId }),
          }),
        );
        return response.json();
      },
      verifyCommunityManifest: async (manifest, events) => {
        const verdict = await hearthnet.verifyCommunityManifest!(manifest, events);
        // Names the manifest's last member instead of the key whose signature verified.
        const members = (manifest as { members: { node_id: string }[] }).members;
        return { ...verdict, signer: members[members.length - 1]!.node_id };
      },
    });
    expect(failed).toContain('hearthnet.event-log.sync.revoked-author-push-all');
    expect(failed).toContain('hearthnet.event-log.sync.forged-co-signatures-push-tail');
    expect(failed).not.toContain('hearthnet.event-log.sync.valid-chain-push-all');
    expect(failed).toContain('hearthnet.event-log.sync.digests-width-4');
    expect(failed).not.toContain('hearthnet.event-log.sync.digests-width-64');
    expect(failed).toContain('hearthnet.event-log.community-manifest-at-head.verify');
  });

  it('fails a push that skips the community check, or keeps the stored event silently', async () => {
    const lax = await failedCases({
      ...hearthnet,
      // Another community's events are stored under it: the check that would refuse them is left out.
      syncIngest: (stored, _communityId, pushed) => {
        const [first] = pushed as { community_id?: string }[];
        return hearthnet.syncIngest!(stored, first?.community_id ?? _communityId, pushed);
      },
    });
    expect(lax).toContain('hearthnet.event-log.sync.push-to-other-community');
    const silent = await failedCases({
      ...hearthnet,
      // A different event under a stored id is dropped without a refusal.
      syncIngest: async (stored, communityId, pushed) => {
        const result = await hearthnet.syncIngest!(stored, communityId, pushed);
        return { ...result, rejected: result.rejected.filter((r) => r.reason !== 'duplicate_event_id') };
      },
    });
    expect(silent).toContain('hearthnet.event-log.sync.different-event-under-stored-id');
  });
});
