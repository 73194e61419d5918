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

/** A case that checks a storage-convention helper function rather than the store. */
const isHelperCase = (id: string) => id.includes('.conventions.') && !id.endsWith('.store');

describe('SqliteDataStore passes dataStoreSuite', () => {
  it.each([
    ['a database file', fileStore],
    ['memory', () => new SqliteDataStore({ path: ':memory:' })],
  ])('on %s, with no case failed and only the helper-kit cases skipped', async (_, factory) => {
    const report = await runSuite(dataStoreSuite({ create: factory }));
    expect(report.errors).toEqual([]);
    // The store's own helpers are agent-connector's storageConventions, checked in @agentwire/conformance;
    // the store-level convention cases (ids ending in `.store`) run here.
    const notPassed = report.results.filter((r) => r.status !== 'passed');
    expect(notPassed.filter((r) => r.status !== 'skipped' || !isHelperCase(r.id))).toEqual([]);
    expect(
      report.results.filter((r) => r.id.includes('.conventions.') && r.id.endsWith('.store')).length,
    ).toBeGreaterThan(10);
    // The store writes, searches with 'fts' and declares domain_tags: the expiry, round-trip and filter
    // cases run against it rather than being skipped.
    const ran = (id: string) => report.results.find((r) => r.id === `data-store.contract.${id}`)?.status;
    for (const id of [
      'expires-at.get-hides-expired',
      'expires-at.query-hides-expired',
      'round-trip.every-field',
      'filters.domain-tags-exact',
      'filters.domain-tags-with-text',
    ]) {
      expect(ran(id)).toBe('passed');
    }
  });
});

describe('dataStoreSuite through registerSuite (SqliteDataStore)', () => {
  registerSuite(dataStoreSuite({ create: fileStore }), { describe, it, afterAll });
});
