import {
  contentHash,
  type SkillFilter,
  type SkillStore,
  skillMetaSchema,
  skillSourceSchema,
  versionFromHash,
  versionInfoSchema,
} from '@agentwire/agent-connector';
import { assertEqual, assertTrue } from '../../assert.js';
import { formatValue } from '../../format-value.js';
import type { ConformanceCase } from '../../suite.js';
import { DRAFT_SAMPLE, editedDraftSample, SAMPLE_NAME, UNICODE_SAMPLE } from './sample-skills.js';
import {
  assertMatches,
  assertStoreError,
  assertUnixSeconds,
  mustResolve,
  VERSION_NOT_FOUND,
} from './skill-store-checks.js';
import type { SkillStoreContext } from './store-under-test.js';
import { SKILL_STORE_SUITE_VERSION } from './suite-version.js';

type Case = ConformanceCase<SkillStoreContext>;

const since = SKILL_STORE_SUITE_VERSION;

/** Stores `source` under `name` and checks the returned `VersionInfo` against the schema. */
export async function storeChecked(store: SkillStore, name: string, source: string) {
  const info = await mustResolve(`store('${name}')`, () => store.store(name, source));
  return assertMatches(versionInfoSchema, info, `store('${name}') VersionInfo`);
}

/** Loads `name` and checks the returned `SkillSource` against the schema. */
export async function loadChecked(store: SkillStore, name: string, version?: string) {
  const loaded = await mustResolve(`load('${name}')`, () =>
    version === undefined ? store.load(name) : store.load(name, version),
  );
  return assertMatches(skillSourceSchema, loaded, `load('${name}') SkillSource`);
}

/** Filters every query on an empty store must answer with `[]`. */
const EMPTY_STORE_FILTERS: readonly SkillFilter[] = [
  {},
  { status: 'Approved' },
  { status: ['Draft', 'Disabled'] },
  { name_pattern: 'conformance' },
  { since: 0 },
  { tag: 'conformance' },
  { author: 'conformance' },
  { limit: 5, offset: 2 },
  { x_unknown_filter_key: true },
];

