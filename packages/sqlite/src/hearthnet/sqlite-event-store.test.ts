import { canonicalJsonString } from '@agentwire/hearthnet';
import { type SignedEvent, sortForReplay } from '@agentwire/hearthnet/events';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteStoreError } from '../shared/errors.js';
import { type SampleCommunity, StoreFiles, sampleCommunity } from './event-samples.test-support.js';
import { SqliteEventStore } from './sqlite-event-store.js';

let files: StoreFiles;
let c: SampleCommunity;

beforeEach(() => {
  files = new StoreFiles();
  c = sampleCommunity();
});
afterEach(() => files.cleanUp());

/** Rows read straight from the file, with a connection of the test's own. */
function rawRows(sql: string): unknown[] {
  const database = new Database(files.file(), { readonly: true });
  try {
    return database.prepare(sql).all();
  } finally {
    database.close();
  }
}

describe('SqliteEventStore: stored bytes', () => {
  it('stores the canonical JSON verbatim and returns the exact event, non-ASCII text and fractions included', async () => {
    const store = files.open();
    const post = c.post(1, 'Brennholz für 🔥 — „trocken“');
    await store.append(post);
    expect(rawRows('SELECT event_id, community_id, lamport, event_json FROM hearthnet_events')).toEqual([
      { event_id: post.event_id, community_id: c.id, lamport: 1, event_json: canonicalJsonString(post) },
    ]);
    const got = await store.get(post.event_id);
    expect(got).toEqual(post);
    expect(canonicalJsonString(got)).toBe(canonicalJsonString(post));
    expect((await store.list(c.id))[0]).toEqual(post);
  });

  it('keeps an event createEvent made as it is (frozen, checked once) and checks a copy of one again', async () => {
    const store = files.open();
    let made: SignedEvent | undefined;
    const stored = await store.appendLocal(c.id, (lamport) => {
      made = c.post(lamport, 'Brennholz für 🔥');
      return made;
    });
    expect(stored).toBe(made);
    expect(Object.isFrozen(stored) && Object.isFrozen(stored.data)).toBe(true);
    expect(rawRows('SELECT event_json FROM hearthnet_events')).toEqual([
      { event_json: canonicalJsonString(stored) },
    ]);
    expect(await store.append({ ...stored })).toEqual({ status: 'duplicate', clock: 1 });
    await expect(store.append({ ...stored, event_id: 'not-a-ulid' })).rejects.toMatchObject({
      code: 'invalid_event',
    });
    await expect(
      store.append({ ...stored, data: { ...stored.data, title: 'changed' } } as SignedEvent),
    ).rejects.toMatchObject({ code: 'event_conflict' });
    expect(await store.count()).toBe(1);
  });

  it('hands out fresh objects: changing one does not change the store', async () => {
    const store = files.open();
    const event = c.event(1);
    await store.append(event);
    const got = (await store.get(event.event_id)) as { lamport: number };
    got.lamport = 99;
    expect(await store.get(event.event_id)).toEqual(event);
  });

  it('keeps the table append-only: UPDATE and DELETE are refused by the schema', async () => {
    const store = files.open();
    await store.append(c.event(1));
    const database = new Database(files.file());
    try {
      expect(() => database.exec('UPDATE hearthnet_events SET lamport = 7')).toThrow(/append-only/);
      expect(() => database.exec('DELETE FROM hearthnet_events')).toThrow(/append-only/);
    } finally {
      database.close();
    }
    expect(await store.count(c.id)).toBe(1);
  });
});

describe('SqliteEventStore: restart', () => {
  it('keeps events, replay order, heads and counters (also a counter above the head) across close and reopen', async () => {
    const first = files.open();
    const received = [c.event(8, 1), c.event(2, 2), c.event(8, 3)];
    for (const event of received) await first.append(event);
    const older = c.event(3, 4);
    await first.append(older); // counter: 9, 10, 11, then 12 for this older event; the head stays 8
    const other = sampleCommunity();
    const local = await first.appendLocal(other.id, (lamport) => other.event(lamport));
    first.close();

    const second = files.open();
    expect(await second.clock(c.id)).toBe(12);
    expect(await second.head(c.id)).toBe(8);
    expect(await second.list(c.id)).toEqual(sortForReplay([...received, older]));
    expect(await second.heads()).toEqual(
      new Map([
        [c.id, 8],
        [other.id, 1],
      ]),
    );
    expect(await second.count()).toBe(5);
    expect(await second.get(local.event_id)).toEqual(local);
    expect(await second.append(received[0]!)).toEqual({ status: 'duplicate', clock: 12 });
    expect((await second.appendLocal(c.id, (lamport) => c.event(lamport, 9))).lamport).toBe(13);
  });
});

