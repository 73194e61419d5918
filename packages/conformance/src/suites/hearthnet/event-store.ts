import { generateKeyPair, type KeyPair } from '@agentwire/hearthnet';
import {
  createEvent,
  createUlidFactory,
  type EventStore,
  type SignedEvent,
} from '@agentwire/hearthnet/events';
import { assertEqual, assertRefuses, assertRejects, assertTrue } from '../../assert.js';
import type { ConformanceCase, ConformanceSuite } from '../../suite.js';
import { HEARTHNET_SUITE_VERSION } from './suite-version.js';

/** Options of {@link eventStoreSuite}. */
export interface EventStoreSuiteOptions {
  /** Builds the store under test, once per run. Use a fresh, empty store. */
  readonly create: () => EventStore | Promise<EventStore>;
  /**
   * Closes `store` and opens it again on the same storage (a durable store's restart). Enables the
   * `persistence` cases.
   */
  readonly reopen?: (store: EventStore) => EventStore | Promise<EventStore>;
  /** Called once after the last case, with the store the run ended on. */
  readonly dispose?: (store: EventStore) => void | Promise<void>;
}

/** What every case gets: the store (replaced by `reopen`) and the options. */
export interface EventStoreContext {
  store: EventStore;
  readonly reopen: ((store: EventStore) => EventStore | Promise<EventStore>) | undefined;
}

const SUITE_NAME = 'hearthnet.event-store';
/**
 * Version of `hearthnet.event-store`; 1.1.0 added the cases on refusals' codes and paths, stored events
 * that callers cannot change, `head` past two events, and the Lamport ceiling.
 */
export const EVENT_STORE_SUITE_VERSION = '1.1.0';
const SINCE_1_1 = '1.1.0';
const SECTION = 'HearthNet §7.3–§7.4';
const ulid = createUlidFactory();

/** A fresh community (its own root key, so cases never see each other's events) and helpers to sign events in it. */
function community() {
  const root = generateKeyPair();
  const event = (lamport: number, cid = 0, key: KeyPair = root): SignedEvent =>
    createEvent(
      {
        community_id: root.nodeId,
        event_type: 'file.cid.unpinned',
        data: { cid: `blake3:${cid.toString(16).padStart(64, '0')}` },
        lamport,
      },
      key,
      { ulid },
    );
  return { id: root.nodeId, root, event };
}

function storeCase(
  id: string,
  title: string,
  run: (ctx: EventStoreContext) => Promise<void>,
  requires?: string,
  since = HEARTHNET_SUITE_VERSION,
): ConformanceCase<EventStoreContext> {
  return {
    id: `${SUITE_NAME}.${id}`,
    title,
    section: SECTION,
    level: 'required',
    since,
    ...(requires === undefined ? {} : { requires }),
    run,
  };
}

