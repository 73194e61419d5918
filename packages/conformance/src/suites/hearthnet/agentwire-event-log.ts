import { keyPairFromSeed } from '@agentwire/hearthnet';
import { buildCommunityManifest, replay, viewHash } from '@agentwire/hearthnet/replay';
import type { EventLogImplementation } from './event-log.js';

/** `eventLogSuite`'s view of `@agentwire/hearthnet/replay`: replay, view hashes, community manifests. */
export const agentwireEventLog: EventLogImplementation = {
  replay: (events, options) => replay(events, options),
  viewHash,
  buildCommunityManifest: (events, seed, options) =>
    buildCommunityManifest(events, keyPairFromSeed(seed), options),
};
