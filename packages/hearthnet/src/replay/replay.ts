import { canonicalJsonString } from '../canonical-json/index.js';
import { HearthNetLocalError } from '../errors.js';
import type { SignedEvent } from '../events/envelope.js';
import { verifyEvent } from '../events/verify-event.js';
import { nodeIdSchema } from '../manifests/field-schemas.js';
import { applyEvent, authorise } from './authorise.js';
import type { ReplayRejection } from './rejection.js';
import { compareForReplay } from './replay-order.js';
import { createReplayState, type MutableReplayState, type ReplayState } from './replay-state.js';
import { chatView, marketplaceView, membershipView, type ReplayViews } from './views.js';

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
