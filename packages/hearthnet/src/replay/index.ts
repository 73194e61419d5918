/**
 * `@agentwire/hearthnet/replay` — the community log's trust rules and its deterministic replay
 * (contract §6.2, §7.2, §7.4, §4.17–§4.18): who may produce each event type, replay into the
 * membership, marketplace and chat views, view hashes, and the community manifest derived from the
 * log and verified by replaying it.
 *
 * @example
 * ```ts
 * import { buildCommunityManifest, replay, viewHash } from '@agentwire/hearthnet/replay';
 *
 * const events = await store.list(communityId);
 * const { views, rejected } = replay(events, { communityId, now: Date.now() });
 * viewHash(views.membership); // equal on every node holding the same events
 * const manifest = buildCommunityManifest(events, rootKey, { communityId });
 * ```
 *
 * @packageDocumentation
 */
export {
  type BuildCommunityManifestOptions,
  buildCommunityManifest,
  type SignedCommunityManifest,
  type TrustFromLogOptions,
  trustFromLog,
  verifyCommunityManifest,
} from './community-manifest.js';
export { coSign } from './membership-rules.js';
export { authorise, compareForReplay, type ReplayOptions, replay } from './replay.js';
export { viewHash } from './views.js';
