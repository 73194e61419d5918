import { canonicalJsonString } from '../canonical-json/canonical-json.js';
import { HearthNetLocalError } from '../errors.js';
import { isSealedEvent, refusalError, type SignedEvent, validateEvent } from './event.js';

/** Lamport bounds of {@link EventStore.list}, both inclusive, and a cap on the number of events. */
export interface LamportRange {
  readonly fromLamport?: number;
  readonly toLamport?: number;
  /** At most this many events, the first in replay order. */
  readonly limit?: number;
}

/** What {@link EventStore.append} did: stored the event, or found the identical event already there. */
export interface AppendResult {
  readonly status: 'appended' | 'duplicate';
  /** The community's Lamport counter afterwards. */
  readonly clock: number;
}

/**
 * Where a node keeps community events: append-only, keyed by `event_id`, listed per community in
 * replay order (contract §7.4), with the community's Lamport counter (§7.3) kept in the same
 * transaction as the events.
 *
 * Stores check an event's shape (`validateEvent`) but not its signature or who wrote it: verify and
 * authorise before appending. A stored event stays as appended: changing the object given to `append`,
 * or one `get` or `list` returned, does not change it. Run `eventStoreSuite` of `@agentwire/conformance` against an
 * implementation.
 */
export interface EventStore {
  /**
   * Stores a received event. A new event moves its community's counter to
   * `max(counter, event.lamport) + 1`; the identical event again is a `duplicate` and changes nothing.
   *
   * @throws {HearthNetLocalError} `invalid_event` when the event's shape is invalid (`path` the field,
   *   `details.reason` the rejection reason of `validateEvent`).
   * @throws {HearthNetLocalError} `event_conflict` when another event with this `event_id` is stored (any
   *   community; `details.eventId`).
   * @throws {HearthNetLocalError} `invalid_lamport` when the counter would pass 2⁵³−1 (`details.value` the
   *   event's lamport); nothing is stored.
   */
  append(event: SignedEvent): Promise<AppendResult>;
  /**
   * Stores an event made here, atomically with its Lamport value: calls `create(counter + 1)` and
   * stores what it returns, and the counter becomes that value (contract §7.3 "on send").
   *
   * @throws {HearthNetLocalError} `local_event_mismatch` when the event is not of `communityId` or not at the
   *   given lamport.
   * @throws what `create` or {@link EventStore.append} throws; nothing is stored then.
   */
  appendLocal<E extends SignedEvent>(communityId: string, create: (lamport: number) => E): Promise<E>;
  /** The event with this id, from any community. */
  get(eventId: string): Promise<SignedEvent | undefined>;
  /**
   * A community's events in replay order, within `range`.
   *
   * @throws {HearthNetLocalError} `invalid_lamport` when a bound or the limit is not a non-negative safe
   *   integer; its `path` names it (`fromLamport`, `toLamport`, `limit`) and `details.value` holds it.
   */
  list(communityId: string, range?: LamportRange): Promise<SignedEvent[]>;
  /** The highest Lamport value stored for a community (below its counter after receives), if any. */
  head(communityId: string): Promise<number | undefined>;
  /** {@link EventStore.head} of every community with events. */
  heads(): Promise<ReadonlyMap<string, number>>;
  /** A community's Lamport counter (0 before any event). */
  clock(communityId: string): Promise<number>;
  /** How many events are stored, for one community or all. */
  count(communityId?: string): Promise<number>;
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
  readonly #byId = new Map<string, SignedEvent>();
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
    return this.#byId.get(event.event_id) as E;
  }

  async get(eventId: string): Promise<SignedEvent | undefined> {
    return this.#byId.get(eventId);
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
    // An event createEvent made is valid and frozen already: it is stored as it is.
    const sealed = isSealedEvent(event);
    if (!sealed) {
      const verdict = validateEvent(event);
      if (!verdict.valid) throw refusalError(verdict);
      // What canonical JSON cannot write (a lone surrogate) is refused here, not when the id comes again.
      canonicalJsonString(event);
    }
    const existing = this.#byId.get(event.event_id);
    if (existing !== undefined) {
      // Canonical JSON tells an identical duplicate from a conflict (made only when an id comes twice).
      if (existing !== event && canonicalJsonString(existing) !== canonicalJsonString(event))
        throw new HearthNetLocalError(
          'event_conflict',
          `event ${event.event_id} is already stored with different content`,
          { details: { eventId: event.event_id } },
        );
      return { status: 'duplicate', clock: this.#communities.get(existing.community_id)!.clock };
    }
    const copy = sealed ? event : frozenCopy(event);
    let community = this.#communities.get(copy.community_id);
    if (community === undefined) {
      community = { events: [], clock: 0 };
      this.#communities.set(copy.community_id, community);
    }
    community.clock = localLamport ?? lamportAfterReceive(community.clock, copy.lamport);
    community.events.splice(insertionIndex(community.events, copy), 0, copy);
    this.#byId.set(copy.event_id, copy);
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

/**
 * A deep copy of a JSON value (what `validateEvent` and canonical JSON accepted), frozen as it is made:
 * one pass instead of `structuredClone` and a freeze. A `__proto__` key stays an own property.
 */
function frozenCopy<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy)) as T;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = frozenCopy((value as Record<string, unknown>)[key]);
    if (key === '__proto__') {
      Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    } else {
      copy[key] = item;
    }
  }
  return Object.freeze(copy) as T;
}

