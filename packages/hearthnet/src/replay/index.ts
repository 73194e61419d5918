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
export { applyEvent, authorise } from './authorise.js';
export { coSign, coSignatureIntent, verifyCoSignature } from './co-signatures.js';
export {
  type BuildCommunityManifestOptions,
  buildCommunityManifest,
  COMMUNITY_MANIFEST_VERSION,
  type CommunityManifestRejectionReason,
  type CommunityManifestVerdict,
  communityManifestSchema,
  type SignedCommunityManifest,
  verifyCommunityManifest,
} from './community-manifest.js';
export { type TrustFromLogOptions, trustFromLog } from './log-trust.js';
export { PROMOTE_SIGNATURES } from './membership-rules.js';
export { MAX_POST_TTL_SECONDS } from './post-expiry.js';
export type { Authorisation, ReplayRejection, ReplayRejectionReason } from './rejection.js';
export { type ReplayOptions, type ReplayResult, replay } from './replay.js';
export { compareForReplay } from './replay-order.js';
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
export { viewHash } from './view-hash.js';
export {
  type ChatMessageEntry,
  type ChatView,
  chatView,
  type MarketPostEntry,
  type MarketplaceView,
  type MemberEntry,
  type MembershipView,
  marketplaceView,
  membershipView,
  type ReplayViews,
  type RevokedEntry,
} from './views.js';