describe('SqliteEventStore: atomic local appends', () => {
  it('leaves no event and no counter move when create throws, returns a mismatched event or reuses an id', async () => {
    const store = files.open();
    const stored = c.event(4);
    await store.append(stored);
    const before = { clock: await store.clock(c.id), count: await store.count() };
    const thrown = new Error('signing failed');
    await expect(
      store.appendLocal(c.id, () => {
        throw thrown;
      }),
    ).rejects.toBe(thrown);
    await expect(store.appendLocal(c.id, (lamport) => c.event(lamport + 1))).rejects.toMatchObject({
      code: 'local_event_mismatch',
    });
    await expect(
      store.appendLocal(c.id, (lamport) => sampleCommunity().event(lamport)),
    ).rejects.toMatchObject({ code: 'local_event_mismatch' });
    await expect(
      store.appendLocal(c.id, (lamport) => c.event(lamport, 7, { eventId: stored.event_id })),
    ).rejects.toMatchObject({ code: 'event_conflict' });
    await expect(
      store.appendLocal(
        c.id,
        (lamport) => ({ ...c.event(lamport), signature: 42 }) as unknown as SignedEvent,
      ),
    ).rejects.toMatchObject({ code: 'invalid_event' });
    expect({ clock: await store.clock(c.id), count: await store.count() }).toEqual(before);
    expect(rawRows('SELECT community_id, clock FROM hearthnet_lamport_clocks')).toEqual([
      { community_id: c.id, clock: 5 },
    ]);
  });

  it('creates no counter row for a community whose first local append fails', async () => {
    const store = files.open();
    await expect(
      store.appendLocal(c.id, () => {
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(await store.heads()).toEqual(new Map());
    expect(rawRows('SELECT * FROM hearthnet_lamport_clocks')).toEqual([]);
  });

  it('gives the callback the counter read inside the transaction, so connections sharing a file never reuse a lamport', async () => {
    const a = files.open();
    const b = files.open();
    await a.append(c.event(5));
    const made = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 === 0 ? a : b).appendLocal(c.id, (lamport) => c.event(lamport, i)),
      ),
    );
    expect(made.map((event) => event.lamport).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 12 }, (_, i) => 7 + i),
    );
    expect(await a.clock(c.id)).toBe(18);
    expect(await b.clock(c.id)).toBe(18);
    expect(await b.list(c.id)).toEqual(await a.list(c.id));
  });

  it('applies the receive rule to concurrent appends from several connections as one sequence', async () => {
    const stores = [files.open(), files.open(), files.open()];
    const events = Array.from({ length: 30 }, (_, i) => c.event((i * 7) % 23, i));
    const results = await Promise.all(events.map((event, i) => stores[i % 3]!.append(event)));
    expect(results.every((r) => r.status === 'appended')).toBe(true);
    expect(new Set(results.map((r) => r.clock)).size).toBe(30);
    expect(await stores[0]!.clock(c.id)).toBe(Math.max(...results.map((r) => r.clock)));
    expect(await stores[1]!.count(c.id)).toBe(30);
    expect(await stores[2]!.list(c.id)).toEqual(sortForReplay(events));
  });

  it('refuses a lamport that would push the counter past 2^53−1, storing nothing', async () => {
    const store = files.open();
    await expect(store.append(c.event(Number.MAX_SAFE_INTEGER))).rejects.toMatchObject({
      code: 'invalid_lamport',
    });
    expect(await store.count()).toBe(0);
    await store.append(c.event(Number.MAX_SAFE_INTEGER - 1));
    expect(await store.clock(c.id)).toBe(Number.MAX_SAFE_INTEGER);
    await expect(store.appendLocal(c.id, (lamport) => c.event(lamport))).rejects.toMatchObject({
      code: 'invalid_lamport',
    });
    expect(await store.count()).toBe(1);
    expect(await store.list(c.id, { fromLamport: Number.MAX_SAFE_INTEGER - 1 })).toHaveLength(1);
  });
});

