import { canonicalJsonString } from '../canonical-json/canonical-json.js';
import { HearthNetLocalError } from '../errors.js';
import { type EventType, eventDataSchemas, type SignedEvent, verifyEvent } from '../events/event.js';
import { compareEvents } from '../events/event-store.js';
import { nodeIdSchema } from '../manifests/node-manifest.js';
import { membershipRules } from './membership-rules.js';
import type { EventRule } from './replay-state.js';
import {
  AUTHORISED,
  type Authorisation,
  clientKey,
  createReplayState,
  isTrusted,
  type MutableReplayState,
  type ReplayRejection,
  type ReplayState,
  refuse,
} from './replay-state.js';
import { chatView, marketplaceView, membershipView, postExpiryMs, type ReplayViews } from './views.js';

/** Options of {@link replay}. */
export interface ReplayOptions {
  /** The community to replay: the full node id of its root key. */
  readonly communityId: string;
  /**
   * The time to judge post TTLs at, in milliseconds since the epoch. Without it no post ends by its
   * TTL (views must not depend on the local clock unless asked to).
   */
  readonly now?: number;
  /** Replay only the events with `lamport <= upToLamport` (the log cut at a head). */
  readonly upToLamport?: number;
}

/** What {@link replay} derived. */
export interface ReplayResult {
  readonly views: ReplayViews;
  /** The ids of the applied events, in replay order. */
  readonly applied: readonly string[];
  /** Every refused event, sorted by `event_id` then `reason` (identical refusals once). */
  readonly rejected: readonly ReplayRejection[];
  /** The state after the last event, to {@link authorise} further events against. */
  readonly state: ReplayState;
}

/**
 * Replays a community's events into its views (contract §7): verifies each event (`verifyEvent`:
 * shape and signature), drops exact duplicates, refuses every version of an `event_id` that arrives
 * with different contents, sorts into replay order ({@link compareForReplay}), and applies each event
 * the trust rules {@link authorise}. A refused event is reported with its reason and §9 code and
 * never applied.
 *
 * Deterministic: the same set of events, in any order and with any repetitions, gives the same
 * result, byte for byte in canonical JSON. Never throws for bad events.
 *
 * @throws {HearthNetLocalError} `invalid_replay_options` when `communityId` is not a full node id, `now` not
 *   a finite number or `upToLamport` not a non-negative safe integer.
 * @example
 * const { views, rejected } = replay(await store.list(communityId), { communityId, now: Date.now() });
 * viewHash(views.marketplace); // the same on every node with the same events
 */
export function replay(events: Iterable<unknown>, options: ReplayOptions): ReplayResult {
  checkOptions(options);
  const { communityId, now, upToLamport } = options;
  return replayOnto(createReplayState(communityId), events, {
    ...(upToLamport === undefined ? {} : { upToLamport }),
    ...(now === undefined ? {} : { now }),
  });
}

/** Which events {@link replayOnto} takes: Lamport in `(afterLamport, upToLamport]`; `now` for post expiry. */
export interface ReplayWindow {
  readonly afterLamport?: number;
  readonly upToLamport?: number;
  readonly now?: number;
}

/**
 * Verifies `events`, drops those outside `window`, refuses every version of an `event_id` carried by
 * different events, orders the rest for replay and applies what `authorise` allows onto `state`
 * (mutated). `replay` starts from an empty state; restoring a snapshot starts from the snapshot's.
 */
