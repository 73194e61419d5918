import { canonicalJsonString, HearthNetLocalError } from '@agentwire/hearthnet';
import {
  type AppendResult,
  type EventStore,
  isSealedEvent,
  type LamportRange,
  lamportRules,
  type SignedEvent,
  validateEvent,
} from '@agentwire/hearthnet/events';
import type Database from 'better-sqlite3';
import {
  type DatabaseLocation,
  migrateSchema,
  openDatabase,
  type SchemaComponent,
  type SqliteDatabase,
} from '../shared/database.js';
import { SqliteStoreError, storeClosedError } from '../shared/errors.js';

const IMPLEMENTATION = 'SqliteEventStore';

/** Options of {@link SqliteEventStore}: where the events live. */
export type SqliteEventStoreOptions = DatabaseLocation;

/** The prepared statements of one store, made once per connection. */
/** The Lamport counters a transaction moved, by community, written once before it commits. */
type MovedClocks = Map<string, number>;

interface Statements {
  readonly eventJson: Database.Statement<[string], { event_json: string }>;
  readonly insertEvent: Database.Statement<[string, string, number, string]>;
  readonly clock: Database.Statement<[string], { clock: number }>;
  readonly setClock: Database.Statement<[string, number]>;
  readonly list: Database.Statement<[string, number, number, number], { event_json: string }>;
  readonly head: Database.Statement<[string], { head: number | null }>;
  readonly heads: Database.Statement<[], { community_id: string; head: number | null }>;
  readonly countAll: Database.Statement<[], { count: number }>;
  readonly countCommunity: Database.Statement<[string], { count: number }>;
}

/**
 * A durable {@link EventStore} on SQLite (better-sqlite3): HearthNet community events survive a restart,
 * and several connections — also from several processes — can share one file.
 *
 * - Append-only: one row per `event_id`, never updated or deleted. The event's canonical JSON is stored
 *   as appended, so `get` and `list` return the exact event (a fresh, unfrozen object on every call).
 * - The Lamport counter of each community (contract §7.3) lives in its own table and moves in the same
 *   immediate transaction as the event: `append` applies `max(counter, lamport) + 1`, and
 *   `appendLocal` calls its synchronous `create(counter + 1)` inside the transaction, so concurrent
 *   local appends — on one connection or several — get distinct, consecutive Lamport values, and a
 *   `create` that throws (or returns a mismatched event) leaves neither an event nor a counter move.
 * - The identical event again is a `duplicate` and changes nothing; another event with a stored
 *   `event_id` throws `HearthNetLocalError` `event_conflict` and the stored one stays.
 * - {@link SqliteEventStore.appendBatch} appends many received events in one transaction, all or none;
 *   {@link SqliteEventStore.appendLocalBatch} makes and appends many local ones the same way.
 *
 * Like every `EventStore`, it checks an event's shape but not its signature or its author's rights:
 * verify and authorise before appending.
 *
 * @example
 * ```ts
 * import { createEvent } from '@agentwire/hearthnet/events';
 * import { SqliteEventStore } from '@agentwire/sqlite/hearthnet';
 *
 * const events = new SqliteEventStore({ path: './data/hearthnet.db' });
 * const sent = await events.appendLocal(communityId, (lamport) =>
 *   createEvent({ community_id: communityId, event_type: 'file.cid.unpinned', data: { cid }, lamport }, me),
 * );
 * await events.append(receivedAndVerified); // { status: 'appended' | 'duplicate', clock }
 * const replay = await events.list(communityId, { fromLamport: 1 });
 * events.close();
 * ```
 */
export class SqliteEventStore implements EventStore {
  readonly #database: SqliteDatabase;
  readonly #owned: boolean;
  readonly #statements: Statements;
  #closed = false;

  /**
   * Opens the store and creates or migrates its tables (component `hearthnet_event_store` in
   * `agentwire_schema_versions`; the file may hold other `@agentwire/sqlite` stores too).
   *
   * @throws {SqliteStoreError} `invalid_store_argument`: for options that are neither `{ path }` nor `{ database }`.
   * @throws {SqliteStoreError} `schema_migration`: when the database holds a newer or clashing schema.
   */
  constructor(options: SqliteEventStoreOptions) {
    const { database, owned } = openDatabase(options, 'options', (message, path) =>
      invalidStoreArgumentError(message, path),
    );
    this.#database = database;
    this.#owned = owned;
    try {
      migrateSchema(database, EVENT_STORE_SCHEMA);
      this.#statements = prepareStatements(database);
    } catch (error) {
      if (owned) database.close();
      throw error;
    }
  }

