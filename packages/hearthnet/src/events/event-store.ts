import type { SignedEvent } from './envelope.js';

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
 * authorise before appending. Run `eventStoreSuite` of `@agentwire/conformance` against an
 * implementation.
 */
export interface EventStore {
  /**
   * Stores a received event. A new event moves its community's counter to
   * `max(counter, event.lamport) + 1`; the identical event again is a `duplicate` and changes nothing.
   *
   * @throws {HearthNetLocalError} `invalid_event` when the event's shape is invalid.
   * @throws {HearthNetLocalError} `event_conflict` when another event with this `event_id` is stored (any
   *   community).
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
  /** A community's events in replay order, within `range`. */
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
