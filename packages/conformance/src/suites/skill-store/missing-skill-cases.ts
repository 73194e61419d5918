import type { SkillStore } from '@agentwire/agent-connector';
import type { ConformanceCase } from '../../suite.js';
import { storeChecked } from './read-write-cases.js';
import { DRAFT_SAMPLE, MISSING_NAME, SAMPLE_NAME } from './sample-skills.js';
import { assertStoreError, SKILL_NOT_FOUND } from './skill-store-checks.js';
import type { SkillStoreContext } from './store-under-test.js';
import { SKILL_STORE_SUITE_VERSION } from './suite-version.js';

type Case = ConformanceCase<SkillStoreContext>;

const since = SKILL_STORE_SUITE_VERSION;

/** The methods that must reject with `SkillNotFoundError` when the named skill does not exist. */
const MISSING_SKILL_CALLS: readonly {
  readonly method: string;
  readonly call: (store: SkillStore, name: string) => Promise<unknown>;
}[] = [
  { method: 'load', call: (store, name) => store.load(name) },
  { method: 'metadata', call: (store, name) => store.metadata(name) },
  { method: 'versions', call: (store, name) => store.versions(name) },
  { method: 'delete', call: (store, name) => store.delete(name) },
  { method: 'update_status', call: (store, name) => store.update_status(name, 'Approved') },
];

/**
 * One case per method that names a skill: a missing one rejects with `SkillNotFoundError` (matched by
 * `name`, `code` and `connector_type`), in an empty store and in one that holds another skill.
 */
export function missingSkillCases(suiteName: string): Case[] {
  return MISSING_SKILL_CALLS.map(({ method, call }) => ({
    id: `${suiteName}.missing-skill.${method.replace('_', '-')}`,
    title: `${method}() of a missing skill rejects with SkillNotFoundError`,
    section: `SkillStore v1.0 §${method}, SkillNotFoundError`,
    level: 'required',
    since,
    run: (ctx) =>
      ctx.withStore(async (store) => {
        const what = `${method}('${MISSING_NAME}')`;
        await assertStoreError(() => call(store, MISSING_NAME), `${what} on an empty store`, SKILL_NOT_FOUND);
        await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE);
        await assertStoreError(
          () => call(store, MISSING_NAME),
          `${what} on a store holding another skill`,
          SKILL_NOT_FOUND,
        );
      }),
  }));
}
