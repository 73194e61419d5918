import type { HearthNetErrorCode } from '../capabilities/hearthnet-errors.js';
import type { EventRejectionReason } from '../errors.js';
import type { CommunityPolicy, EventData, EventType, MemberLevel, SignedEvent } from '../events/event.js';

/** The community as `community.created` founded it, with the policy in force. */
export interface CommunityRecord {
  readonly name: string;
  /** The root key: the community id and the author of `community.created`. */
  readonly root_key: string;
  /** `wall_clock` of `community.created`. */
  readonly created_at: string;
  /** `lamport` of `community.created`. */
  readonly lamport_at_creation: number;
  /** The policy of `community.created`, or of the last `community.policy.updated` (last writer wins). */
  policy: CommunityPolicy;
}

/** A member (contract §6.2 `members[]`). */
export interface MemberRecord {
  readonly node_id: string;
  level: MemberLevel;
  /** `wall_clock` of the event that made the node a member (`community.member.joined`, or `community.created` for the founder). */
  readonly added_at: string;
  /** The inviter (the root key for the founder). */
  readonly added_by: string;
}

/** A revoked node (contract §6.2 `revoked[]`). */
export interface RevokedRecord {
  readonly node_id: string;
  /** `wall_clock` of the `community.member.revoked` event. */
  readonly revoked_at: string;
}

/** An invite not yet redeemed by `community.member.joined`. */
export interface InviteRecord {
  readonly event_id: string;
  readonly inviter: string;
  readonly invitee: string;
  readonly initial_level: MemberLevel;
  readonly expires_at: string;
}

/** A market post as created and updated, whether or not it has ended. */
export interface PostRecord {
  readonly event_id: string;
  readonly lamport: number;
  readonly author: string;
  readonly created_at: string;
  /** The `market.post.created` data with every `market.post.updated` merged in. */
  data: EventData<'market.post.created'>;
  /** Lamport of the last applied update. */
  updated_lamport?: number;
  /** Set by `market.post.expired`: the post is no longer current. */
  ended: boolean;
}

/** A chat message and its receipts. */
export interface MessageRecord {
  readonly event_id: string;
  readonly lamport: number;
  readonly from: string;
  readonly created_at: string;
  readonly data: EventData<'chat.message.sent'>;
  delivered_at?: string;
  read_at?: string;
}

/**
 * Everything replay has derived so far: what {@link authorise} judges an event against. Read-only to
 * callers; replay owns the only writable copy.
 */
export interface ReplayState {
  readonly communityId: string;
  /** Undefined until a valid `community.created` is applied. */
  readonly community: Readonly<CommunityRecord> | undefined;
  readonly members: ReadonlyMap<string, Readonly<MemberRecord>>;
  readonly revoked: ReadonlyMap<string, RevokedRecord>;
  /** Pending invites by the invite event's id. */
  readonly invites: ReadonlyMap<string, InviteRecord>;
  /** Market posts by the creating event's id. */
  readonly posts: ReadonlyMap<string, Readonly<PostRecord>>;
  /** Chat messages by the sending event's id. */
  readonly messages: ReadonlyMap<string, Readonly<MessageRecord>>;
  /** The highest Lamport value applied (undefined before the first event). */
  readonly headLamport: number | undefined;
}

/** The writable state replay threads through the rules. */
export interface MutableReplayState extends ReplayState {
  community: CommunityRecord | undefined;
  readonly members: Map<string, MemberRecord>;
  readonly revoked: Map<string, RevokedRecord>;
  readonly invites: Map<string, InviteRecord>;
  readonly posts: Map<string, PostRecord>;
  readonly messages: Map<string, MessageRecord>;
  /** `clientKey` of every applied post and message, for idempotency. */
  readonly clientIds: Set<string>;
  headLamport: number | undefined;
}

/** An empty state for the community `communityId` (its root key). */
export function createReplayState(communityId: string): MutableReplayState {
  return {
    communityId,
    community: undefined,
    members: new Map(),
    revoked: new Map(),
    invites: new Map(),
    posts: new Map(),
    messages: new Map(),
    clientIds: new Set(),
    headLamport: undefined,
  };
}

/** The rank of a level: member < trusted < anchor. */
export function levelRank(level: MemberLevel): number {
  return level === 'member' ? 0 : level === 'trusted' ? 1 : 2;
}

/** Whether `nodeId` is a current member at `trusted` or above (a moderator and possible co-signer). */
export function isTrusted(state: ReplayState, nodeId: string): boolean {
  const member = state.members.get(nodeId);
  return member !== undefined && levelRank(member.level) >= levelRank('trusted');
}

