import {
  agentConnectorSchemas,
  type SkillFilter,
  type SkillMeta,
  type SkillMetaInput,
  type SkillStatus,
  type SkillStore,
  storageConventions,
} from '@agentwire/agent-connector';
import { assertEqual, assertRefuses, assertRejects, assertTrue, fail, formatValue } from '../../assert.js';
import { requiredCapabilities } from '../../run-suite.js';
import type { CapabilityNeed, ConformanceCase, ConformanceSuite, SuiteSetup } from '../../suite.js';
import {
  type SkillStoreConventions,
  skillStoreConventionCapabilities,
  skillStoreConventionCases,
} from './skill-store-conventions.js';

const { contentHash, parseStorageValue, statusOfSkill, versionFromHash } = storageConventions;
const {
  skillMeta: skillMetaSchema,
  skillSource: skillSourceSchema,
  skillStoreCapabilities: skillStoreCapabilitiesSchema,
  skillStoreManifestInfo: skillStoreManifestInfoSchema,
  versionInfo: versionInfoSchema,
} = agentConnectorSchemas;

/** The name most cases store their sample under. */
export const SAMPLE_NAME = 'conformance-test';

/** A name no case ever stores. */
export const MISSING_NAME = 'definitely-missing-skill-xyz';

/**
 * The reference suite's sample: a Draft skill whose header is the lowercase `# Status: draft`. Stores
 * must persist it byte for byte (its status needs no rewriting).
 */
export const DRAFT_SAMPLE = '# Skill: conformance-test\n# Status: draft\n\nt:\n    ! hi\n\ndefault: t\n';

/** A Draft skill with non-ASCII text, CRLF line ends and no final newline: all of it must survive. */
export const UNICODE_SAMPLE =
  '# Skill: conformance-unicode\r\n# Status: draft\r\n\r\nt:\r\n    ! 日報 — naïve 🙂\r\n\r\ndefault: t';

/** The draft sample with a different message: a body edit that keeps the Draft status. */
export function editedDraftSample(edit: string): string {
  return DRAFT_SAMPLE.replace('! hi', `! hi, ${edit}`);
}

/**
 * Calls a store method and fails the case when it rejects: names what was called and keeps the error as
 * the cause.
 */
export async function mustResolve<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const name = error instanceof Error ? `${error.name}: ${error.message}` : formatValue(error);
    return fail(`${what} threw ${name}`, error);
  }
}

/** One of the contract's zod schemas, as `parseStorageValue` takes it. */
type StorageSchema = Parameters<typeof storageConventions.parseStorageValue>[0];

/** Checks `value` against one of the contract's schemas; fails the case naming `what` and the broken rule. */
export function assertMatches<Schema extends StorageSchema>(
  schema: Schema,
  value: unknown,
  what: string,
): ReturnType<typeof storageConventions.parseStorageValue<Schema>> {
  try {
    return parseStorageValue(schema, value, what);
  } catch (error) {
    return fail(`${what} breaks the contract (${(error as Error).message}): ${formatValue(value)}`, error);
  }
}

/** How far a timestamp may be from the wall clock and still pass as plausible, in seconds. */
const PLAUSIBLE_SKEW_SECONDS = 86_400;

/**
 * Fails unless `value` is a whole number of unix seconds within a day of the wall clock: catches
 * milliseconds (a thousand times too large), zero and fractional values.
 */
export function assertUnixSeconds(value: unknown, field: string): void {
  const nowSeconds = Date.now() / 1000;
  assertTrue(
    typeof value === 'number' &&
      Number.isInteger(value) &&
      Math.abs(value - nowSeconds) <= PLAUSIBLE_SKEW_SECONDS,
    `${field} must be whole unix seconds near now (${Math.floor(nowSeconds)}), got ${formatValue(value)}`,
  );
}

/**
 * Requires `call` to reject with the named storage error. Errors are matched by `name` and `code` (and
 * `connector_type: 'skill_store'`), not by class: a store from another package has its own classes.
 */
export async function assertStoreError(
  call: () => Promise<unknown>,
  what: string,
  expected: { readonly name: string; readonly code: string },
): Promise<void> {
  const error = await assertRejects(call, `${what} must reject with ${expected.name}`);
  const fields = error as {
    readonly name?: unknown;
    readonly code?: unknown;
    readonly connector_type?: unknown;
  };
  const got = `${formatValue(fields?.name)}: ${error instanceof Error ? error.message : formatValue(error)}`;
  assertEqual(fields?.name, expected.name, `${what} rejected with ${got}; name`);
  assertEqual(fields.code, expected.code, `${what}: code of ${expected.name}`);
  assertEqual(fields.connector_type, 'skill_store', `${what}: connector_type of ${expected.name}`);
}

/** `SkillNotFoundError`, as {@link assertStoreError} matches it. */
export const SKILL_NOT_FOUND = { name: 'SkillNotFoundError', code: 'skill_not_found' } as const;
/** `SkillNotFoundError` for a version the store cannot return, as {@link assertStoreError} matches it. */
export const VERSION_NOT_FOUND = { name: 'SkillNotFoundError', code: 'version_not_found' } as const;

/**
 * Version of the skill-store suite; its major follows the SkillStore contract version (v1.0). 1.1.0
 * added the filter, pagination, freshness, old-version and metadata round-trip cases, and skills whose
 * names extend another's with a dot (`notes`, `notes.versi`) listed once each (`store.dotted-names`).
 */
export const SKILL_STORE_SUITE_VERSION = '1.1.0';

type Case = ConformanceCase<SkillStoreContext>;

/** The suite version that shipped the first cases. */
const since = '1.0.0';