/** What replay order looks at. */
export interface ReplayKey {
  readonly lamport: number;
  readonly event_id: string;
}

/**
 * Replay order (contract §7.4): by `lamport` ascending, then `event_id` ascending. Event ids are
 * compared as strings of ASCII characters (code-unit order equals byte order there), so ULIDs of one
 * Lamport value replay in time order. Returns 0 only for the same `(lamport, event_id)`.
 *
 * @example
 * events.sort(compareEvents);
 */
export function compareEvents(a: ReplayKey, b: ReplayKey): number {
  if (a.lamport !== b.lamport) return a.lamport < b.lamport ? -1 : 1;
  if (a.event_id === b.event_id) return 0;
  return a.event_id < b.event_id ? -1 : 1;
}

/**
 * The Lamport value of an event this node sends, given the community's counter: `counter + 1`
 * (contract §7.3 "on send"); the counter becomes that value. A pure step, so that a store can
 * compute it and persist it in the same transaction as the event.
 *
 * @throws {HearthNetLocalError} `invalid_lamport` for a counter that is not a non-negative safe integer, or
 *   at 2⁵³−1.
 */
export function lamportForSend(counter: number): number {
  assertLamport(counter, 'counter');
  return bump(counter);
}

/**
 * The community's counter after receiving an event with Lamport value `received`:
 * `max(counter, received) + 1` (contract §7.3 "on receive"), also when the event is older.
 *
 * @throws {HearthNetLocalError} `invalid_lamport` as {@link lamportForSend}, for either argument.
 */
export function lamportAfterReceive(counter: number, received: number): number {
  assertLamport(counter, 'counter');
  assertLamport(received, 'received lamport');
  return bump(Math.max(counter, received));
}

/** Throws unless `value` is a Lamport value: a non-negative safe integer. */
export function assertLamport(value: unknown, name: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new HearthNetLocalError(
      'invalid_lamport',
      `${name} must be a non-negative safe integer, got ${String(value)}`,
      { path: name, details: { value } },
    );
  }
}

function bump(value: number): number {
  if (value >= Number.MAX_SAFE_INTEGER) {
    throw new HearthNetLocalError('invalid_lamport', 'the Lamport counter cannot pass 2^53−1', {
      details: { value },
    });
  }
  return value + 1;
}

/**
 * The events in replay order (a sorted copy; the input is untouched). The same set of events gives
 * the same order whatever order it arrives in. Duplicates are kept.
 *
 * @example
 * for (const event of sortForReplay(received)) view.apply(event);
 */
export function sortForReplay<E extends ReplayKey>(events: Iterable<E>): E[] {
  return [...events].sort(compareEvents);
}

/**
 * The two Lamport steps of contract §7.3 as pure functions, for an {@link EventStore} implementation
 * that keeps the community's counter next to its events and moves it inside the same transaction.
 *
 * @example
 * const lamport = lamportRules.forSend(counter); // the new event's value; the counter becomes it
 * counter = lamportRules.afterReceive(counter, received.lamport); // max(counter, received) + 1
 */
export const lamportRules = /* @__PURE__ */ Object.freeze({
  /** {@link lamportForSend}: `counter + 1`, the Lamport value of an event this node sends. */
  forSend: lamportForSend,
  /** {@link lamportAfterReceive}: `max(counter, received) + 1`, the counter after a received event. */
  afterReceive: lamportAfterReceive,
});

/**
 * A community's Lamport counter in memory (contract §7.3). Stores keep the counter next to their
 * events and use {@link lamportRules} (`forSend` / `afterReceive`) inside their transactions.
 *
 * @example
 * const clock = new LamportClock();
 * clock.tick(); // 1: the lamport of the event being sent
 * clock.observe(10); // 11
 */
export class LamportClock {
  #value: number;

  /** Starts at `initial` (default 0: the first event sent gets 1). */
  constructor(initial = 0) {
    assertLamport(initial, 'initial');
    this.#value = initial;
  }

  /** The counter now. */
  get value(): number {
    return this.#value;
  }

  /** Advances for an event being sent and returns its Lamport value. */
  tick(): number {
    this.#value = lamportForSend(this.#value);
    return this.#value;
  }

  /** Advances past a received event's Lamport value and returns the new counter. */
  observe(received: number): number {
    this.#value = lamportAfterReceive(this.#value, received);
    return this.#value;
  }
}
