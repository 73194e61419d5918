import type { SignedEvent } from '../events/envelope.js';
import type { EventType } from '../events/event-types.js';
import { chatRules } from './chat-rules.js';
import type { EventRule } from './event-rule.js';
import { marketRules } from './market-rules.js';
import { membershipRules } from './membership-rules.js';
import { AUTHORISED, type Authorisation, refuse } from './rejection.js';
import type { MutableReplayState, ReplayState } from './replay-state.js';

/** A type any member may produce that changes no view (files, RAG, federation, reference extras). */
const memberOnly: EventRule<EventType> = { authorise: () => AUTHORISED, apply() {} };

const rules: { readonly [T in EventType]: EventRule<T> } = {
  ...membershipRules,
  ...marketRules,
  ...chatRules,
  'file.cid.advertised': memberOnly,
  'file.cid.unpinned': memberOnly,
  'rag.document.ingested': memberOnly,
  'federation.peer.added': memberOnly,
  'federation.peer.removed': memberOnly,
  'file.advertised': memberOnly,
};

function ruleOf(event: SignedEvent): EventRule<EventType> {
  return rules[event.event_type] as EventRule<EventType>;
}

/**
 * Judges whether `event` may be applied to `state` (contract §7.2, §4.17–§4.18, §7.4), in this order:
 * the event is of the state's community (`wrong_community`); `community.created` is judged by its own
 * rule (founder once, by the root key); every other event needs the community to exist
 * (`community_not_created`), an author that is not revoked (`author_revoked`, checked before
 * anything else about the author, §7.4) and a member (`not_a_member`; the invitee of
 * `community.member.joined` excepted); then the rule of its type. Never throws.
 *
 * `event` must have passed `verifyEvent` (shape and signature); co-signatures are checked here.
 *
 * @example
 * const verdict = authorise(event, result.state);
 * if (!verdict.authorised) console.log(verdict.code, verdict.reason);
 */
export function authorise(event: SignedEvent, state: ReplayState): Authorisation {
  const id = event.event_id;
  if (event.community_id !== state.communityId) {
    return refuse(id, 'wrong_community', 'bad_request', `the event belongs to ${event.community_id}`);
  }
  if (event.event_type !== 'community.created') {
    if (state.community === undefined) {
      return refuse(
        id,
        'community_not_created',
        'unauthorized',
        'no community.created replays before this event',
      );
    }
    if (state.revoked.has(event.author)) {
      return refuse(id, 'author_revoked', 'revoked', `${event.author} was revoked`);
    }
    if (event.event_type !== 'community.member.joined' && !state.members.has(event.author)) {
      return refuse(id, 'not_a_member', 'unauthorized', `${event.author} is not a member`);
    }
  }
  return ruleOf(event).authorise(event, state);
}

/** Applies an event {@link authorise} let through. */
export function applyEvent(event: SignedEvent, state: MutableReplayState): void {
  ruleOf(event).apply(event, state);
  if (state.headLamport === undefined || event.lamport > state.headLamport) state.headLamport = event.lamport;
}