/** The suite version of the filter, freshness and round-trip cases. */
const sinceFilters = SKILL_STORE_SUITE_VERSION;

/**
 * Stores `source` under `name` (with `metadata` when given) and checks the returned `VersionInfo`
 * against the schema.
 */
export async function storeChecked(
  store: SkillStore,
  name: string,
  source: string,
  metadata?: SkillMetaInput,
) {
  const info = await mustResolve(`store('${name}')`, () =>
    metadata === undefined ? store.store(name, source) : store.store(name, source, metadata),
  );
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
      id: id('store.names-like-builtins'),
      title:
        'skills named like JavaScript built-ins (undefined, null, constructor, toString) are stored, loaded and listed once each',
      section: 'SkillStore v1.0 §store, §query',
      level: 'required',
      since: sinceFilters,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          const names = ['constructor', 'hasOwnProperty', 'null', 'toString', 'undefined'];
          for (const name of names) await storeChecked(store, name, DRAFT_SAMPLE);
          assertEqual(await queriedNames(store, {}), names, 'query() names (each listed once)');
          for (const name of names) {
            const loaded = await loadChecked(store, name);
            assertEqual(loaded.name, name, `load('${name}').name`);
            assertEqual(loaded.source, DRAFT_SAMPLE, `load('${name}').source`);
            const meta = await mustResolve(`metadata('${name}')`, () => store.metadata(name));
            assertEqual(meta.name, name, `metadata('${name}').name`);
          }
        }),
    },
    {
      id: id('store.dotted-names'),
      title:
        "skills whose names extend another's with a dot (notes, notes.versi) are each listed once, under their own names",
      section: 'SkillStore v1.0 §store, §query',
      level: 'required',
      since: sinceFilters,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          // A store that keeps a skill in files named after it (`notes.skill.md` beside its
          // `notes.versions.jsonl`) must read its catalogue from the skill files alone: a name cut
          // from the other files (`notes.versions.jsonl` less 9 characters is `notes.versi`) lists
          // a skill twice or invents one.
          const names = ['notes', 'notes.versi'];
          for (const name of names) await storeChecked(store, name, DRAFT_SAMPLE);
          assertEqual(await queriedNames(store, {}), names, 'query() names (each listed once)');
          for (const name of names) {
            const meta = await mustResolve(`metadata('${name}')`, () => store.metadata(name));
            assertEqual(meta.name, name, `metadata('${name}').name`);
          }
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

/** A store built for one case, with how to release it. */
export interface SkillStoreUnderTest {
  readonly store: SkillStore;
  /** Releases what `create` set up for this store (a temp folder, a database file). */
  readonly dispose?: () => void | Promise<void>;
}

/** What the suite's `create` may return: a bare store, or one with its `dispose`. */
export type SkillStoreFactoryResult = SkillStore | SkillStoreUnderTest;

/** Builds a fresh, empty store; the suite calls it once per case (and once in setup). */
export type SkillStoreFactory = () => SkillStoreFactoryResult | Promise<SkillStoreFactoryResult>;

/** The context every case of {@link skillStoreSuite} receives. */
export interface SkillStoreContext {
  /** Builds a fresh, empty store, runs `body` on it, and disposes of it whatever `body` does. */
  withStore<T>(body: (store: SkillStore) => Promise<T>): Promise<T>;
  /**
   * What the store's class returned from `staticCapabilities()`, unchecked; `undefined` when the class
   * has no such static method.
   */
  readonly declaredCapabilities: unknown;
}

/** Capability a case requires when it needs `version()`, the optional change token. */
export const CHANGE_TOKEN_CAPABILITY = 'change-token';

function isWrapped(result: SkillStoreFactoryResult): result is SkillStoreUnderTest {
  return typeof (result as { readonly load?: unknown }).load !== 'function' && 'store' in result;
}

async function build(factory: SkillStoreFactory): Promise<SkillStoreUnderTest> {
  const result = await factory();
  return isWrapped(result) ? result : { store: result };
}

/** What the class of `store` declares through a static `staticCapabilities()`, if it has one. */
function declaredCapabilitiesOf(store: SkillStore): unknown {
  const declaring = (store as { readonly constructor?: { readonly staticCapabilities?: unknown } })
    .constructor;
  const staticCapabilities = declaring?.staticCapabilities;
  return typeof staticCapabilities === 'function' ? staticCapabilities.call(declaring) : undefined;
}

/**
 * Builds one store to learn what the implementation declares, then releases it. Capabilities: every
 * feature its class's `staticCapabilities()` sets to `true` (`supports_writes`, `supports_versioning`,
 * `supports_audit_trail`, …) and {@link CHANGE_TOKEN_CAPABILITY} when it has `version()`.
 */
export async function prepareSkillStore(factory: SkillStoreFactory): Promise<SuiteSetup<SkillStoreContext>> {
  const probe = await build(factory);
  let declaredCapabilities: unknown;
  const capabilities = new Set<string>();
  try {
    declaredCapabilities = declaredCapabilitiesOf(probe.store);
    const features = (declaredCapabilities as { readonly features?: unknown } | undefined)?.features;
    if (typeof features === 'object' && features !== null) {
      for (const [feature, enabled] of Object.entries(features))
        if (enabled === true) capabilities.add(feature);
    }
    if (typeof probe.store.version === 'function') capabilities.add(CHANGE_TOKEN_CAPABILITY);
  } finally {
    await probe.dispose?.();
  }
  const withStore = async <T>(body: (store: SkillStore) => Promise<T>): Promise<T> => {
    const underTest = await build(factory);
    try {
      return await body(underTest.store);
    } finally {
      await underTest.dispose?.();
    }
  };
  return { ctx: { withStore, declaredCapabilities }, capabilities };
}

async function tokenOf(store: SkillStore, when: string): Promise<string> {
  const token: unknown = await mustResolve(`version() ${when}`, async () => store.version?.());
  assertTrue(
    typeof token === 'string' && token !== '',
    `version() ${when} must resolve to a non-empty string, got ${formatValue(token)}`,
  );
  return token;
}

/** One change the token must follow: `prepare` sets the store up, `change` makes the change. */
interface TokenMove {
  readonly name: string;
  readonly change: string;
  readonly prepare: (store: SkillStore) => Promise<void>;
  readonly act: (store: SkillStore) => Promise<void>;
}

const MOVES: readonly TokenMove[] = [
  {
    name: 'add',
    change: 'a skill is added',
    prepare: async () => undefined,
    act: async (store) => void (await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE)),
  },
  {
    name: 'body-edit',
    change: 'a body is edited and its status stays the same',
    prepare: async (store) => void (await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE)),
    act: async (store) => void (await storeChecked(store, SAMPLE_NAME, editedDraftSample('token edit'))),
  },
  {
    name: 'status-change',
    change: 'a status changes',
    prepare: async (store) => void (await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE)),
    act: async (store) =>
      void (await mustResolve('update_status()', () => store.update_status(SAMPLE_NAME, 'Approved'))),
  },
  {
    name: 'remove',
    change: 'a skill is deleted',
    prepare: async (store) => {
      await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE);
      await storeChecked(store, 'conformance-kept', DRAFT_SAMPLE);
    },
    act: (store) => mustResolve('delete()', () => store.delete(SAMPLE_NAME)),
  },
];

