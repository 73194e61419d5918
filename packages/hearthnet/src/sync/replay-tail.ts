import { canonicalJsonString } from '../canonical-json/index.js';
import type { SignedEvent } from '../events/envelope.js';
import { verifyEvent } from '../events/verify-event.js';
import { applyEvent, authorise } from '../replay/authorise.js';
import type { ReplayRejection } from '../replay/rejection.js';
import type { ReplayResult } from '../replay/replay.js';
import { compareForReplay } from '../replay/replay-order.js';
import type { MutableReplayState } from '../replay/replay-state.js';
import { chatView, marketplaceView, membershipView } from '../replay/views.js';

/**
 * Continues a replay from `state` (restored from a snapshot covering every event with
 * `lamport <= coveredUpTo`) with the events above it, by the rules of `replay`: each event verified,
 * exact duplicates dropped, every version of an `event_id` with different contents refused, the rest
 * judged and applied in replay order. Events at or below `coveredUpTo` are skipped. `state` is
 * changed in place. Never throws for bad events.
 */
export function replayTail(
  state: MutableReplayState,
  events: Iterable<unknown>,
  coveredUpTo: number,
  now: number | undefined,
): ReplayResult {
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
    if (event.lamport <= coveredUpTo) continue;
    const byContent = versions.get(event.event_id) ?? new Map<string, SignedEvent>();
    byContent.set(canonicalJsonString(event), event);
    versions.set(event.event_id, byContent);
  }
  const ordered: SignedEvent[] = [];
  for (const [eventId, byContent] of versions) {
    if (byContent.size === 1) ordered.push(...byContent.values());
    else {
      rejected.push({
        event_id: eventId,
        reason: 'duplicate_event_id',
        code: 'bad_request',
        message: `${byContent.size} different events carry this event_id; none is applied`,
      });
    }
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
    rejected,
    state,
  };
}

function eventIdOf(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const id = (value as { event_id?: unknown }).event_id;
  return typeof id === 'string' ? id : null;
}
