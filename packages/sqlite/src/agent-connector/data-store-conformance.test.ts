import { dataStoreSuite, runSuite } from '@agentwire/conformance';
import { registerSuite } from '@agentwire/conformance/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { createTempDirectory } from '../../test/temp-directory.js';
import { SqliteDataStore } from './sqlite-data-store.js';

/** A store on a real database file in a temp folder, removed with it. */
function fileStore() {
  const dir = createTempDirectory();
  const store = new SqliteDataStore({ path: dir.file('data.db') });
  return {
    store,
    dispose: () => {
      store.close();
      dir.remove();
    },
  };
}

describe('SqliteDataStore passes dataStoreSuite', () => {
  it.each([
    ['a database file', fileStore],
    ['memory', () => new SqliteDataStore({ path: ':memory:' })],
  ])('on %s, with no case failed or skipped', async (_, factory) => {
    const report = await runSuite(dataStoreSuite({ factory }));
    expect(report.errors).toEqual([]);
    expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
  });
});

describe('dataStoreSuite through registerSuite (SqliteDataStore)', () => {
  registerSuite(dataStoreSuite({ factory: fileStore }), { describe, it, afterAll });
});
