import { eventStoreSuite, runSuite } from '@agentwire/conformance';
import { registerSuite } from '@agentwire/conformance/vitest';
import type { EventStore } from '@agentwire/hearthnet/events';
import { afterAll, describe, expect, it } from 'vitest';
import { createTempDirectory } from '../../test/temp-directory.js';
import { SqliteEventStore } from './sqlite-event-store.js';

/**
 * The suite's options for a store on a real database file: `reopen` closes the store and opens a new
 * one (a new connection) on the same file, `dispose` closes the last one and removes the folder.
 */
function onAFile() {
  const dir = createTempDirectory('agentwire-sqlite-events-');
  const path = dir.file('events.db');
  const close = (store: EventStore) => {
    if (!(store instanceof SqliteEventStore)) throw new Error('expected a SqliteEventStore');
    store.close();
  };
  return {
    create: () => new SqliteEventStore({ path }),
    reopen: (store: EventStore) => {
      close(store);
      return new SqliteEventStore({ path });
    },
    dispose: (store: EventStore) => {
      close(store);
      dir.remove();
    },
  };
}

describe('SqliteEventStore passes eventStoreSuite', () => {
  it('on a database file, persistence across close and reopen included, with no case failed or skipped', async () => {
    const report = await runSuite(eventStoreSuite(onAFile()));
    expect(report.errors).toEqual([]);
    expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
    expect(report.results.map((r) => r.id)).toContain('hearthnet.event-store.persistence');
  });

  it('in memory, every case but persistence', async () => {
    const report = await runSuite(
      eventStoreSuite({ create: () => new SqliteEventStore({ path: ':memory:' }) }),
    );
    expect(report.errors).toEqual([]);
    const notPassed = report.results.filter((r) => r.status !== 'passed').map((r) => [r.id, r.status]);
    expect(notPassed).toEqual([['hearthnet.event-store.persistence', 'skipped']]);
  });
});

describe('eventStoreSuite through registerSuite (SqliteEventStore on a file)', () => {
  registerSuite(eventStoreSuite(onAFile()), { describe, it, afterAll });
});
