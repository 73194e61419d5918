import {
  type SkillStatus,
  type SkillStore,
  statusOfSkill,
  versionInfoSchema,
} from '@agentwire/agent-connector';
import { assertEqual, assertTrue } from '../../assert.js';
import { formatValue } from '../../format-value.js';
import type { ConformanceCase } from '../../suite.js';
import { loadChecked, storeChecked } from './read-write-cases.js';
import { DRAFT_SAMPLE, editedDraftSample, SAMPLE_NAME } from './sample-skills.js';
import { assertMatches, assertStoreError, mustResolve, SKILL_NOT_FOUND } from './skill-store-checks.js';
import type { SkillStoreContext } from './store-under-test.js';
import { SKILL_STORE_SUITE_VERSION } from './suite-version.js';

type Case = ConformanceCase<SkillStoreContext>;

const since = SKILL_STORE_SUITE_VERSION;

async function updateChecked(store: SkillStore, name: string, status: SkillStatus) {
  const info = await mustResolve(`update_status('${name}', '${status}')`, () =>
    store.update_status(name, status),
  );
  return assertMatches(versionInfoSchema, info, `update_status('${name}', '${status}') VersionInfo`);
}

async function queriedNames(
  store: SkillStore,
  filter: Parameters<SkillStore['query']>[0],
): Promise<string[]> {
  const found = await mustResolve(`query(${formatValue(filter)})`, () => store.query(filter));
  return found.map((meta) => meta.name).sort();
}

/** `update_status`, status filtering, `versions()` and `delete`, gated on the features the class declares. */
export function featureCases(suiteName: string): Case[] {
  const id = (rest: string) => `${suiteName}.${rest}`;
  return [
    {
      id: id('update-status.persists'),
      title: 'update_status() changes the status metadata() reports and the body load() returns',
      section: 'SkillStore v1.0 §update_status',
      level: 'required',
      requires: 'supports_writes',
      since,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE);
          const info = await updateChecked(store, SAMPLE_NAME, 'Approved');
          assertEqual(info.status, 'Approved', 'update_status() VersionInfo.status');
          const meta = await mustResolve('metadata()', () => store.metadata(SAMPLE_NAME));
          assertEqual(meta.status, 'Approved', 'metadata().status after update_status()');
          const loaded = await loadChecked(store, SAMPLE_NAME);
          assertEqual(statusOfSkill(loaded.source), 'Approved', 'the `# Status:` header load() returns');
          assertEqual(loaded.content_hash, info.content_hash, 'load().content_hash against update_status()');
        }),
    },
    {
      id: id('update-status.previous-status'),
      title: 'update_status() fills previous_status with the status it replaced',
      section: 'SkillStore v1.0 §update_status, VersionInfo',
      level: 'required',
      requires: 'supports_audit_trail',
      since,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE);
          const approved = await updateChecked(store, SAMPLE_NAME, 'Approved');
          assertEqual(approved.previous_status, 'Draft', 'previous_status of Draft → Approved');
          const disabled = await updateChecked(store, SAMPLE_NAME, 'Disabled');
          assertEqual(disabled.previous_status, 'Approved', 'previous_status of Approved → Disabled');
          assertEqual(disabled.status, 'Disabled', 'status of Approved → Disabled');
        }),
    },
    {
      id: id('query.status-filter'),
      title: 'query({ status }) keeps exactly the skills in the given status or statuses',
      section: 'SkillStore v1.0 §query, SkillFilter',
      level: 'required',
      requires: 'supports_writes',
      since,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          await storeChecked(store, 'draft-a', DRAFT_SAMPLE);
          await storeChecked(store, 'approved-b', DRAFT_SAMPLE);
          await updateChecked(store, 'approved-b', 'Approved');
          assertEqual(await queriedNames(store, { status: 'Approved' }), ['approved-b'], "status 'Approved'");
          assertEqual(await queriedNames(store, { status: ['Draft'] }), ['draft-a'], "status ['Draft']");
          assertEqual(
            await queriedNames(store, { status: ['Draft', 'Approved'] }),
            ['approved-b', 'draft-a'],
            "status ['Draft', 'Approved']",
          );
          assertEqual(await queriedNames(store, { status: 'Disabled' }), [], "status 'Disabled' (no match)");
        }),
    },
    {
      id: id('versions.lists'),
      title: 'versions() lists every write and status change of a skill, the current one included',
      section: 'SkillStore v1.0 §versions',
      level: 'required',
      requires: 'supports_versioning',
      since,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          const first = await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE);
          const second = await storeChecked(store, SAMPLE_NAME, editedDraftSample('second version'));
          const third = await updateChecked(store, SAMPLE_NAME, 'Approved');
          const listed = await mustResolve('versions()', () => store.versions(SAMPLE_NAME));
          assertTrue(
            Array.isArray(listed),
            `versions() must resolve to an array, got ${formatValue(listed)}`,
          );
          const entries = listed.map((entry, index) =>
            assertMatches(versionInfoSchema, entry, `versions()[${index}]`),
          );
          assertTrue(
            entries.every((entry) => entry.name === SAMPLE_NAME),
            `every entry must name '${SAMPLE_NAME}': ${formatValue(entries)}`,
          );
          const versions = entries.map((entry) => entry.version);
          for (const [what, info] of [
            ['first store()', first],
            ['second store()', second],
            ['update_status()', third],
          ] as const) {
            assertTrue(
              versions.includes(info.version),
              `versions() lacks the ${what} version ${info.version}`,
            );
          }
          const current = (await loadChecked(store, SAMPLE_NAME)).version;
          assertTrue(versions.includes(current), `versions() lacks the current version ${current}`);
        }),
    },
    {
      id: id('delete.removes'),
      title: 'delete() removes the skill from load, metadata, versions and query, and frees its name',
      section: 'SkillStore v1.0 §delete',
      level: 'required',
      since,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE);
          await storeChecked(store, 'conformance-kept', DRAFT_SAMPLE);
          await mustResolve(`delete('${SAMPLE_NAME}')`, () => store.delete(SAMPLE_NAME));
          await assertStoreError(() => store.load(SAMPLE_NAME), 'load() after delete()', SKILL_NOT_FOUND);
          await assertStoreError(
            () => store.metadata(SAMPLE_NAME),
            'metadata() after delete()',
            SKILL_NOT_FOUND,
          );
          await assertStoreError(
            () => store.versions(SAMPLE_NAME),
            'versions() after delete()',
            SKILL_NOT_FOUND,
          );
          assertEqual(await queriedNames(store, {}), ['conformance-kept'], 'query() names after delete()');
          const reused = editedDraftSample('stored again');
          await storeChecked(store, SAMPLE_NAME, reused);
          assertEqual(
            (await loadChecked(store, SAMPLE_NAME)).source,
            reused,
            'load() of the name stored again',
          );
        }),
    },
  ];
}