/** `query` on an empty store, `store` and its `VersionInfo`, `load` round trips, `metadata`, timestamps. */
export function readWriteCases(suiteName: string): Case[] {
  const id = (rest: string) => `${suiteName}.${rest}`;
  return [
    {
      id: id('query.empty-store'),
      title: 'query() of an empty store resolves to [], whatever the filter',
      section: 'SkillStore v1.0 §query',
      level: 'required',
      since,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          assertEqual(await mustResolve('query()', () => store.query()), [], 'query()');
          for (const filter of EMPTY_STORE_FILTERS) {
            const found = await mustResolve(`query(${formatValue(filter)})`, () => store.query(filter));
            assertEqual(found, [], `query(${formatValue(filter)})`);
          }
        }),
    },
    {
      id: id('store.version-info'),
      title: 'store() resolves to a valid VersionInfo that names the version load() then returns',
      section: 'SkillStore v1.0 §store, VersionInfo',
      level: 'required',
      since,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          const info = await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE);
          assertEqual(info.name, SAMPLE_NAME, 'VersionInfo.name');
          assertEqual(info.status, 'Draft', 'VersionInfo.status of a `# Status: draft` body');
          const loaded = await loadChecked(store, SAMPLE_NAME);
          assertEqual(info.version, loaded.version, 'VersionInfo.version against load().version');
          assertEqual(info.content_hash, loaded.content_hash, 'VersionInfo.content_hash against load()');
        }),
    },
    {
      id: id('store.content-hash-convention'),
      title: 'content_hash is the SHA-256 hex of the bytes load() returns; version is its first 12 digits',
      section: 'SkillStore conventions §content_hash, §version',
      level: 'recommended',
      since,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          const info = await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE);
          const loaded = await loadChecked(store, SAMPLE_NAME);
          const expected = contentHash(loaded.source);
          assertEqual(info.content_hash, expected, 'store() content_hash, SHA-256 of load().source');
          assertEqual(loaded.content_hash, expected, 'load() content_hash, SHA-256 of load().source');
          assertEqual(info.version, versionFromHash(expected), 'store() version, first 12 hex digits');
          assertEqual(loaded.version, versionFromHash(expected), 'load() version, first 12 hex digits');
        }),
    },
    {
      id: id('load.round-trip'),
      title:
        'load() returns the stored bytes exactly, lowercase `# Status: draft`, CRLF and non-ASCII included',
      section: 'SkillStore v1.0 §load, SkillSource',
      level: 'required',
      since,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          for (const [name, source] of [
            [SAMPLE_NAME, DRAFT_SAMPLE],
            ['conformance-unicode', UNICODE_SAMPLE],
          ] as const) {
            await storeChecked(store, name, source);
            const loaded = await loadChecked(store, name);
            assertEqual(loaded.source, source, `load('${name}').source`);
            assertEqual(loaded.name, name, `load('${name}').name`);
            assertEqual(loaded.metadata.name, name, `load('${name}').metadata.name`);
            assertEqual(loaded.metadata.status, 'Draft', `load('${name}').metadata.status`);
            assertEqual(loaded.metadata.version, loaded.version, `load('${name}').metadata.version`);
            assertEqual(
              loaded.metadata.content_hash,
              loaded.content_hash,
              `load('${name}').metadata.content_hash`,
            );
          }
        }),
    },
    {
      id: id('load.version'),
      title:
        'load(name, version) returns the current version and rejects an unknown one with SkillNotFoundError (version_not_found)',
      section: 'SkillStore v1.0 §load',
      level: 'required',
      since,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          const info = await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE);
          const loaded = await loadChecked(store, SAMPLE_NAME, info.version);
          assertEqual(loaded.source, DRAFT_SAMPLE, `load('${SAMPLE_NAME}', '${info.version}').source`);
          await assertStoreError(
            () => store.load(SAMPLE_NAME, 'conformance-no-such-version'),
            `load('${SAMPLE_NAME}', 'conformance-no-such-version')`,
            VERSION_NOT_FOUND,
          );
        }),
    },
    {
      id: id('store.overwrite'),
      title: 'store() of an existing name replaces its body and moves its version',
      section: 'SkillStore v1.0 §store',
      level: 'required',
      since,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          const first = await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE);
          const edited = editedDraftSample('overwritten');
          const second = await storeChecked(store, SAMPLE_NAME, edited);
          assertTrue(second.version !== first.version, 'an edited body must get a new version');
          const loaded = await loadChecked(store, SAMPLE_NAME);
          assertEqual(loaded.source, edited, 'load().source after the overwrite');
          assertEqual(loaded.version, second.version, 'load().version after the overwrite');
          const names = (await mustResolve('query()', () => store.query())).map((meta) => meta.name);
          assertEqual(names, [SAMPLE_NAME], 'query() names after the overwrite');
        }),
    },
    {
      id: id('metadata.consistent'),
      title: 'metadata(), query() and load().metadata describe the same version of a skill',
      section: 'SkillStore v1.0 §metadata, SkillMeta',
      level: 'required',
      since,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          const info = await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE);
          const meta = assertMatches(
            skillMetaSchema,
            await mustResolve(`metadata('${SAMPLE_NAME}')`, () => store.metadata(SAMPLE_NAME)),
            `metadata('${SAMPLE_NAME}')`,
          );
          const listed = await mustResolve('query()', () => store.query());
          assertEqual(listed.length, 1, 'query() length with one skill stored');
          const entry = assertMatches(skillMetaSchema, listed[0], 'query()[0]');
          const loaded = await loadChecked(store, SAMPLE_NAME);
          const identity = (from: {
            name: string;
            version: string;
            content_hash: string;
            status: string;
          }) => ({
            name: from.name,
            version: from.version,
            content_hash: from.content_hash,
            status: from.status,
          });
          const expected = {
            name: SAMPLE_NAME,
            version: info.version,
            content_hash: info.content_hash,
            status: 'Draft',
          };
          assertEqual(identity(meta), expected, 'metadata() identity');
          assertEqual(identity(entry), expected, 'query()[0] identity');
          assertEqual(identity(loaded.metadata), expected, 'load().metadata identity');
        }),
    },
    {
      id: id('timestamps.unix-seconds'),
      title: 'changed_at, created_at, updated_at and status_changed_at are whole unix seconds',
      section: 'SkillStore conventions §timestamps',
      level: 'required',
      since,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          const info = await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE);
          assertUnixSeconds(info.changed_at, 'store() changed_at');
          const metas = [
            ['metadata()', await mustResolve('metadata()', () => store.metadata(SAMPLE_NAME))],
            ['query()[0]', (await mustResolve('query()', () => store.query()))[0]],
            ['load().metadata', (await loadChecked(store, SAMPLE_NAME)).metadata],
          ] as const;
          for (const [what, meta] of metas) {
            assertUnixSeconds(meta?.created_at, `${what}.created_at`);
            assertUnixSeconds(meta?.updated_at, `${what}.updated_at`);
            if (meta?.status_changed_at !== undefined) {
              assertUnixSeconds(meta.status_changed_at, `${what}.status_changed_at`);
            }
          }
        }),
    },
  ];
}
