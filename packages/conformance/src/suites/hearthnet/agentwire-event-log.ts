import { keyPairFromSeed } from '@agentwire/hearthnet';
import {
  createEvent,
  createUlidFactory,
  type EventType,
  InMemoryEventStore,
  lamportRules,
  type SignedEvent,
  sortForReplay,
  verifyEvent,
} from '@agentwire/hearthnet/events';
import {
  buildCommunityManifest,
  replay,
  verifyCommunityManifest,
  viewHash,
} from '@agentwire/hearthnet/replay';
import { createSyncHandler, ingestEvents, SYNC_PATHS } from '@agentwire/hearthnet/sync';
import type { EventLogImplementation } from './event-log.js';

/** A store holding `events`, appended as they are (the sync cases' starting state). */
async function storeWith(events: readonly unknown[]): Promise<InMemoryEventStore> {
  const store = new InMemoryEventStore();
  for (const event of events) await store.append(event as SignedEvent);
  return store;
}

/**
 * `eventLogSuite`'s view of `@agentwire/hearthnet`: replay, view hashes and community manifests from
 * `./replay`; ULIDs, Lamport rules, event signing, verification and replay order from `./events`; and
 * gossip sync from `./sync` — pushes through `ingestEvents`, digests through the `createSyncHandler`
 * request handler, as a peer would ask for them.
 */
export const agentwireEventLog: EventLogImplementation = {
  replay: (events, options) => replay(events, options),
  viewHash,
  buildCommunityManifest: (events, seed, options) =>
    buildCommunityManifest(events, keyPairFromSeed(seed), options),
  verifyCommunityManifest: (manifest, events) => verifyCommunityManifest(manifest, events),
  encodeUlid: (timeMs, randomness) => createUlidFactory({ clock: () => timeMs, random: () => randomness })(),
  ulidFactory: (clock, random) => createUlidFactory({ clock, random: () => random() }),
  lamport: lamportRules,
  signEvent: (unsigned, seed) =>
    createEvent(
      {
        community_id: unsigned['community_id'] as string,
        event_type: unsigned['event_type'] as EventType,
        data: unsigned['data'] as never,
        lamport: unsigned['lamport'] as number,
        event_id: unsigned['event_id'] as string,
        wall_clock: unsigned['wall_clock'] as string,
      },
      keyPairFromSeed(seed),
    ),
  verifyEvent: (event) => verifyEvent(event),
  sortForReplay: (events) => sortForReplay(events as SignedEvent[]),
  syncIngest: async (stored, communityId, pushed) => {
    const store = await storeWith(stored);
    const result = await ingestEvents(store, communityId, pushed);
    return { ...result, stored: await store.count() };
  },
  syncDigests: async (events, communityId, bucketWidth) => {
    const handle = createSyncHandler({ store: await storeWith(events) });
    const response = await handle(
      new Request(`http://node.invalid${SYNC_PATHS.digests}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ community_id: communityId, bucket_width: bucketWidth }),
      }),
    );
    return response.json();
  },
};
