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

describe('SqliteSkillStore passes skillStoreSuite', () => {
  it.each([
    ['a database file', fileStore],
    ['memory', () => new SqliteSkillStore({ path: ':memory:' })],
  ])('on %s, with no case failed or skipped', async (_, factory) => {
    const report = await runSuite(skillStoreSuite({ factory }));
    expect(report.errors).toEqual([]);
    expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
  });
});

describe('skillStoreSuite through registerSuite (SqliteSkillStore)', () => {
  registerSuite(skillStoreSuite({ factory: fileStore }), { describe, it, afterAll });
});