export function replayOnto(
  state: MutableReplayState,
  events: Iterable<unknown>,
  window: ReplayWindow,
): ReplayResult {
  const { afterLamport = -1, upToLamport = Number.MAX_SAFE_INTEGER, now } = window;
  const rejected: ReplayRejection[] = [];
  const versions = new Map<string, Map<string, SignedEvent>>();
  for (const value of events) {
    const verdict = verifyEvent(value);
    if (!verdict.valid) {
      const { reason, code, message } = verdict;
      rejected.push({ event_id: eventIdOf(value), reason, code, message });
      continue;
    }
    const event = verdict.event;
    if (event.lamport <= afterLamport || event.lamport > upToLamport) continue;
    const byContent = versions.get(event.event_id) ?? new Map<string, SignedEvent>();
    byContent.set(canonicalJsonString(event), event);
    versions.set(event.event_id, byContent);
  }

  const ordered: SignedEvent[] = [];
  for (const [eventId, byContent] of versions) {
    if (byContent.size === 1) {
      ordered.push(...byContent.values());
      continue;
    }
    rejected.push({
      event_id: eventId,
      reason: 'duplicate_event_id',
      code: 'bad_request',
      message: `${byContent.size} different events carry this event_id; none is applied`,
    });
  }
  ordered.sort(compareForReplay);

  const applied: string[] = [];
  for (const event of ordered) {
    const verdict = authorise(event, state);
    if (verdict.authorised) {
      applyEvent(event, state);
      applied.push(event.event_id);
    } else {
      const { event_id, reason, code, message } = verdict;
      rejected.push({ event_id, reason, code, message });
    }
  }
  return {
    views: {
      membership: membershipView(state),
      marketplace: marketplaceView(state, now),
      chat: chatView(state),
    },
    applied,
    rejected: sortRejections(rejected),
    state,
  };
}

function checkOptions(options: ReplayOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new HearthNetLocalError('invalid_replay_options', 'replay options must be an object');
  }
  const { communityId, now, upToLamport } = options;
  if (!nodeIdSchema.safeParse(communityId).success) {
    throw new HearthNetLocalError(
      'invalid_replay_options',
      `communityId must be a full node id, got ${String(communityId)}`,
    );
  }
  if (now !== undefined && (typeof now !== 'number' || !Number.isFinite(now))) {
    throw new HearthNetLocalError(
      'invalid_replay_options',
      `now must be a finite number of milliseconds, got ${String(now)}`,
    );
  }
  if (upToLamport !== undefined && (!Number.isSafeInteger(upToLamport) || upToLamport < 0)) {
    throw new HearthNetLocalError(
      'invalid_replay_options',
      `upToLamport must be a non-negative integer, got ${String(upToLamport)}`,
    );
  }
}

function eventIdOf(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const id = (value as { event_id?: unknown }).event_id;
  return typeof id === 'string' ? id : null;
}

/** Sorted by event_id (null first), reason, code, message; identical refusals kept once. */
function sortRejections(rejections: readonly ReplayRejection[]): ReplayRejection[] {
  const keyed = new Map<string, ReplayRejection>();
  for (const rejection of rejections) {
    keyed.set(
      JSON.stringify([rejection.event_id ?? '', rejection.reason, rejection.code, rejection.message]),
      rejection,
    );
  }
  return [...keyed.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, rejection]) => rejection);
}

const REVOKED = 'community.member.revoked';

/**
 * Replay order (contract §7.4): by `lamport`, then `event_id`, except that within one Lamport value
 * revocations come first, so a revocation is checked before the concurrent actions of the party it
 * revokes. A total order: the same set of events sorts the same whatever order it arrives in.
 */
