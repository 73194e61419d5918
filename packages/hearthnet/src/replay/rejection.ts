import type { HearthNetErrorCode } from '../capabilities/hearthnet-errors.js';
import type { EventRejectionReason } from '../events/verify-event.js';

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
