import {
  agentConnectorSchemas,
  type SkillFilter,
  type SkillStatus,
  type SkillStore,
  storageConventions,
} from '@agentwire/agent-connector';
import { assertEqual, assertRejects, assertTrue, fail, formatValue } from '../../assert.js';
import type { ConformanceCase, ConformanceSuite, SuiteSetup } from '../../suite.js';
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

/** Version of the skill-store suite; it follows the SkillStore contract version (v1.0). */
export const SKILL_STORE_SUITE_VERSION = '1.0.0';

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

/**
 * The SkillStore v1.0 contract, checked more strictly than the reference suite: every returned
 * `VersionInfo`, `SkillSource` and `SkillMeta` validated by the contract's schemas, `content_hash` the
 * SHA-256 of the bytes `load()` returns and `version` its first 12 digits, exact byte round trips,
 * `SkillNotFoundError` from every method that names a missing skill (matched by `name`, `code` and
 * `connector_type`, so stores from other packages qualify), timestamps in whole unix seconds, and the
 * optional `version()` change token moving on every change. Capabilities come from the class's
 * `staticCapabilities().features` (`supports_writes`, `supports_audit_trail`, `supports_versioning`)
 * and from the presence of `version()` (`change-token`). The storage conventions of
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
  return {
    name: SUITE_NAME,
    version: SKILL_STORE_SUITE_VERSION,
    description:
      'The SkillStore v1.0 contract: static capabilities, methods and manifest, store/load round trips ' +
      'and content identity, metadata and query, SkillNotFoundError on every miss, unix-second ' +
      'timestamps, update_status and previous_status, status filters, versions, delete, the ' +
      'version() change token, and the storage conventions (content hash, version, change token, ' +
      '# Status: header).',
    cases: [
      ...contractCases(SUITE_NAME),
      ...readWriteCases(SUITE_NAME),
      ...missingSkillCases(SUITE_NAME),
      ...featureCases(SUITE_NAME),
      ...changeTokenCases(SUITE_NAME),
      ...skillStoreConventionCases<SkillStoreContext>(SUITE_NAME, options.conventions, since),
    ],
    setup: async () => {
      const setup = await prepareSkillStore(options.create);
      const conventions = skillStoreConventionCapabilities(options.conventions);
      return { ...setup, capabilities: new Set([...(setup.capabilities ?? []), ...conventions]) };
    },
  };
}