/** `version()`, the optional change token: stable while nothing changes, moving on every change. */
export function changeTokenCases(suiteName: string): Case[] {
  const id = (rest: string) => `${suiteName}.change-token.${rest}`;
  return [
    {
      id: id('stable'),
      title: 'version() resolves to the same non-empty string while nothing changes, reads included',
      section: 'SkillStore v1.0 §version',
      level: 'required',
      requires: CHANGE_TOKEN_CAPABILITY,
      since,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          assertEqual(
            await tokenOf(store, 'again'),
            await tokenOf(store, 'on an empty store'),
            'empty store',
          );
          await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE);
          const token = await tokenOf(store, 'after a write');
          await loadChecked(store, SAMPLE_NAME);
          await mustResolve('metadata()', () => store.metadata(SAMPLE_NAME));
          await mustResolve('query()', () => store.query());
          assertEqual(await tokenOf(store, 'after reads'), token, 'version() after load, metadata and query');
        }),
    },
    ...MOVES.map(
      (move): Case => ({
        id: id(`moves-on-${move.name}`),
        title: `version() changes when ${move.change}`,
        section: 'SkillStore v1.0 §version',
        level: 'required',
        requires: CHANGE_TOKEN_CAPABILITY,
        since,
        run: (ctx) =>
          ctx.withStore(async (store) => {
            await move.prepare(store);
            const before = await tokenOf(store, `before ${move.change}`);
            await move.act(store);
            const after = await tokenOf(store, `after ${move.change}`);
            assertTrue(after !== before, `version() stayed ${formatValue(before)} although ${move.change}`);
          }),
      }),
    ),
  ];
}

/** The methods every SkillStore has (`version()` is optional). */
const REQUIRED_METHODS = [
  'load',
  'query',
  'metadata',
  'versions',
  'store',
  'delete',
  'update_status',
  'manifest',
] as const;

