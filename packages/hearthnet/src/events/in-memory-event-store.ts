import { canonicalJsonString } from '../canonical-json/index.js';
import { HearthNetLocalError } from '../errors.js';
import type { SignedEvent } from './envelope.js';
import type { AppendResult, EventStore, LamportRange } from './event-store.js';
import { assertLamport, lamportAfterReceive, lamportForSend } from './lamport.js';
import { compareEvents } from './ordering.js';
import { validateEvent } from './verify-event.js';

interface StoredEvent {
  readonly event: SignedEvent;
  /** Canonical JSON of the event, to tell an identical duplicate from a conflict. */
  readonly canonical: string;
}

interface Community {
  /** Events in replay order. */
  readonly events: SignedEvent[];
  clock: number;
}

/**
 * An {@link EventStore} in memory, for one process and tests. Events are copied and frozen on the
 * way in; what `get` and `list` return is frozen.
 *
 * @example
 * const store = new InMemoryEventStore();
 * const event = await store.appendLocal(communityId, (lamport) =>
 *   createEvent({ community_id: communityId, event_type: 'file.cid.unpinned', data: { cid }, lamport }, me),
 * );
 */
export class InMemoryEventStore implements EventStore {
  readonly #byId = new Map<string, StoredEvent>();
  readonly #communities = new Map<string, Community>();

  async append(event: SignedEvent): Promise<AppendResult> {
    return this.#append(event);
  }

  async appendLocal<E extends SignedEvent>(communityId: string, create: (lamport: number) => E): Promise<E> {
    const lamport = lamportForSend(this.#communities.get(communityId)?.clock ?? 0);
    const event = create(lamport);
    if (event?.community_id !== communityId || event.lamport !== lamport) {
      throw new HearthNetLocalError(
        'local_event_mismatch',
        `appendLocal gave lamport ${lamport} in community ${communityId}; the event has lamport ${String(event?.lamport)} in ${String(event?.community_id)}`,
      );
    }
    this.#append(event, lamport);
    return this.#byId.get(event.event_id)!.event as E;
  }

  async get(eventId: string): Promise<SignedEvent | undefined> {
    return this.#byId.get(eventId)?.event;
  }

  async list(communityId: string, range: LamportRange = {}): Promise<SignedEvent[]> {
    const { fromLamport = 0, toLamport = Number.MAX_SAFE_INTEGER, limit = Number.MAX_SAFE_INTEGER } = range;
    assertLamport(fromLamport, 'fromLamport');
    assertLamport(toLamport, 'toLamport');
    assertLamport(limit, 'limit');
    const events = this.#communities.get(communityId)?.events ?? [];
    const start = firstAtOrAbove(events, fromLamport);
    const out: SignedEvent[] = [];
    for (let i = start; i < events.length && out.length < limit; i++) {
      const event = events[i]!;
      if (event.lamport > toLamport) break;
      out.push(event);
    }
    return out;
  }

  async head(communityId: string): Promise<number | undefined> {
    return this.#communities.get(communityId)?.events.at(-1)?.lamport;
  }

  async heads(): Promise<ReadonlyMap<string, number>> {
    const heads = new Map<string, number>();
    for (const [communityId, { events }] of this.#communities) {
      const last = events.at(-1);
      if (last !== undefined) heads.set(communityId, last.lamport);
    }
    return heads;
  }

  async clock(communityId: string): Promise<number> {
    return this.#communities.get(communityId)?.clock ?? 0;
  }

  async count(communityId?: string): Promise<number> {
    if (communityId === undefined) return this.#byId.size;
    return this.#communities.get(communityId)?.events.length ?? 0;
  }

  /** Stores `event`; the counter becomes `localLamport` for a local event, the receive rule otherwise. */
  #append(event: SignedEvent, localLamport?: number): AppendResult {
    const verdict = validateEvent(event);
    if (!verdict.valid)
      throw new HearthNetLocalError('invalid_event', verdict.message, {
        path: verdict.path,
        details: { reason: verdict.reason },
      });
    const canonical = canonicalJsonString(event);
    const existing = this.#byId.get(event.event_id);
    if (existing !== undefined) {
      if (existing.canonical !== canonical)
        throw new HearthNetLocalError(
          'event_conflict',
          `event ${event.event_id} is already stored with different content`,
          { details: { eventId: event.event_id } },
        );
      return { status: 'duplicate', clock: this.#communities.get(existing.event.community_id)!.clock };
    }
    const copy = deepFreeze(structuredClone(event));
    let community = this.#communities.get(copy.community_id);
    if (community === undefined) {
      community = { events: [], clock: 0 };
      this.#communities.set(copy.community_id, community);
    }
    community.clock = localLamport ?? lamportAfterReceive(community.clock, copy.lamport);
    community.events.splice(insertionIndex(community.events, copy), 0, copy);
    this.#byId.set(copy.event_id, { event: copy, canonical });
    return { status: 'appended', clock: community.clock };
  }
}

/** The index of the first event with `lamport ≥ lamport` (binary search). */
function firstAtOrAbove(events: readonly SignedEvent[], lamport: number): number {
  let low = 0;
  let high = events.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (events[middle]!.lamport < lamport) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Where `event` goes to keep `events` in replay order (binary search). */
function insertionIndex(events: readonly SignedEvent[], event: SignedEvent): number {
  let low = 0;
  let high = events.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareEvents(events[middle]!, event) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}
