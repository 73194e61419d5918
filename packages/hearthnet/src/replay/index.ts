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
  HearthNetLocalError,
  type HearthNetLocalErrorCode,
  type HearthNetLocalErrorDetails,
  type HearthNetLocalErrorOptions,
} from '../errors.js';
export {
  type BuildCommunityManifestOptions,
  buildCommunityManifest,
  COMMUNITY_MANIFEST_VERSION,
  type CommunityManifestRejectionReason,
  type CommunityManifestVerdict,
  communityManifestSchema,
  type SignedCommunityManifest,
  type TrustFromLogOptions,
  trustFromLog,
  verifyCommunityManifest,
} from './community-manifest.js';
export { coSign, coSignatureIntent, PROMOTE_SIGNATURES, verifyCoSignature } from './membership-rules.js';
export {
  applyEvent,
  authorise,
  compareForReplay,
  type ReplayOptions,
  type ReplayResult,
  replay,
} from './replay.js';
export type { Authorisation, ReplayRejection, ReplayRejectionReason } from './replay-state.js';
export {
  type CommunityRecord,
  createReplayState,
  type InviteRecord,
  type MemberRecord,
  type MessageRecord,
  type MutableReplayState,
  type PostRecord,
  type ReplayState,
  type RevokedRecord,
} from './replay-state.js';
export {
  type ChatMessageEntry,
  type ChatView,
  chatView,
  MAX_POST_TTL_SECONDS,
  type MarketPostEntry,
  type MarketplaceView,
  type MemberEntry,
  type MembershipView,
  marketplaceView,
  membershipView,
  type ReplayViews,
  type RevokedEntry,
  viewHash,
} from './views.js';