/** Static capabilities, the method set and `manifest()`. */
export function contractCases(suiteName: string): Case[] {
  const id = (rest: string) => `${suiteName}.${rest}`;
  return [
    {
      id: id('refuses-malformed-arguments'),
      title:
        'refuses a name, version, source, status, metadata or filter that breaks its rule with storage_validation naming it',
      section: 'SkillStore v1.0 §errors (storage_validation)',
      level: 'recommended',
      since: sinceFilters,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE);
          const wrong = 7 as unknown as string;
          const refusals: [string, () => Promise<unknown>, string][] = [
            ['load(7)', () => store.load(wrong), 'name'],
            ['metadata(7)', () => store.metadata(wrong), 'name'],
            ['versions(7)', () => store.versions(wrong), 'name'],
            ['delete(7)', () => store.delete(wrong), 'name'],
            ['store(7, source)', () => store.store(wrong, DRAFT_SAMPLE), 'name'],
            [`load('${SAMPLE_NAME}', 7)`, () => store.load(SAMPLE_NAME, wrong), 'version'],
            [`store('${SAMPLE_NAME}', 7)`, () => store.store(SAMPLE_NAME, wrong), 'source'],
            [
              `update_status('${SAMPLE_NAME}', 'Published')`,
              () => store.update_status(SAMPLE_NAME, 'Published' as SkillStatus),
              'status',
            ],
            [
              `store('${SAMPLE_NAME}', source, { status: 'Published' })`,
              () => store.store(SAMPLE_NAME, DRAFT_SAMPLE, { status: 'Published' as SkillStatus }),
              'metadata.status',
            ],
            ['query({ limit: -1 })', () => store.query({ limit: -1 }), 'filter.limit'],
            ["query({ name_pattern: '(' })", () => store.query({ name_pattern: '(' }), 'filter.name_pattern'],
          ];
          for (const [what, call, path] of refusals) {
            await assertRefuses(call, { code: 'storage_validation', path }, what);
          }
          const loaded = await loadChecked(store, SAMPLE_NAME);
          assertEqual(loaded.source, DRAFT_SAMPLE, 'the stored skill after the refusals');
          assertEqual(loaded.metadata.tags ?? [], [], 'tags of a skill stored without tags');
        }),
    },
    {
      id: id('store.refuses-unusable-names'),
      title:
        'store() refuses a name the change token cannot list (empty, with a line break, with a lone surrogate) as storage_conflict',
      section:
        'SkillStore v1.0 §store; storage conventions §change-token (names non-empty, without a line break)',
      level: 'recommended',
      since: sinceFilters,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          for (const name of ['', 'conformance\nskill', 'conformance-\uD800']) {
            const what = `store(${formatValue(name)}, source)`;
            const error = (await assertRejects(() => store.store(name, DRAFT_SAMPLE), what)) as {
              readonly code?: unknown;
              readonly details?: { readonly connector_type?: unknown };
            };
            assertEqual(error?.code, 'storage_conflict', `${what}: error code`);
            assertEqual(error?.details?.connector_type, 'skill_store', `${what}: details.connector_type`);
          }
          assertEqual(await queriedNames(store, {}), [], 'query() names after the refusals');
        }),
    },
    {
      id: id('static-capabilities.valid'),
      title: "the class's static staticCapabilities() declares a skill_store of contract major version 1",
      section: 'SkillStore v1.0 §staticCapabilities',
      level: 'required',
      since,
      run: (ctx) => {
        if (ctx.declaredCapabilities === undefined) {
          fail("the store's class has no static staticCapabilities() method");
        }
        const declared = assertMatches(
          skillStoreCapabilitiesSchema,
          ctx.declaredCapabilities,
          'staticCapabilities()',
        );
        assertEqual(declared.contract_version.split('.')[0], '1', 'contract major version');
      },
    },
    {
      id: id('methods.present'),
      title: 'the store has the eight contract methods, and version() is a method when present',
      section: 'SkillStore v1.0 §interface',
      level: 'required',
      since,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          const members = store as unknown as Record<string, unknown>;
          const missing = REQUIRED_METHODS.filter((method) => typeof members[method] !== 'function');
          assertEqual(missing, [], 'methods that are not functions');
          assertTrue(
            members.version === undefined || typeof members.version === 'function',
            'version, when present, must be a method',
          );
        }),
    },
    {
      id: id('manifest.valid'),
      title: 'manifest() resolves to a capabilities_version and a manifest naming its kind',
      section: 'SkillStore v1.0 §manifest',
      level: 'required',
      since,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          const info = await mustResolve('manifest()', () => store.manifest());
          const parsed = assertMatches(skillStoreManifestInfoSchema, info, 'manifest()');
          assertTrue(parsed.manifest.kind !== '', 'manifest.kind must not be empty');
        }),
    },
  ];
}

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
      id: id('store.overwrite-keeps-status'),
      title:
        'an overwrite without metadata.status keeps the skill\u2019s status (the body\u2019s header made to say it); metadata.status overrides it',
      section: 'SkillStore v1.0 §store, §update_status, VersionInfo',
      // The reference folder store does this, its SQLite store does not: advice, not a requirement.
      level: 'recommended',
      requires: 'supports_writes',
      since: sinceFilters,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE);
          const overwrite = async (status: SkillStatus, edit: string, metadata?: SkillMetaInput) => {
            const what = `store() of a \`# Status: draft\` body over a ${status} skill${metadata === undefined ? '' : ` with ${formatValue(metadata)}`}`;
            const info = await storeChecked(store, SAMPLE_NAME, editedDraftSample(edit), metadata);
            const expected = metadata?.status ?? status;
            assertEqual(info.status, expected, `${what}: VersionInfo.status`);
            if (info.previous_status !== undefined)
              assertEqual(info.previous_status, status, `${what}: VersionInfo.previous_status`);
            const meta = await mustResolve('metadata()', () => store.metadata(SAMPLE_NAME));
            assertEqual(meta.status, expected, `${what}: metadata().status`);
            const loaded = await loadChecked(store, SAMPLE_NAME);
            assertEqual(
              statusOfSkill(loaded.source),
              expected,
              `${what}: the \`# Status:\` header load() returns`,
            );
          };
          await updateChecked(store, SAMPLE_NAME, 'Approved');
          await overwrite('Approved', 'over approved');
          await updateChecked(store, SAMPLE_NAME, 'Disabled');
          await overwrite('Disabled', 'over disabled');
          await overwrite('Disabled', 'made draft again', { status: 'Draft' });
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

/** A tag two of the tag-filter skills carry. */
const TAG_OPS = 'conformance-ops';
/** A tag with non-ASCII letters, so a store that mangles encodings misses it. */
const TAG_BILLING = 'conformance-facturación';

/** The skills the tag-filter cases store, with the tags each carries. */
const TAGGED_SKILLS: readonly (readonly [name: string, tags: readonly string[] | undefined])[] = [
  ['tagged-ops', [TAG_OPS]],
  ['tagged-both', [TAG_OPS, TAG_BILLING]],
  ['tagged-billing', [TAG_BILLING]],
  ['untagged', undefined],
];

async function storeTaggedSkills(store: SkillStore): Promise<void> {
  for (const [name, tags] of TAGGED_SKILLS) {
    await storeChecked(store, name, DRAFT_SAMPLE, tags === undefined ? undefined : { tags: [...tags] });
  }
}

/** The names `query(filter)` returns, in the order the store returns them. */
async function queriedNamesInOrder(store: SkillStore, filter: SkillFilter): Promise<string[]> {
  const found = await mustResolve(`query(${formatValue(filter)})`, () => store.query(filter));
  assertTrue(Array.isArray(found), `query(${formatValue(filter)}) must resolve to an array`);
  return found.map((meta) => meta.name);
}

/** Two authors whose names differ only past their first letters, both outside ASCII. */
const AUTHOR_ZOE = 'Zoë Ångström (conformance)';
const AUTHOR_BJORN = 'Björn Æsir (conformance)';