describe('SqliteEventStore.appendLocalBatch', () => {
  it('gives each event the lamport one appendLocal at a time would, in one transaction', async () => {
    const store = files.open();
    await store.append(c.event(5));
    const batch = await store.appendLocalBatch(
      c.id,
      [1, 2, 3].map((n) => (lamport: number) => c.event(lamport, n)),
    );
    // A received event at 5 moves the counter to 6 (§7.3): the next local events are 7, 8, 9.
    expect(batch.map((event) => event.lamport)).toEqual([7, 8, 9]);
    expect(await store.clock(c.id)).toBe(9);
    const oneByOne = files.open('one-by-one.db');
    await oneByOne.append(c.event(5));
    for (const n of [1, 2, 3]) await oneByOne.appendLocal(c.id, (lamport) => c.event(lamport, n));
    const lamports = async (s: typeof store) => (await s.list(c.id)).map((event) => event.lamport);
    expect(await lamports(store)).toEqual(await lamports(oneByOne));
    expect(await store.clock(c.id)).toBe(await oneByOne.clock(c.id));
    expect(batch).toEqual((await store.list(c.id)).slice(1));
    expect(await store.appendLocalBatch(c.id, [])).toEqual([]);
  });

  it('stores none of the batch when a create throws or returns a mismatched event', async () => {
    const store = files.open();
    await store.append(c.event(1));
    const good = (lamport: number) => c.event(lamport, 8);
    await expect(
      store.appendLocalBatch(c.id, [
        good,
        () => {
          throw new Error('signing failed');
        },
      ]),
    ).rejects.toThrow('signing failed');
    await expect(
      store.appendLocalBatch(c.id, [good, (lamport) => c.event(lamport + 1, 9)]),
    ).rejects.toMatchObject({
      code: 'local_event_mismatch',
    });
    expect(await store.count()).toBe(1);
    expect(await store.clock(c.id)).toBe(2);
    await expect(store.appendLocalBatch(c.id, null as never)).rejects.toMatchObject({
      code: 'invalid_store_argument',
      path: 'creates',
    });
    await expect(store.appendLocalBatch(c.id, [good, 7 as never])).rejects.toMatchObject({
      code: 'invalid_store_argument',
    });
    expect(await store.count()).toBe(1);
  });
});

describe('SqliteEventStore.appendBatch', () => {
  it('appends a large batch in one transaction with the same results as appending one by one', async () => {
    const store = files.open();
    const events = Array.from({ length: 600 }, (_, i) => c.event((i * 37) % 401, i));
    const results = await store.appendBatch([...events, events[3]!]);
    expect(results).toHaveLength(601);
    expect(results.at(-1)).toEqual({ status: 'duplicate', clock: results.at(-2)!.clock });

    const oneByOne = files.open('one-by-one.db');
    for (const [i, event] of events.entries()) expect(await oneByOne.append(event)).toEqual(results[i]);
    expect(await store.list(c.id)).toEqual(await oneByOne.list(c.id));
    expect(await store.list(c.id)).toEqual(sortForReplay(events));
    expect(await store.clock(c.id)).toBe(await oneByOne.clock(c.id));
  });

  it('stores none of a batch when one event is refused, and throws that event’s error', async () => {
    const store = files.open();
    const stored = c.event(1);
    await store.append(stored);
    const good = [c.event(2, 1), c.event(3, 2)];
    await expect(
      store.appendBatch([...good, c.event(9, 3, { eventId: stored.event_id })]),
    ).rejects.toMatchObject({ code: 'event_conflict' });
    await expect(
      store.appendBatch([...good, { ...c.event(4), event_type: 'no.such.type' } as unknown as SignedEvent]),
    ).rejects.toMatchObject({ code: 'invalid_event' });
    expect(await store.count()).toBe(1);
    expect(await store.clock(c.id)).toBe(2);
    expect(await store.appendBatch([])).toEqual([]);
    await expect(store.appendBatch(null as never)).rejects.toMatchObject({ code: 'invalid_store_argument' });
  });
});