/** The idempotency key of a post or a message: its kind and the author's own `client_id`. */
export function clientKey(kind: 'post' | 'message', author: string, clientId: string): string {
  return `${kind}\u0000${author}\u0000${clientId}`;
}

/**
 * Why replay refused an event. The envelope reasons come from `verifyEvent`
 * ({@link EventRejectionReason}); the others are the trust rules of contract §7.2 and §4.17–§4.18:
 * - `duplicate_event_id` (`bad_request`): another, different event carries the same `event_id`;
 * - `wrong_community` (`bad_request`): the event, or a manifest in it, names another community;
 * - `community_not_created` (`unauthorized`): no valid `community.created` replays before it;
 * - `community_exists` (`unauthorized`): a second `community.created`;
 * - `not_root` (`unauthorized`): only the root key may create the community or update the policy;
 * - `author_revoked` (`revoked`): the author was revoked before this event (§7.4);
 * - `not_a_member` (`unauthorized`): the author is not a member;
 * - `insufficient_level` (`unauthorized`): the author's level does not allow this action;
 * - `cannot_invite` (`unauthorized`): the policy gives members no invite right;
 * - `insufficient_signatures` (`unauthorized`): fewer distinct trusted signers than the policy asks;
 * - `invalid_co_signature` (`invalid_signature`): a co-signature does not verify over the intent;
 * - `invite_not_found` (`not_found`), `invite_expired` (`expired`), `not_invitee` (`unauthorized`),
 *   `manifest_mismatch` (`bad_request`): a `community.member.joined` that does not redeem its invite;
 * - `already_member`, `already_revoked`, `invalid_level_change`, `target_is_root` (`bad_request`),
 *   `target_revoked` (`revoked`), `target_not_found` (`not_found`): a membership change that does
 *   not fit the target's state;
 * - `post_not_found`, `post_ended`, `message_not_found`, `recipient_not_found` (`not_found`),
 *   `recipient_revoked` (`revoked`): the target of a market or chat event is missing or gone;
 * - `not_post_author`, `not_recipient`, `moderator_user_request`, `not_manifest_owner`
 *   (`unauthorized`): an author-only or recipient-only event by someone else;
 * - `invalid_update`, `ttl_out_of_range` (`bad_request`): post data the contract does not allow;
 * - `unsupported_event` (`unauthorized`): a reference-only type the contract gives no producer.
 */
export type ReplayRejectionReason =
  | EventRejectionReason
  | 'duplicate_event_id'
  | 'wrong_community'
  | 'community_not_created'
  | 'community_exists'
  | 'not_root'
  | 'author_revoked'
  | 'not_a_member'
  | 'insufficient_level'
  | 'cannot_invite'
  | 'insufficient_signatures'
  | 'invalid_co_signature'
  | 'invite_not_found'
  | 'invite_expired'
  | 'not_invitee'
  | 'manifest_mismatch'
  | 'already_member'
  | 'already_revoked'
  | 'invalid_level_change'
  | 'target_is_root'
  | 'target_revoked'
  | 'target_not_found'
  | 'post_not_found'
  | 'post_ended'
  | 'message_not_found'
  | 'recipient_not_found'
  | 'recipient_revoked'
  | 'not_post_author'
  | 'not_recipient'
  | 'moderator_user_request'
  | 'not_manifest_owner'
  | 'invalid_update'
  | 'ttl_out_of_range'
  | 'unsupported_event';

/** A refused event: its id (null when it has none), the reason, the contract §9 code and a message. */
export interface ReplayRejection {
  readonly event_id: string | null;
  readonly reason: ReplayRejectionReason;
  readonly code: HearthNetErrorCode;
  readonly message: string;
}

/** What {@link authorise} answers: the event may be applied, or why not. */
export type Authorisation =
  | { readonly authorised: true }
  | (ReplayRejection & { readonly authorised: false });

/** The authorisation that lets an event through. */
export const AUTHORISED: Authorisation = Object.freeze({ authorised: true });

/** A refusal of the event `eventId`. */
export function refuse(
  eventId: string,
  reason: ReplayRejectionReason,
  code: HearthNetErrorCode,
  message: string,
): Authorisation {
  return { authorised: false, event_id: eventId, reason, code, message };
}

/**
 * The trust rule and the effect of one event type. `authorise` runs after the checks every event
 * gets (community, author revoked, author a member); `apply` runs only on an authorised event.
 */
export interface EventRule<T extends EventType> {
  authorise(event: SignedEvent<T>, state: ReplayState): Authorisation;
  apply(event: SignedEvent<T>, state: MutableReplayState): void;
}
