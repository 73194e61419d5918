import { type EventStore, InMemoryEventStore, type SignedEvent } from '@agentwire/hearthnet/events';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SampleCommunity, StoreFiles, sampleCommunity } from './event-samples.test-support.js';
import type { SqliteEventStore } from './sqlite-event-store.js';

/** One step of a history: receive a pooled event, make a local one, or restart the SQLite store. */
type Step =
  | { readonly kind: 'append'; readonly index: number }
  | { readonly kind: 'local'; readonly community: number }
  | { readonly kind: 'reopen' };

const communities: readonly SampleCommunity[] = [sampleCommunity(), sampleCommunity()];
/** Received events: two communities, lamports 0–12 with repeats, and conflicting twins of some ids. */
const pool: readonly SignedEvent[] = (() => {
  const events = Array.from({ length: 24 }, (_, i) => communities[i % 2]!.event((i * 5) % 13, i));
  const twins = events
    .slice(0, 4)
    .map((event, i) => communities[0]!.event(1, 100 + i, { eventId: event.event_id }));
  return [...events, ...twins];
})();

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.nat(pool.length - 1).map((index) => ({ kind: 'append' as const, index })) },
  { weight: 2, arbitrary: fc.nat(1).map((community) => ({ kind: 'local' as const, community })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reopen' as const }) },
);

/** What a call did, comparable across stores: its value, or its error's code. */
async function outcome<T>(call: () => Promise<T>): Promise<{ value: T } | { error: unknown }> {
  try {
    return { value: await call() };
  } catch (error) {
    return { error: (error as { code?: unknown }).code ?? error };
  }
}

async function state(store: EventStore) {
  return {
    lists: await Promise.all(communities.map((c) => store.list(c.id))),
    clocks: await Promise.all(communities.map((c) => store.clock(c.id))),
    heads: await store.heads(),
    count: await store.count(),
  };
}

let files: StoreFiles;
beforeEach(() => {
  files = new StoreFiles();
});
afterEach(() => files.cleanUp());

describe('SqliteEventStore against InMemoryEventStore', () => {
  it('gives the same results and the same state for any history of receives, local appends and restarts', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 24 }), async (steps) => {
        const name = `run-${run++}.db`;
        let sqlite: SqliteEventStore = files.open(name);
        const memory = new InMemoryEventStore();
        for (const s of steps) {
          if (s.kind === 'reopen') {
            sqlite.close();
            sqlite = files.open(name);
          } else if (s.kind === 'append') {
            const event = pool[s.index]!;
            expect(await outcome(() => sqlite.append(event))).toEqual(
              await outcome(() => memory.append(event)),
            );
          } else {
            const c = communities[s.community]!;
            const made = await sqlite.appendLocal(c.id, (lamport) => c.event(lamport, 1000));
            expect(await memory.appendLocal(c.id, () => made)).toEqual(made);
          }
        }
        expect(await state(sqlite)).toEqual(await state(memory));
      }),
      { numRuns: 30 },
    );
  });
});