describe('SqliteEventStore: options, arguments and lifecycle', () => {
  it('refuses options that name no usable database with invalid_store_argument', () => {
    for (const options of [null, {}, { path: '' }, { path: 'a\0b' }, { database: {} }]) {
      const error = (() => {
        try {
          new SqliteEventStore(options as never);
        } catch (caught) {
          return caught;
        }
      })();
      expect(error, JSON.stringify(options)).toMatchObject({ code: 'invalid_store_argument' });
      expect(error, JSON.stringify(options)).toBeInstanceOf(SqliteStoreError);
    }
    const closed = new Database(':memory:');
    closed.close();
    expect(() => new SqliteEventStore({ database: closed })).toThrow(
      expect.objectContaining({ code: 'invalid_store_argument' }),
    );
  });

  it('refuses ids that are not strings and ranges that are not lamports, with typed errors', async () => {
    const store = files.open();
    await expect(store.get(1 as never)).rejects.toMatchObject({ code: 'invalid_store_argument' });
    await expect(store.list({} as never)).rejects.toMatchObject({ code: 'invalid_store_argument' });
    await expect(store.list(c.id, null as never)).rejects.toMatchObject({ code: 'invalid_store_argument' });
    await expect(store.head(null as never)).rejects.toMatchObject({ code: 'invalid_store_argument' });
    await expect(store.clock(Symbol() as never)).rejects.toMatchObject({ code: 'invalid_store_argument' });
    await expect(store.count(5 as never)).rejects.toMatchObject({ code: 'invalid_store_argument' });
    await expect(store.appendLocal(c.id, 'nope' as never)).rejects.toMatchObject({
      code: 'invalid_store_argument',
    });
    for (const range of [{ fromLamport: -1 }, { toLamport: 1.5 }, { limit: Number.NaN }, { limit: '3' }]) {
      await expect(store.list(c.id, range as never)).rejects.toMatchObject({ code: 'invalid_lamport' });
    }
    await store.append(c.event(1));
    expect(await store.list(c.id, { limit: 0 })).toEqual([]);
  });

  it('shares a connection it was given and leaves it open on close; other components share the file', async () => {
    const database = new Database(files.file());
    try {
      const store = new SqliteEventStore({ database });
      await store.append(c.event(1));
      store.close();
      expect(database.open).toBe(true);
      await expect(store.count()).rejects.toMatchObject({ code: 'store_closed' });
      expect(database.prepare('SELECT component, version FROM agentwire_schema_versions').all()).toEqual([
        { component: 'hearthnet_event_store', version: 1 },
      ]);
      const again = new SqliteEventStore({ database });
      expect(await again.count(c.id)).toBe(1);
      database.close();
      await expect(again.get(c.id)).rejects.toMatchObject({ code: 'store_closed' });
    } finally {
      if (database.open) database.close();
    }
  });

  it('throws store_closed from every method after close(), which is idempotent', async () => {
    const store = files.open();
    store.close();
    store.close();
    const calls = [
      () => store.append(c.event(1)),
      () => store.appendBatch([]),
      () => store.appendLocal(c.id, (lamport) => c.event(lamport)),
      () => store.get('x'),
      () => store.list(c.id),
      () => store.head(c.id),
      () => store.heads(),
      () => store.clock(c.id),
      () => store.count(),
    ];
    for (const call of calls) await expect(call()).rejects.toMatchObject({ code: 'store_closed' });
  });

  it('refuses a database whose event store schema is newer than this release, changing nothing', () => {
    files.open().close();
    const database = new Database(files.file());
    database
      .prepare("UPDATE agentwire_schema_versions SET version = 2 WHERE component = 'hearthnet_event_store'")
      .run();
    database.close();
    expect(() => files.open()).toThrow(expect.objectContaining({ code: 'schema_migration' }));
    expect(rawRows('SELECT version FROM agentwire_schema_versions')).toEqual([{ version: 2 }]);
  });
});