const cases: readonly ConformanceCase<EventStoreContext>[] = [
  storeCase(
    'append-get',
    'stores an event and returns it by event_id, from any community',
    async ({ store }) => {
      const c = community();
      const event = c.event(1);
      assertEqual(await store.append(event), { status: 'appended', clock: 2 }, 'append result');
      assertEqual(await store.get(event.event_id), event, 'get');
      assertEqual(await store.get(ulid()), undefined, 'get of an unknown id');
    },
  ),
  storeCase(
    'duplicate-identical',
    'answers an identical event again with duplicate and changes nothing',
    async ({ store }) => {
      const c = community();
      const event = c.event(5);
      await store.append(event);
      assertEqual(
        await store.append(structuredClone(event)),
        { status: 'duplicate', clock: 6 },
        'second append',
      );
      assertEqual(await store.count(c.id), 1, 'count');
      assertEqual(await store.clock(c.id), 6, 'clock');
    },
  ),
  storeCase(
    'duplicate-conflict',
    'refuses another event with a stored event_id and keeps the stored one',
    async ({ store }) => {
      const c = community();
      const event = c.event(1, 1);
      await store.append(event);
      const other = createEvent(
        {
          community_id: c.id,
          event_type: 'file.cid.unpinned',
          data: { cid: `blake3:${'f'.repeat(64)}` },
          lamport: 1,
          event_id: event.event_id,
        },
        c.root,
      );
      await assertRefuses(
        () => store.append(other),
        { code: 'event_conflict', details: { eventId: event.event_id } },
        'a conflicting duplicate must be refused',
      );
      assertEqual(await store.get(event.event_id), event, 'the stored event');
    },
  ),
  storeCase(
    'replay-order',
    'lists a community in replay order (lamport, then event_id) whatever the append order',
    async ({ store }) => {
      const c = community();
      const events = [
        c.event(3, 1),
        c.event(1, 2),
        c.event(2, 3),
        c.event(2, 4),
        c.event(2, 5),
        c.event(7, 6),
      ];
      for (const event of [events[4], events[0], events[5], events[2], events[1], events[3]])
        await store.append(event!);
      const expected = [...events].sort(
        (a, b) => a.lamport - b.lamport || (a.event_id < b.event_id ? -1 : a.event_id > b.event_id ? 1 : 0),
      );
      assertEqual(await store.list(c.id), expected, 'list');
    },
  ),
  storeCase('list-ranges', 'lists by inclusive lamport range and limit', async ({ store }) => {
    const c = community();
    const events = [1, 2, 3, 4, 5].map((lamport) => c.event(lamport, lamport));
    for (const event of events) await store.append(event);
    assertEqual(await store.list(c.id, { fromLamport: 2, toLamport: 4 }), events.slice(1, 4), 'from 2 to 4');
    assertEqual(await store.list(c.id, { fromLamport: 4 }), events.slice(3), 'from 4');
    assertEqual(await store.list(c.id, { toLamport: 1 }), events.slice(0, 1), 'to 1');
    assertEqual(await store.list(c.id, { fromLamport: 2, limit: 2 }), events.slice(1, 3), 'from 2, limit 2');
    assertEqual(await store.list(c.id, { fromLamport: 6 }), [], 'past the head');
    assertEqual(await store.list(community().id), [], 'an unknown community');
  }),
  storeCase(
    'receive-clock',
    'moves the counter to max(counter, lamport) + 1 on receive; head is the highest stored',
    async ({ store }) => {
      const c = community();
      assertEqual(await store.clock(c.id), 0, 'clock of an empty community');
      assertEqual(await store.head(c.id), undefined, 'head of an empty community');
      assertEqual((await store.append(c.event(10))).clock, 11, 'after lamport 10');
      assertEqual((await store.append(c.event(3))).clock, 12, 'after an older lamport 3');
      assertEqual(await store.clock(c.id), 12, 'clock');
      assertEqual(await store.head(c.id), 10, 'head');
    },
  ),
  storeCase(
    'append-local',
    'gives a local event counter + 1 and sets the counter to it',
    async ({ store }) => {
      const c = community();
      await store.append(c.event(4));
      const local = await store.appendLocal(c.id, (lamport) => c.event(lamport));
      assertEqual(local.lamport, 6, 'lamport of the local event');
      assertEqual(await store.clock(c.id), 6, 'clock');
      assertEqual(await store.get(local.event_id), local, 'stored');
      const next = await store.appendLocal(c.id, (lamport) => c.event(lamport));
      assertEqual(next.lamport, 7, 'next local lamport');
    },
  ),
  storeCase(
    'append-local-concurrent',
    'gives concurrent local appends distinct, consecutive lamports',
    async ({ store }) => {
      const c = community();
      const events = await Promise.all(
        Array.from({ length: 8 }, (_, i) => store.appendLocal(c.id, (lamport) => c.event(lamport, i))),
      );
      assertEqual(
        events.map((e) => e.lamport).sort((a, b) => a - b),
        [1, 2, 3, 4, 5, 6, 7, 8],
        'lamports',
      );
      assertEqual(await store.clock(c.id), 8, 'clock');
    },
  ),
  storeCase(
    'append-local-refusals',
    'stores nothing when the callback throws or returns a mismatched event',
    async ({ store }) => {
      const c = community();
      await assertRejects(
        () =>
          store.appendLocal(c.id, () => {
            throw new Error('no');
          }),
        'a throwing callback',
      );
      await assertRefuses(
        () => store.appendLocal(c.id, (lamport) => c.event(lamport + 1)),
        { code: 'local_event_mismatch' },
        'an event at another lamport',
      );
      await assertRefuses(
        () => store.appendLocal(c.id, (lamport) => community().event(lamport)),
        { code: 'local_event_mismatch' },
        'an event of another community',
      );
      await assertRefuses(
        () => store.appendLocal(c.id, () => undefined as unknown as SignedEvent),
        { code: 'local_event_mismatch' },
        'a callback that returns no event',
      );
      assertEqual(await store.count(c.id), 0, 'count');
      assertEqual(await store.clock(c.id), 0, 'clock');
    },
  ),
  storeCase('invalid-event', 'refuses an event whose shape is invalid', async ({ store }) => {
    const c = community();
    const event = { ...c.event(1), event_type: 'not.a.type' } as unknown as SignedEvent;
    await assertRefuses(
      () => store.append(event),
      { code: 'invalid_event', path: '$.event_type', details: { reason: 'unknown_event_type' } },
      'an unknown event type',
    );
    assertEqual(await store.count(c.id), 0, 'count');
  }),
  storeCase(
    'heads-count',
    'reports heads and counts per community, and the total count',
    async ({ store }) => {
      const a = community();
      const b = community();
      const before = await store.count();
      await store.append(a.event(2));
      await store.append(a.event(9));
      await store.append(b.event(4));
      const heads = await store.heads();
      assertEqual(heads.get(a.id), 9, 'head of a');
      assertEqual(heads.get(b.id), 4, 'head of b');
      assertEqual(await store.count(a.id), 2, 'count of a');
      assertEqual(await store.count(b.id), 1, 'count of b');
      assertEqual(await store.count(), before + 3, 'total count');
      assertTrue(
        (await store.list(b.id)).every((event) => event.community_id === b.id),
        'b lists only its events',
      );
    },
  ),
  storeCase(
    'list-refusals',
    'refuses a lamport bound or limit that is not a non-negative safe integer, naming it',
    async ({ store }) => {
      const c = community();
      await store.append(c.event(1));
      const refusals: readonly [string, Record<string, unknown>][] = [
        ['fromLamport', { fromLamport: -1 }],
        ['toLamport', { toLamport: 1.5 }],
        ['limit', { limit: -1 }],
        ['limit', { limit: '2' }],
        ['fromLamport', { fromLamport: Number.MAX_SAFE_INTEGER + 1 }],
      ];
      for (const [path, range] of refusals) {
        await assertRefuses(
          () => store.list(c.id, range),
          { code: 'invalid_lamport', path, details: { value: Object.values(range)[0] } },
          `list with ${JSON.stringify(range)}`,
        );
      }
      assertEqual((await store.list(c.id, { limit: 0 })).length, 0, 'limit 0');
    },
    undefined,
    SINCE_1_1,
  ),
  storeCase(
    'head-highest',
    'answers head and heads with the highest lamport stored, whatever the arrival order',
    async ({ store }) => {
      const c = community();
      for (const lamport of [4, 9, 2, 6]) await store.append(c.event(lamport, lamport));
      assertEqual(await store.head(c.id), 9, 'head');
      assertEqual((await store.heads()).get(c.id), 9, 'heads');
    },
    undefined,
    SINCE_1_1,
  ),
  storeCase(
    'stored-events-isolated',
    'keeps a stored event as appended when the caller later changes what it appended or was given',
    async ({ store }) => {
      const c = community();
      // A plain copy, as a store receives one from a peer (what createEvent returns is frozen), with data
      // beyond the type's fields — kept, signed — holding null, an array and an own "__proto__" key.
      const event = structuredClone(
        createEvent(
          {
            community_id: c.id,
            event_type: 'file.cid.unpinned',
            // JSON.parse makes "__proto__" an own key: data like any other, which a store must keep as such.
            data: JSON.parse(
              `{"cid":"blake3:${'7'.repeat(64)}","kept":{"note":null,"tags":["a",1],"__proto__":{"deep":true}}}`,
            ),
            lamport: 1,
          },
          c.root,
          { ulid },
        ),
      );
      const original = structuredClone(event);
      await store.append(event);
      tryToChange(event);
      assertEqual(await store.get(event.event_id), original, 'after changing the appended object');
      tryToChange(await store.get(event.event_id));
      tryToChange((await store.list(c.id))[0]);
      assertEqual(await store.get(event.event_id), original, 'after changing what get and list returned');
      assertEqual(await store.list(c.id), [original], 'list');
    },
    undefined,
    SINCE_1_1,
  ),
  storeCase(
    'lamport-ceiling',
    'refuses an event whose counter would pass 2^53 − 1, and stores nothing of it',
    async ({ store }) => {
      const c = community();
      const last = c.event(Number.MAX_SAFE_INTEGER);
      await assertRefuses(
        () => store.append(last),
        { code: 'invalid_lamport', details: { value: Number.MAX_SAFE_INTEGER } },
        'an event at 2^53 − 1',
      );
      assertEqual(await store.get(last.event_id), undefined, 'get');
      assertEqual(await store.count(c.id), 0, 'count');
      assertEqual(await store.clock(c.id), 0, 'clock');
      assertEqual(await store.head(c.id), undefined, 'head');
      assertEqual((await store.heads()).has(c.id), false, 'heads lists the community');
    },
    undefined,
    SINCE_1_1,
  ),
  storeCase(
    'persistence',
    'keeps events, order and counters across a restart',
    async (ctx) => {
      const c = community();
      await ctx.store.append(c.event(3, 1));
      const local = await ctx.store.appendLocal(c.id, (lamport) => c.event(lamport, 2));
      const before = await ctx.store.list(c.id);
      ctx.store = await ctx.reopen!(ctx.store);
      assertEqual(await ctx.store.list(c.id), before, 'events');
      assertEqual(await ctx.store.clock(c.id), local.lamport, 'clock');
      assertEqual(await ctx.store.get(local.event_id), local, 'get');
      assertEqual((await ctx.store.append(local)).status, 'duplicate', 'duplicate after restart');
    },
    'persistence',
  ),
];

