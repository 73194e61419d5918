import { runSuite, skillStoreSuite } from '@agentwire/conformance';
import { registerSuite } from '@agentwire/conformance/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { createTempDirectory } from '../../test/temp-directory.js';
import { SqliteSkillStore } from './sqlite-skill-store.js';

/** A fresh store on a real database file in a temp folder, removed with it. */
function fileStore() {
  const dir = createTempDirectory();
  const store = new SqliteSkillStore({ path: dir.file('skills.db') });
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

describe('SqliteSkillStore passes skillStoreSuite', () => {
  it.each([
    ['a database file', fileStore],
    ['memory', () => new SqliteSkillStore({ path: ':memory:' })],
  ])('on %s, with no case failed and only the helper-kit cases skipped', async (_, factory) => {
    const report = await runSuite(skillStoreSuite({ create: factory }));
    expect(report.errors).toEqual([]);
    // The store's own helpers are agent-connector's storageConventions, checked in @agentwire/conformance;
    // the store-level convention cases (ids ending in `.store`) run here.
    const notPassed = report.results.filter((r) => r.status !== 'passed');
    expect(notPassed.filter((r) => r.status !== 'skipped' || !isHelperCase(r.id))).toEqual([]);
    expect(
      report.results.filter((r) => r.id.includes('.conventions.') && r.id.endsWith('.store')).length,
    ).toBeGreaterThan(10);
    // The store declares supports_tag_filter and keeps historical versions: these cases run here.
    const ran = (id: string) => report.results.find((r) => r.id === `skill-store.contract.${id}`)?.status;
    for (const id of [
      'query.tag-filter',
      'query.tag-filter-all-of',
      'metadata.tags-kept',
      'load.old-version',
    ]) {
      expect(ran(id)).toBe('passed');
    }
  });
});

describe('skillStoreSuite through registerSuite (SqliteSkillStore)', () => {
  registerSuite(skillStoreSuite({ create: fileStore }), { describe, it, afterAll });
});