/**
 * A `store()` metadata argument with every optional `SkillMeta` field set to a distinctive value, non-ASCII
 * text included. `status` and the identity fields are the store's to fill and are left out.
 */
const EVERY_OPTIONAL_FIELD: SkillMetaInput = {
  author: AUTHOR_ZOE,
  description: 'Déscription — 日本語 🙂 (conformance)',
  tags: [TAG_OPS, TAG_BILLING],
  vars: ['ÉTÉ', 'region'],
  returns: ['résumé'],
  requires: ['conformance-dependency-ü'],
  triggers: [{ source: 'cron', name: 'nächtlich' }],
  outputs: ['agent: conformance-agent-ø'],
  type: 'procedural',
  metadata_bag: { clé: 'valeur — 日本', nested: { count: 3, flag: true } },
};

/** The optional fields a store may drop but must never change (list fields compared as sets). */
const ROUND_TRIP_FIELDS = [
  'author',
  'description',
  'tags',
  'vars',
  'returns',
  'requires',
  'triggers',
  'outputs',
  'type',
  'metadata_bag',
] as const satisfies readonly (keyof SkillMetaInput)[];

/** Order-insensitive form of a string list; anything else as it is. */
function comparable(value: unknown): unknown {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? [...value].sort() : value;
}

/** Fails when `meta` holds a round-trip field with another value than the one written. */
function assertFieldsKept(meta: SkillMeta, what: string): void {
  for (const field of ROUND_TRIP_FIELDS) {
    const got = meta[field];
    if (got === undefined) continue;
    assertEqual(comparable(got), comparable(EVERY_OPTIONAL_FIELD[field]), `${what}.${field}`);
  }
}

/**
 * Filters (`tag`, `name_pattern`, `since`, `author`), their combination with `limit`, and pagination.
 * A filter the contract lets a store ignore (`author`) may return every skill, never a wrong subset.
 */