export function compareForReplay(a: SignedEvent, b: SignedEvent): number {
  if (a.lamport === b.lamport) {
    const aRevokes = a.event_type === REVOKED;
    if (aRevokes !== (b.event_type === REVOKED)) return aRevokes ? -1 : 1;
  }
  return compareEvents(a, b);
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

type ChatType = 'chat.message.sent' | 'chat.message.delivered' | 'chat.message.read';

/** Delivered and read receipts: by the message's recipient only. */
function authoriseReceipt(
  event: SignedEvent<'chat.message.delivered' | 'chat.message.read'>,
  state: ReplayState,
): Authorisation {
  const message = state.messages.get(event.data.target_event_id);
  if (message === undefined)
    return refuse(event.event_id, 'message_not_found', 'not_found', 'no such message');
  return message.data.recipient === event.author
    ? AUTHORISED
    : refuse(event.event_id, 'not_recipient', 'unauthorized', 'only the recipient confirms a message');
}

/** Chat events (contract §7.2, §4.15–§4.16). Receipts are last-writer-wins in replay order. */
export const chatRules: { readonly [T in ChatType]: EventRule<T> } = {
  'chat.message.sent': {
    // Any member, to a current member. A message whose (author, client_id) was already applied changes nothing.
    authorise(event, state) {
      const recipient = event.data.recipient;
      if (state.revoked.has(recipient)) {
        return refuse(event.event_id, 'recipient_revoked', 'revoked', `${recipient} is revoked`);
      }
      return state.members.has(recipient)
        ? AUTHORISED
        : refuse(event.event_id, 'recipient_not_found', 'not_found', `${recipient} is not a member`);
    },
    apply(event, state) {
      const key = clientKey('message', event.author, event.data.client_id);
      if (state.clientIds.has(key)) return;
      state.clientIds.add(key);
      state.messages.set(event.event_id, {
        event_id: event.event_id,
        lamport: event.lamport,
        from: event.author,
        created_at: event.wall_clock,
        data: event.data,
      });
    },
  },
  'chat.message.delivered': {
    authorise: authoriseReceipt,
    apply(event, state) {
      state.messages.get(event.data.target_event_id)!.delivered_at = event.data.delivered_at;
    },
  },
  'chat.message.read': {
    authorise: authoriseReceipt,
    apply(event, state) {
      state.messages.get(event.data.target_event_id)!.read_at = event.data.read_at;
    },
  },
};

type MarketType = 'market.post.created' | 'market.post.updated' | 'market.post.expired';

/** Marketplace events (contract §7.2, §4.11–§4.13). */
export const marketRules: { readonly [T in MarketType]: EventRule<T> } = {
  'market.post.created': {
    // Any member. A post whose (author, client_id) was already applied is a retry: it changes nothing.
    authorise(event) {
      return postExpiryMs(event.wall_clock, event.data.ttl_seconds) === undefined
        ? refuse(event.event_id, 'ttl_out_of_range', 'bad_request', 'ttl_seconds must be at most 30 days')
        : AUTHORISED;
    },
    apply(event, state) {
      const key = clientKey('post', event.author, event.data.client_id);
      if (state.clientIds.has(key)) return;
      state.clientIds.add(key);
      state.posts.set(event.event_id, {
        event_id: event.event_id,
        lamport: event.lamport,
        author: event.author,
        created_at: event.wall_clock,
        data: event.data,
        ended: false,
      });
    },
  },
  'market.post.updated': {
    // Original author only, on a post that has not ended; any field but client_id may change, and
    // the result must still be a valid post.
    authorise(event, state) {
      const post = state.posts.get(event.data.target_event_id);
      if (post === undefined) return refuse(event.event_id, 'post_not_found', 'not_found', 'no such post');
      if (post.author !== event.author) {
        return refuse(event.event_id, 'not_post_author', 'unauthorized', 'only the post’s author updates it');
      }
      if (post.ended) return refuse(event.event_id, 'post_ended', 'not_found', 'the post has ended');
      const fields = event.data.fields;
      const merged = eventDataSchemas['market.post.created'].safeParse({ ...post.data, ...fields });
      if (Object.hasOwn(fields, 'client_id') || !merged.success) {
        return refuse(
          event.event_id,
          'invalid_update',
          'bad_request',
          'the updated post is not a valid post',
        );
      }
      return postExpiryMs(post.created_at, merged.data.ttl_seconds) === undefined
        ? refuse(event.event_id, 'ttl_out_of_range', 'bad_request', 'ttl_seconds must be at most 30 days')
        : AUTHORISED;
    },
    apply(event, state) {
      const post = state.posts.get(event.data.target_event_id)!;
      post.data = { ...post.data, ...event.data.fields } as typeof post.data;
      post.updated_lamport = event.lamport;
    },
  },
  'market.post.expired': {
    // The original author, or a trusted moderator for any reason but user_request.
    authorise(event, state) {
      const post = state.posts.get(event.data.target_event_id);
      if (post === undefined) return refuse(event.event_id, 'post_not_found', 'not_found', 'no such post');
      if (post.ended) return refuse(event.event_id, 'post_ended', 'not_found', 'the post has already ended');
      if (post.author === event.author) return AUTHORISED;
      if (!isTrusted(state, event.author)) {
        return refuse(
          event.event_id,
          'not_post_author',
          'unauthorized',
          'not the author nor a trusted moderator',
        );
      }
      return event.data.reason === 'user_request'
        ? refuse(
            event.event_id,
            'moderator_user_request',
            'unauthorized',
            'a moderator cannot expire for user_request',
          )
        : AUTHORISED;
    },
    apply(event, state) {
      state.posts.get(event.data.target_event_id)!.ended = true;
    },
  },
};
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
