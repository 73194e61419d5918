import { canonicalJsonString } from '../canonical-json/index.js';
import { HearthNetLocalError } from '../errors.js';
import type { SignedEvent } from '../events/envelope.js';
import type { EventStore } from '../events/event-store.js';
import { verifyEvent } from '../events/verify-event.js';
import { replay } from '../replay/replay.js';
import { compareForReplay } from '../replay/replay-order.js';
import type { SyncEventsResult, SyncRejection } from './sync-protocol.js';

/** The ingestion running on each store, so that two batches are never judged against the same log. */
const running = new WeakMap<EventStore, Promise<unknown>>();

/**
 * Takes events received from a peer into `store` (contract §7.6 step 3): each is verified
 * (`verifyEvent`), must be of `communityId`, and is stored only when replaying the stored log with
 * the batch applies it, so an event of a revoked author, of a non-member or with a forged
 * co-signature is refused with replay's reason. Events already stored are accepted again; a
 * different event under a stored id is refused (`duplicate_event_id`). An event refused because
 * what it depends on has not arrived yet can be sent again later.
 *
 * Batches on one store are judged one after another. Never throws for bad events; throws what the
 * store throws.
 */
export function ingestEvents(
  store: EventStore,
  communityId: string,
  incoming: readonly unknown[],
): Promise<SyncEventsResult> {
  const previous = running.get(store) ?? Promise.resolve();
  const next = previous.then(
    () => ingest(store, communityId, incoming),
    () => ingest(store, communityId, incoming),
  );
  running.set(store, next);
  return next;
}

async function ingest(
  store: EventStore,
  communityId: string,
  incoming: readonly unknown[],
): Promise<SyncEventsResult> {
  const accepted = new Set<string>();
  const rejected = new Map<string | null, SyncRejection>();
  const reject = (rejection: SyncRejection) => {
    if (!rejected.has(rejection.event_id)) rejected.set(rejection.event_id, rejection);
  };
  const candidates = new Map<string, SignedEvent>();
  const conflicting = new Set<string>();
  for (const value of incoming) {
    const verdict = verifyEvent(value);
    if (!verdict.valid) {
      reject({
        event_id: eventIdOf(value),
        reason: verdict.reason,
        code: verdict.code,
        message: verdict.message,
      });
      continue;
    }
    const event = verdict.event;
    if (event.community_id !== communityId) {
      reject({
        event_id: event.event_id,
        reason: 'wrong_community',
        code: 'bad_request',
        message: `the event belongs to ${event.community_id}`,
      });
      continue;
    }
    const stored = await store.get(event.event_id);
    if (stored !== undefined) {
      if (canonicalJsonString(stored) === canonicalJsonString(event)) accepted.add(event.event_id);
      else reject(conflict(event.event_id));
      continue;
    }
    const other = candidates.get(event.event_id);
    if (other !== undefined && canonicalJsonString(other) !== canonicalJsonString(event)) {
      conflicting.add(event.event_id);
    }
    candidates.set(event.event_id, event);
  }
  for (const eventId of conflicting) {
    candidates.delete(eventId);
    reject(conflict(eventId));
  }

  if (candidates.size > 0) {
    const log = await store.list(communityId);
    const result = replay([...log, ...candidates.values()], { communityId });
    const applied = new Set(result.applied);
    const refusals = new Map(result.rejected.map((rejection) => [rejection.event_id, rejection]));
    for (const event of [...candidates.values()].sort(compareForReplay)) {
      if (applied.has(event.event_id)) {
        try {
          await store.append(event);
          accepted.add(event.event_id);
        } catch (error) {
          if (!(error instanceof HearthNetLocalError && error.code === 'event_conflict')) throw error;
          reject(conflict(event.event_id));
        }
        continue;
      }
      // Replay judges every verified event it is given: an event it did not apply, it refused.
      const { reason, code, message } = refusals.get(event.event_id)!;
      reject({ event_id: event.event_id, reason, code, message });
    }
  }
  return {
    accepted: [...accepted],
    rejected: [...rejected.values()],
    new_head_lamport: (await store.head(communityId)) ?? null,
  };
}

function conflict(eventId: string): SyncRejection {
  return {
    event_id: eventId,
    reason: 'duplicate_event_id',
    code: 'bad_request',
    message: 'a different event with this event_id is already known',
  };
}

function eventIdOf(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const id = (value as { event_id?: unknown }).event_id;
  return typeof id === 'string' ? id : null;
}