export function filterCases(suiteName: string): Case[] {
  const id = (rest: string) => `${suiteName}.${rest}`;
  return [
    {
      id: id('query.tag-filter'),
      title: 'query({ tag }) keeps exactly the skills carrying the tag, also with name_pattern and limit',
      section: 'SkillStore v1.0 §query, SkillFilter.tag',
      level: 'required',
      requires: 'supports_tag_filter',
      since: sinceFilters,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          await storeTaggedSkills(store);
          assertEqual(
            await queriedNames(store, { tag: TAG_OPS }),
            ['tagged-both', 'tagged-ops'],
            `tag '${TAG_OPS}'`,
          );
          assertEqual(
            await queriedNames(store, { tag: [TAG_BILLING] }),
            ['tagged-billing', 'tagged-both'],
            `tag ['${TAG_BILLING}']`,
          );
          assertEqual(
            await queriedNames(store, { tag: 'conformance-no-such-tag' }),
            [],
            'a tag no skill carries',
          );
          assertEqual(
            await queriedNames(store, { tag: TAG_OPS, name_pattern: 'both' }),
            ['tagged-both'],
            `tag '${TAG_OPS}' with name_pattern 'both'`,
          );
          const limited = await queriedNames(store, { tag: TAG_BILLING, limit: 1 });
          assertTrue(
            limited.length === 1 && ['tagged-billing', 'tagged-both'].includes(limited[0] ?? ''),
            `tag '${TAG_BILLING}' with limit 1 must return one tagged skill, got ${formatValue(limited)}`,
          );
        }),
    },
    {
      id: id('query.tag-filter-all-of'),
      title: 'query({ tag: [a, b] }) keeps the skills carrying every listed tag',
      section: 'SkillStore v1.0 §query, SkillFilter.tag',
      level: 'required',
      requires: 'supports_tag_filter',
      since: sinceFilters,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          await storeTaggedSkills(store);
          assertEqual(
            await queriedNames(store, { tag: [TAG_OPS, TAG_BILLING] }),
            ['tagged-both'],
            `tag ['${TAG_OPS}', '${TAG_BILLING}']`,
          );
        }),
    },
    {
      id: id('query.name-pattern'),
      title: 'query({ name_pattern }) keeps the matching names, and limit and offset apply after the pattern',
      section: 'SkillStore v1.0 §query, SkillFilter.name_pattern',
      level: 'required',
      since: sinceFilters,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          for (const name of ['conformance-alpha-one', 'conformance-alpha-two', 'conformance-beta']) {
            await storeChecked(store, name, DRAFT_SAMPLE);
          }
          assertEqual(
            await queriedNames(store, { name_pattern: 'alpha' }),
            ['conformance-alpha-one', 'conformance-alpha-two'],
            "name_pattern 'alpha'",
          );
          assertEqual(await queriedNames(store, { name_pattern: 'gamma' }), [], "name_pattern 'gamma'");
          assertEqual(
            await queriedNames(store, { name_pattern: 'beta', limit: 1 }),
            ['conformance-beta'],
            "name_pattern 'beta' with limit 1 (the limit counts matching skills only)",
          );
          const alphas = await queriedNamesInOrder(store, { name_pattern: 'alpha' });
          assertEqual(
            await queriedNamesInOrder(store, { name_pattern: 'alpha', limit: 1 }),
            alphas.slice(0, 1),
            "name_pattern 'alpha' with limit 1 (the first of the matching skills)",
          );
          assertEqual(
            await queriedNamesInOrder(store, { name_pattern: 'alpha', offset: 1 }),
            alphas.slice(1),
            "name_pattern 'alpha' with offset 1 (the offset skips matching skills only)",
          );
        }),
    },
    {
      id: id('query.since'),
      title:
        'query({ since }) keeps the skills updated at or after since (unix seconds), also with a status filter',
      section: 'SkillStore v1.0 §query, SkillFilter.since',
      level: 'required',
      since: sinceFilters,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          await storeChecked(store, 'conformance-one', DRAFT_SAMPLE);
          await storeChecked(store, 'conformance-two', DRAFT_SAMPLE);
          const updated = await mustResolve('metadata()', () => store.metadata('conformance-one'));
          const all = ['conformance-one', 'conformance-two'];
          assertEqual(await queriedNames(store, { since: 0 }), all, 'since 0');
          assertEqual(
            await queriedNames(store, { since: updated.updated_at }),
            all,
            `since ${updated.updated_at} (the updated_at of the first write)`,
          );
          const tomorrow = Math.floor(Date.now() / 1000) + 86_400;
          assertEqual(await queriedNames(store, { since: tomorrow }), [], `since ${tomorrow} (tomorrow)`);
          assertEqual(
            await queriedNames(store, { since: 0, status: 'Draft' }),
            all,
            "since 0 with status 'Draft' (both filters apply)",
          );
          assertEqual(
            await queriedNames(store, { since: 0, status: 'Approved' }),
            [],
            "since 0 with status 'Approved' (both filters apply)",
          );
        }),
    },
    {
      id: id('query.limit-offset'),
      title: 'limit and offset page through query() without skipping or repeating a skill',
      section: 'SkillStore v1.0 §query, SkillFilter.limit, SkillFilter.offset',
      level: 'required',
      since: sinceFilters,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          for (const page of [3, 1, 5, 2, 4])
            await storeChecked(store, `conformance-page-${page}`, DRAFT_SAMPLE);
          const all = await queriedNamesInOrder(store, {});
          assertEqual(
            [...all].sort(),
            [1, 2, 3, 4, 5].map((page) => `conformance-page-${page}`),
            'query()',
          );
          const pages = [];
          for (const offset of [0, 2, 4]) pages.push(await queriedNamesInOrder(store, { limit: 2, offset }));
          assertEqual(
            pages,
            [all.slice(0, 2), all.slice(2, 4), all.slice(4)],
            'pages of limit 2 at offsets 0, 2, 4',
          );
          assertEqual(await queriedNamesInOrder(store, { limit: 3 }), all.slice(0, 3), 'limit 3');
          assertEqual(await queriedNamesInOrder(store, { offset: 3 }), all.slice(3), 'offset 3');
          assertEqual(await queriedNamesInOrder(store, { offset: 5 }), [], 'offset 5 (past the end)');
        }),
    },
    {
      id: id('query.author'),
      title:
        "query({ author }) returns exactly that author's skills, or every skill when ignored — no other subset",
      section: 'SkillStore conventions §author',
      level: 'required',
      since: sinceFilters,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          await storeChecked(store, 'by-zoe', DRAFT_SAMPLE, { author: AUTHOR_ZOE });
          await storeChecked(store, 'by-bjorn', DRAFT_SAMPLE, { author: AUTHOR_BJORN });
          const everyone = ['by-bjorn', 'by-zoe'];
          for (const [author, exact] of [
            [AUTHOR_ZOE, ['by-zoe']],
            [AUTHOR_BJORN, ['by-bjorn']],
            [AUTHOR_ZOE.toLowerCase(), []],
            ['Zoë', []],
          ] as const) {
            const found = await queriedNames(store, { author });
            assertTrue(
              deepEqualNames(found, exact) || deepEqualNames(found, everyone),
              `query({ author: ${formatValue(author)} }) must return ${formatValue(exact)} (filter honoured) ` +
                `or ${formatValue(everyone)} (filter ignored), got ${formatValue(found)}`,
            );
          }
        }),
    },
    {
      id: id('metadata.round-trip'),
      title:
        'every optional field written with store() comes back unchanged (or not at all), non-ASCII included',
      section: 'SkillStore v1.0 §store, SkillMeta',
      level: 'required',
      since: sinceFilters,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE, EVERY_OPTIONAL_FIELD);
          assertFieldsKept(
            assertMatches(
              skillMetaSchema,
              await mustResolve('metadata()', () => store.metadata(SAMPLE_NAME)),
              'metadata()',
            ),
            'metadata()',
          );
          const listed = await mustResolve('query()', () => store.query());
          assertFieldsKept(assertMatches(skillMetaSchema, listed[0], 'query()[0]'), 'query()[0]');
          assertFieldsKept((await loadChecked(store, SAMPLE_NAME)).metadata, 'load().metadata');
        }),
    },
    {
      id: id('metadata.tags-kept'),
      title: 'a store that filters by tag reports the tags written with store()',
      section: 'SkillStore v1.0 §store, SkillMeta.tags',
      level: 'required',
      requires: 'supports_tag_filter',
      since: sinceFilters,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE, { tags: [TAG_OPS, TAG_BILLING] });
          const meta = await mustResolve('metadata()', () => store.metadata(SAMPLE_NAME));
          assertEqual(comparable(meta.tags), comparable([TAG_OPS, TAG_BILLING]), 'metadata().tags');
        }),
    },
  ];
}

function deepEqualNames(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && left.every((name, index) => name === right[index]);
}

/** Reads every view of `name` once, so a store that caches reads has something to serve stale. */
async function readEveryView(store: SkillStore, name: string): Promise<void> {
  await loadChecked(store, name);
  await mustResolve('metadata()', () => store.metadata(name));
  await mustResolve('query()', () => store.query());
  await mustResolve("query({ status: 'Draft' })", () => store.query({ status: 'Draft' }));
}