  /**
   * Stores a received event; its community's counter becomes `max(counter, event.lamport) + 1`. The
   * identical event again resolves to `duplicate` and changes nothing.
   *
   * @throws {HearthNetLocalError} `invalid_event` when the event's shape is invalid.
   * @throws {HearthNetLocalError} `event_conflict` when another event with this `event_id` is stored (any
   *   community).
   * @throws {HearthNetLocalError} `invalid_lamport` when the counter would pass 2⁵³−1.
   * @throws {SqliteStoreError} `store_closed`: after `close()`.
   */
  async append(event: SignedEvent): Promise<AppendResult> {
    this.#open();
    return this.#transaction((moved) => this.#insert(event, moved).result);
  }

  /**
   * Stores many received events in one transaction, in the given order, as {@link append} would one by
   * one: all of them, or — when one is refused — none, and the error of the first refused event is
   * thrown. Resolves to each event's result, in order.
   *
   * @throws what {@link append} throws, for the first event it refuses; nothing is stored then.
   * @throws {SqliteStoreError} `invalid_store_argument`: when `events` is not iterable.
   */
  async appendBatch(events: Iterable<SignedEvent>): Promise<AppendResult[]> {
    this.#open();
    if (typeof (events as { [Symbol.iterator]?: unknown })?.[Symbol.iterator] !== 'function') {
      throw invalidStoreArgumentError('must be an iterable of events', 'events');
    }
    return this.#transaction((moved) => Array.from(events, (event) => this.#insert(event, moved).result));
  }

  /**
   * Stores an event made here, atomically with its Lamport value: inside one transaction, reads the
   * counter, calls `create(counter + 1)` and stores what it returns; the counter becomes that value.
   * Resolves to the stored event. `create` runs inside the transaction: it must be synchronous (sign
   * there) and must not call the store.
   *
   * @throws {HearthNetLocalError} `local_event_mismatch` when the event is not of `communityId` or not at the
   *   given lamport.
   * @throws what `create` or {@link append} throws; nothing is stored and the counter stays then.
   * @throws {SqliteStoreError} `invalid_store_argument`: when `communityId` is not a string or `create` not a function.
   * @throws {SqliteStoreError} `store_closed`: after `close()`.
   */
  async appendLocal<E extends SignedEvent>(communityId: string, create: (lamport: number) => E): Promise<E> {
    this.#open();
    assertString(communityId, 'communityId');
    if (typeof create !== 'function') throw invalidStoreArgumentError('must be a function', 'create');
    return this.#transaction((moved) => this.#appendLocalIn(communityId, create, 'appendLocal', moved));
  }