/** Changes a returned or appended event in place, where it lets itself be changed (a frozen one does not). */
function tryToChange(event: SignedEvent | undefined): void {
  if (event === undefined) return;
  try {
    const changeable = event as unknown as { lamport: number; data: Record<string, unknown> };
    changeable.lamport = 424_242;
    changeable.data['cid'] = `blake3:${'e'.repeat(64)}`;
  } catch {
    // frozen: nothing changed
  }
}

/**
 * The `EventStore` contract of `@agentwire/hearthnet/events`: append and get, idempotent duplicates,
 * conflicting duplicates refused, replay order and Lamport ranges, the counter rules of contract §7.3
 * (receive and local, atomic under concurrency), heads and counts, and — with `reopen` — persistence.
 * Every case works in its own community, so the cases share one store.
 *
 * @example
 * ```ts
 * import { InMemoryEventStore } from '@agentwire/hearthnet/events';
 * const suite = eventStoreSuite({ create: () => new InMemoryEventStore() });
 * ```
 */
export function eventStoreSuite(options: EventStoreSuiteOptions): ConformanceSuite<EventStoreContext> {
  return {
    name: SUITE_NAME,
    version: EVENT_STORE_SUITE_VERSION,
    description:
      'The HearthNet EventStore: append/get, duplicates, conflicts, replay order, lamport ranges, the Lamport ' +
      'counter on receive and on local append, heads, counts, and persistence across a restart.',
    cases,
    needs: {
      persistence: {
        provide: 'a `reopen` option that closes the store and opens it again on the same storage',
      },
    },
    setup: async () => {
      const ctx: EventStoreContext = { store: await options.create(), reopen: options.reopen };
      return {
        ctx,
        capabilities: new Set(options.reopen === undefined ? [] : ['persistence']),
        ...(options.dispose === undefined ? {} : { dispose: () => options.dispose!(ctx.store) }),
      };
    },
  };
}