/** Reads after writes: every view serves the newest version, an old version is never served as current. */
export function freshnessCases(suiteName: string): Case[] {
  const id = (rest: string) => `${suiteName}.${rest}`;
  return [
    {
      id: id('store.no-stale-reads'),
      title:
        'after an overwrite, load(), metadata() and query() all serve the new version, even after earlier reads',
      section: 'SkillStore v1.0 §store, §load, §metadata, §query',
      level: 'required',
      since: sinceFilters,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE);
          await readEveryView(store, SAMPLE_NAME);
          const edited = editedDraftSample('fresh');
          const second = await storeChecked(store, SAMPLE_NAME, edited);
          const loaded = await loadChecked(store, SAMPLE_NAME);
          assertEqual(loaded.source, edited, 'load().source after the overwrite');
          assertEqual(loaded.version, second.version, 'load().version after the overwrite');
          const meta = await mustResolve('metadata()', () => store.metadata(SAMPLE_NAME));
          assertEqual(meta.version, second.version, 'metadata().version after the overwrite');
          assertEqual(meta.content_hash, second.content_hash, 'metadata().content_hash after the overwrite');
          for (const filter of [{}, { status: 'Draft' }] as const) {
            const listed = await mustResolve(`query(${formatValue(filter)})`, () => store.query(filter));
            assertEqual(
              listed.map((entry) => entry.version),
              [second.version],
              `query(${formatValue(filter)}) versions after the overwrite`,
            );
          }
          const byVersion = await loadChecked(store, SAMPLE_NAME, second.version);
          assertEqual(byVersion.source, edited, `load('${SAMPLE_NAME}', '${second.version}').source`);
        }),
    },
    {
      id: id('update-status.no-stale-reads'),
      title:
        'after update_status(), load(), metadata() and status-filtered query() serve the new status, even after earlier reads',
      section: 'SkillStore v1.0 §update_status',
      level: 'required',
      requires: 'supports_writes',
      since: sinceFilters,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE);
          await readEveryView(store, SAMPLE_NAME);
          const info = await updateChecked(store, SAMPLE_NAME, 'Approved');
          const meta = await mustResolve('metadata()', () => store.metadata(SAMPLE_NAME));
          assertEqual(meta.status, 'Approved', 'metadata().status');
          assertEqual(meta.version, info.version, 'metadata().version');
          const loaded = await loadChecked(store, SAMPLE_NAME);
          assertEqual(statusOfSkill(loaded.source), 'Approved', 'the `# Status:` header load() returns');
          assertEqual(await queriedNames(store, { status: 'Draft' }), [], "query({ status: 'Draft' })");
          assertEqual(
            await queriedNames(store, { status: 'Approved' }),
            [SAMPLE_NAME],
            "query({ status: 'Approved' })",
          );
        }),
    },
    {
      id: id('store.overwrite-keeps-author'),
      title: 'an overwrite that names no author keeps the author of the first write',
      section: 'SkillStore v1.0 §store, SkillMeta.author',
      level: 'required',
      since: sinceFilters,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE, { author: AUTHOR_ZOE });
          const first = await mustResolve('metadata()', () => store.metadata(SAMPLE_NAME));
          // A store without authorship reports none; one that reports the first writer must keep it.
          if (first.author === undefined) return;
          await storeChecked(store, SAMPLE_NAME, editedDraftSample('no author named'));
          const after = await mustResolve('metadata()', () => store.metadata(SAMPLE_NAME));
          assertEqual(after.author, first.author, 'metadata().author after an overwrite naming no author');
          const listed = await mustResolve('query()', () => store.query());
          assertEqual(listed[0]?.author, first.author, 'query()[0].author after the overwrite');
        }),
    },
    {
      id: id('load.old-version'),
      title:
        "load(name, an older version) returns that version's bytes or rejects with version_not_found, never the current body",
      section: 'SkillStore v1.0 §load',
      level: 'required',
      since: sinceFilters,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          const first = await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE);
          await storeChecked(store, SAMPLE_NAME, editedDraftSample('newer'));
          let old: unknown;
          try {
            old = await store.load(SAMPLE_NAME, first.version);
          } catch {
            await assertStoreError(
              () => store.load(SAMPLE_NAME, first.version),
              `load('${SAMPLE_NAME}', '${first.version}') of the replaced version`,
              VERSION_NOT_FOUND,
            );
            return;
          }
          const loaded = assertMatches(skillSourceSchema, old, `load('${SAMPLE_NAME}', '${first.version}')`);
          assertEqual(loaded.source, DRAFT_SAMPLE, `load('${SAMPLE_NAME}', '${first.version}').source`);
          assertEqual(loaded.version, first.version, `load('${SAMPLE_NAME}', '${first.version}').version`);
        }),
    },
    {
      id: id('versions.in-order'),
      title: 'versions() lists the writes and status changes oldest first, the current version last',
      section: 'SkillStore v1.0 §versions',
      level: 'recommended',
      requires: 'supports_versioning',
      since: sinceFilters,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          const made = [
            await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE),
            await storeChecked(store, SAMPLE_NAME, editedDraftSample('second')),
            await storeChecked(store, SAMPLE_NAME, editedDraftSample('third')),
          ];
          const listed = await mustResolve('versions()', () => store.versions(SAMPLE_NAME));
          assertTrue(
            Array.isArray(listed),
            `versions() must resolve to an array, got ${formatValue(listed)}`,
          );
          const versions = listed.map((entry) => entry.version);
          const positions = made.map((info) => versions.lastIndexOf(info.version));
          assertTrue(
            positions.every(
              (position, index) => position >= 0 && (index === 0 || position > (positions[index - 1] ?? -1)),
            ),
            `versions() must list ${formatValue(made.map((info) => info.version))} in that order, got ${formatValue(versions)}`,
          );
          assertEqual(
            versions.at(-1),
            made[2]?.version,
            'the last entry of versions() (the current version)',
          );
        }),
    },
  ];
}

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