  /**
   * Stores events made here, many in one transaction: each `create` is called in turn with the Lamport
   * value one {@link appendLocal} at a time would give it (the counter + 1, then + 2, …) and what it
   * returns is stored before the next is called. All or none: a `create` that throws, or an event refused,
   * leaves no event of the batch and the counter where it was. Resolves to the stored events, in order.
   * Each `create` runs inside the transaction: it must be synchronous (sign there) and must not call the
   * store. One transaction instead of one per event is what makes creating many events fast.
   *
   * @throws {HearthNetLocalError} `local_event_mismatch` when an event is not of `communityId` or not at the
   *   given lamport.
   * @throws what a `create` or {@link append} throws; nothing of the batch is stored then.
   * @throws {SqliteStoreError} `invalid_store_argument`: when `communityId` is not a string, `creates` not an
   *   iterable, or one of them not a function.
   * @throws {SqliteStoreError} `store_closed`: after `close()`.
   * @example
   * ```ts
   * const posts = await events.appendLocalBatch(
   *   communityId,
   *   drafts.map((data) => (lamport: number) =>
   *     createEvent({ community_id: communityId, event_type: 'market.post.created', data, lamport }, me)),
   * );
   * ```
   */
  async appendLocalBatch<E extends SignedEvent>(
    communityId: string,
    creates: Iterable<(lamport: number) => E>,
  ): Promise<E[]> {
    this.#open();
    assertString(communityId, 'communityId');
    if (typeof (creates as { [Symbol.iterator]?: unknown })?.[Symbol.iterator] !== 'function') {
      throw invalidStoreArgumentError('must be an iterable of functions', 'creates');
    }
    return this.#transaction((moved) => {
      const stored: E[] = [];
      for (const create of creates) {
        if (typeof create !== 'function') {
          throw invalidStoreArgumentError('must be an iterable of functions', 'creates');
        }
        stored.push(this.#appendLocalIn(communityId, create, 'appendLocalBatch', moved));
      }
      return stored;
    });
  }

  /**
   * Inside a transaction: calls `create(counter + 1)`, checks the event is of `communityId` at that
   * lamport, stores it and moves the counter; the stored event as read back.
   */
  #appendLocalIn<E extends SignedEvent>(
    communityId: string,
    create: (lamport: number) => E,
    caller: 'appendLocal' | 'appendLocalBatch',
    moved: MovedClocks,
  ): E {
    const lamport = lamportRules.forSend(this.#clockIn(moved, communityId));
    const event = create(lamport);
    if (event?.community_id !== communityId || event.lamport !== lamport) {
      throw new HearthNetLocalError(
        'local_event_mismatch',
        `${caller} gave lamport ${lamport} in community ${communityId}; the event has lamport ${String(event?.lamport)} in ${String(event?.community_id)}`,
      );
    }
    const { json } = this.#insert(event, moved, lamport);
    // An event createEvent made is frozen and holds what was stored; anything else is read back.
    return isSealedEvent(event) ? event : (JSON.parse(json) as E);
  }

  /**
   * The event with this id, from any community, or `undefined`.
   *
   * @throws {SqliteStoreError} `invalid_store_argument`: when `eventId` is not a string.
   * @throws {SqliteStoreError} `store_closed`: after `close()`.
   */
  async get(eventId: string): Promise<SignedEvent | undefined> {
    this.#open();
    assertString(eventId, 'eventId');
    const row = this.#statements.eventJson.get(eventId);
    return row === undefined ? undefined : (JSON.parse(row.event_json) as SignedEvent);
  }

  /**
   * A community's events in replay order (lamport, then event_id), from `fromLamport` to `toLamport`
   * (both inclusive), at most `limit` of them.
   *
   * @throws {HearthNetLocalError} `invalid_lamport` when a bound or the limit is not a non-negative safe
   *   integer.
   * @throws {SqliteStoreError} `invalid_store_argument`: when `communityId` is not a string or `range` not an object.
   * @throws {SqliteStoreError} `store_closed`: after `close()`.
   */
  async list(communityId: string, range: LamportRange = {}): Promise<SignedEvent[]> {
    this.#open();
    assertString(communityId, 'communityId');
    if (typeof range !== 'object' || range === null) {
      throw invalidStoreArgumentError('must be an object', 'range');
    }
    const { fromLamport = 0, toLamport = Number.MAX_SAFE_INTEGER, limit } = range;
    assertLamportBound(fromLamport, 'fromLamport');
    assertLamportBound(toLamport, 'toLamport');
    if (limit !== undefined) assertLamportBound(limit, 'limit');
    return this.#statements.list
      .all(communityId, fromLamport, toLamport, limit ?? -1)
      .map((row) => JSON.parse(row.event_json) as SignedEvent);
  }

  /**
   * The highest Lamport value stored for a community, or `undefined` when it has no events.
   *
   * @throws {SqliteStoreError} `invalid_store_argument`: when `communityId` is not a string.
   * @throws {SqliteStoreError} `store_closed`: after `close()`.
   */
  async head(communityId: string): Promise<number | undefined> {
    this.#open();
    assertString(communityId, 'communityId');
    return this.#statements.head.get(communityId)?.head ?? undefined;
  }

  /**
   * The head of every community with events.
   *
   * @throws {SqliteStoreError} `store_closed`: after `close()`.
   */
  async heads(): Promise<ReadonlyMap<string, number>> {
    this.#open();
    const heads = new Map<string, number>();
    for (const { community_id, head } of this.#statements.heads.all()) {
      if (head !== null) heads.set(community_id, head);
    }
    return heads;
  }

  /**
   * A community's Lamport counter (0 before any event).
   *
   * @throws {SqliteStoreError} `invalid_store_argument`: when `communityId` is not a string.
   * @throws {SqliteStoreError} `store_closed`: after `close()`.
   */
  async clock(communityId: string): Promise<number> {
    this.#open();
    assertString(communityId, 'communityId');
    return this.#clockOf(communityId);
  }

  /**
   * How many events are stored, for one community or all.
   *
   * @throws {SqliteStoreError} `invalid_store_argument`: when `communityId` is given but not a string.
   * @throws {SqliteStoreError} `store_closed`: after `close()`.
   */
  async count(communityId?: string): Promise<number> {
    this.#open();
    if (communityId === undefined) return this.#statements.countAll.get()!.count;
    assertString(communityId, 'communityId');
    return this.#statements.countCommunity.get(communityId)!.count;
  }

  /**
   * Closes the database connection if the store opened it (a `{ database }` handle passed in stays
   * open: its owner closes it). Idempotent; every later call throws `store_closed`.
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#owned) this.#database.close();
  }

  #open(): void {
    if (this.#closed || !this.#database.open) throw storeClosedError(IMPLEMENTATION);
  }

  #clockOf(communityId: string): number {
    return this.#statements.clock.get(communityId)?.clock ?? 0;
  }

  /** A community's counter inside a transaction: as moved by it so far, else as stored. */
  #clockIn(moved: MovedClocks, communityId: string): number {
    return moved.get(communityId) ?? this.#clockOf(communityId);
  }

  /**
   * Runs `body` in one immediate transaction; the Lamport counters it moves are kept in `moved` and
   * written once each before it commits.
   */
  #transaction<T>(body: (moved: MovedClocks) => T): T {
    return this.#database
      .transaction(() => {
        const moved: MovedClocks = new Map();
        const result = body(moved);
        for (const [communityId, clock] of moved) this.#statements.setClock.run(communityId, clock);
        return result;
      })
      .immediate();
  }

  /**
   * Stores `event` inside the caller's transaction; the counter becomes `localLamport` for a local
   * event, the receive rule otherwise (in `moved`, written by the caller once the transaction's events
   * are in). Returns the result and the event's canonical JSON.
   */
  #insert(
    event: SignedEvent,
    moved: MovedClocks,
    localLamport?: number,
  ): { result: AppendResult; json: string } {
    // An event createEvent made was checked before it was signed, and is frozen since.
    if (!isSealedEvent(event)) {
      const verdict = validateEvent(event);
      if (!verdict.valid) {
        throw new HearthNetLocalError('invalid_event', verdict.message, {
          path: verdict.path,
          details: { reason: verdict.reason },
        });
      }
    }
    const json = canonicalJsonString(event);
    // Inserted unless the id is stored already; only then is the stored event read, to compare.
    if (
      this.#statements.insertEvent.run(event.event_id, event.community_id, event.lamport, json).changes === 0
    ) {
      const stored = this.#statements.eventJson.get(event.event_id) as { event_json: string };
      if (stored.event_json !== json) {
        throw new HearthNetLocalError(
          'event_conflict',
          `event ${event.event_id} is already stored with different content`,
          {
            details: { eventId: event.event_id },
          },
        );
      }
      return { result: { status: 'duplicate', clock: this.#clockIn(moved, event.community_id) }, json };
    }
    const clock =
      localLamport ?? lamportRules.afterReceive(this.#clockIn(moved, event.community_id), event.lamport);
    moved.set(event.community_id, clock);
    return { result: { status: 'appended', clock }, json };
  }
}

function prepareStatements(database: SqliteDatabase): Statements {
  return {
    eventJson: database.prepare('SELECT event_json FROM hearthnet_events WHERE event_id = ?'),
    insertEvent: database.prepare(
      `INSERT INTO hearthnet_events (event_id, community_id, lamport, event_json) VALUES (?, ?, ?, ?)
         ON CONFLICT (event_id) DO NOTHING`,
    ),
    clock: database.prepare('SELECT clock FROM hearthnet_lamport_clocks WHERE community_id = ?'),
    setClock: database.prepare(
      `INSERT INTO hearthnet_lamport_clocks (community_id, clock) VALUES (?, ?)
         ON CONFLICT (community_id) DO UPDATE SET clock = excluded.clock`,
    ),
    list: database.prepare(
      `SELECT event_json FROM hearthnet_events
         WHERE community_id = ? AND lamport BETWEEN ? AND ?
         ORDER BY lamport, event_id LIMIT ?`,
    ),
    head: database.prepare('SELECT MAX(lamport) AS head FROM hearthnet_events WHERE community_id = ?'),
    heads: database.prepare(
      `SELECT c.community_id,
         (SELECT MAX(e.lamport) FROM hearthnet_events e WHERE e.community_id = c.community_id) AS head
       FROM hearthnet_lamport_clocks c`,
    ),
    countAll: database.prepare('SELECT COUNT(*) AS count FROM hearthnet_events'),
    countCommunity: database.prepare('SELECT COUNT(*) AS count FROM hearthnet_events WHERE community_id = ?'),
  };
}

function assertString(value: unknown, name: string): asserts value is string {
  if (typeof value !== 'string') throw invalidStoreArgumentError('must be a string', name);
}

/** The check `EventStore.list` makes on its bounds: a non-negative safe integer, as `invalid_lamport`. */
function assertLamportBound(value: unknown, name: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new HearthNetLocalError(
      'invalid_lamport',
      `${name} must be a non-negative safe integer, got ${String(value)}`,
      { path: name, details: { value } },
    );
  }
}

/**
 * The event store's tables:
 * - `hearthnet_events`: append-only (triggers refuse UPDATE and DELETE), one row per event, keyed by `event_id`; `event_json` is the event's
 *   canonical JSON exactly as appended, `community_id` and `lamport` are copied out of it for the replay
 *   order index `(community_id, lamport, event_id)` (contract §7.4; ULIDs are ASCII, so SQLite's binary
 *   collation orders them as the contract does);
 * - `hearthnet_lamport_clocks`: each community's Lamport counter (contract §7.3), written in the same
 *   transaction as the event that moves it.
 */
export const EVENT_STORE_SCHEMA: SchemaComponent = {
  name: 'hearthnet_event_store',
  migrations: [
    `CREATE TABLE hearthnet_events (
       event_id TEXT PRIMARY KEY NOT NULL,
       community_id TEXT NOT NULL,
       lamport INTEGER NOT NULL CHECK (lamport >= 0),
       event_json TEXT NOT NULL
     );
     CREATE INDEX hearthnet_events_replay_idx ON hearthnet_events (community_id, lamport, event_id);
     CREATE TRIGGER hearthnet_events_no_update BEFORE UPDATE ON hearthnet_events BEGIN
       SELECT RAISE(ABORT, 'hearthnet_events is append-only');
     END;
     CREATE TRIGGER hearthnet_events_no_delete BEFORE DELETE ON hearthnet_events BEGIN
       SELECT RAISE(ABORT, 'hearthnet_events is append-only');
     END;
     CREATE TABLE hearthnet_lamport_clocks (
       community_id TEXT PRIMARY KEY NOT NULL,
       clock INTEGER NOT NULL CHECK (clock >= 0)
     ) WITHOUT ROWID;`,
  ],
};

/**
 * The `invalid_store_argument` error: an argument of `SqliteEventStore` is not what the method takes
 * (options that are neither `{ path }` nor `{ database }`, an id that is not a string, a range that is not
 * an object). `path` names the argument or option, such as `'options.path'` or `'communityId'`, and
 * starts the message. Not retryable with the same input. (Lamport bounds out of range throw the
 * `HearthNetLocalError` `invalid_lamport` of `@agentwire/hearthnet/events`, and malformed events
 * `invalid_event`, as every `EventStore` does.)
 */
export function invalidStoreArgumentError(message: string, path: string): SqliteStoreError {
  return new SqliteStoreError('invalid_store_argument', `${path} ${message}`, { path });
}