/** Options of {@link skillStoreSuite}. */
export interface SkillStoreSuiteOptions {
  /**
   * Builds a fresh, empty store: once in the suite's setup (to read its class's capabilities) and once
   * per case, each released with its `dispose` when the case ends.
   */
  readonly create: SkillStoreFactory;
  /**
   * The implementation's storage-convention helpers (`@agentwire/agent-connector`'s `storageConventions`
   * fits), each checked against `fixtures/agent-connector/storage-conventions.json`; absent members skip
   * their cases. The store-level convention cases run whatever this holds.
   */
  readonly conventions?: SkillStoreConventions;
}

const SUITE_NAME = 'skill-store.contract';

/** The `staticCapabilities().features` flags cases require, with what each one lets the suite check. */
const FEATURE_NEEDS: Readonly<Record<string, string>> = {
  supports_writes: 'update_status() and status filtering',
  supports_audit_trail: 'previous_status on update_status()',
  supports_versioning: 'versions() history',
  supports_tag_filter: 'the tag filter of query() and tags kept from store()',
};

/**
 * What the implementer provides for each capability the `cases` require: a feature flag of the class's
 * static `staticCapabilities()`, a `version()` method, or a member of the `conventions` option. None is
 * an observation: every case reads its answers from the store itself.
 */
function skillStoreNeeds(cases: readonly Case[]): Record<string, CapabilityNeed> {
  const needs: Record<string, CapabilityNeed> = {};
  for (const capability of new Set(cases.flatMap(requiredCapabilities))) {
    const checks = FEATURE_NEEDS[capability];
    if (capability === CHANGE_TOKEN_CAPABILITY) {
      needs[capability] = { provide: 'a version() method on the store (the optional catalog change token)' };
    } else if (checks !== undefined) {
      needs[capability] = {
        provide: `features.${capability}: true in the class's static staticCapabilities() (${checks})`,
      };
    } else if (capability.startsWith('convention:')) {
      const member = capability.slice('convention:'.length);
      needs[capability] = {
        provide: `conventions.${member} in the suite options (agent-connector's storageConventions fits)`,
      };
    }
  }
  return needs;
}

/**
 * The SkillStore v1.0 contract, checked more strictly than the reference suite: every returned
 * `VersionInfo`, `SkillSource` and `SkillMeta` validated by the contract's schemas, `content_hash` the
 * SHA-256 of the bytes `load()` returns and `version` its first 12 digits, exact byte round trips,
 * `SkillNotFoundError` from every method that names a missing skill (matched by `name`, `code` and
 * `connector_type`, so stores from other packages qualify), timestamps in whole unix seconds, and the
 * optional `version()` change token moving on every change. Since 1.1.0 it also holds the store to its
 * filters (`tag` exactly and all-of, `name_pattern`, `since`, `author` honoured exactly or ignored, `limit`
 * counted after the filters, `offset` paging without gaps or repeats), to reads that never serve a
 * replaced version (after earlier reads too; an old `load(name, version)` either returns that version or
 * `version_not_found`), to the first writer's `author`, and to every optional `SkillMeta` field coming
 * back unchanged when it comes back at all. Capabilities come from the class's
 * `staticCapabilities().features` (`supports_writes`, `supports_audit_trail`, `supports_versioning`,
 * `supports_tag_filter`) and from the presence of `version()` (`change-token`); `needs` says which. The storage conventions of
 * `fixtures/agent-connector/storage-conventions.json` hold the store to the `# Status:` header rules
 * (the status a new skill records, the bytes `update_status()` persists) and check the helpers passed
 * as `conventions` (capability `convention:<member>`).
 *
 * @example
 * ```ts
 * const report = await runSuite(
 *   skillStoreSuite({
 *     create: async () => {
 *       const dir = await mkdtemp(join(tmpdir(), 'skills-'));
 *       return { store: new FilesystemSkillStore({ dir }), dispose: () => rm(dir, { recursive: true }) };
 *     },
 *   }),
 * );
 * ```
 */
export function skillStoreSuite(options: SkillStoreSuiteOptions): ConformanceSuite<SkillStoreContext> {
  const cases: Case[] = [
    ...contractCases(SUITE_NAME),
    ...readWriteCases(SUITE_NAME),
    ...missingSkillCases(SUITE_NAME),
    ...featureCases(SUITE_NAME),
    ...filterCases(SUITE_NAME),
    ...freshnessCases(SUITE_NAME),
    ...changeTokenCases(SUITE_NAME),
    ...skillStoreConventionCases<SkillStoreContext>(SUITE_NAME, options.conventions, since),
  ];
  return {
    name: SUITE_NAME,
    version: SKILL_STORE_SUITE_VERSION,
    description:
      'The SkillStore v1.0 contract: static capabilities, methods and manifest, store/load round trips ' +
      'and content identity, metadata and query, SkillNotFoundError on every miss, unix-second ' +
      'timestamps, update_status and previous_status, status filters, versions, delete, the ' +
      'version() change token, and the storage conventions (content hash, version, change token, ' +
      '# Status: header), tag, name_pattern, since and author filters, limit/offset paging, reads that ' +
      'never serve a replaced version, and every optional SkillMeta field round-tripped.',
    needs: skillStoreNeeds(cases),
    cases,
    setup: async () => {
      const setup = await prepareSkillStore(options.create);
      const conventions = skillStoreConventionCapabilities(options.conventions);
      return { ...setup, capabilities: new Set([...(setup.capabilities ?? []), ...conventions]) };
    },
  };
}
