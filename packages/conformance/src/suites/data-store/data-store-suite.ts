import {
  agentConnectorSchemas,
  type DataStore,
  type DataStoreCapabilities,
  type DataStoreManifest,
  type PortableData,
  storageConventions,
} from '@agentwire/agent-connector';
import { assertEqual, assertTrue, fail, formatValue } from '../../assert.js';
import type { ConformanceCase, ConformanceSuite, SuiteSetup } from '../../suite.js';
import { assertNoEmptyFields, mustResolve } from '../agent-connector/agent-connector-suite.js';
import {
  type DataStoreConventions,
  dataStoreConventionCapabilities,
  dataStoreConventionCases,
} from './data-store-conventions.js';

const { CURATED_DATA_FIELDS, summarizeContent, UNIX_SECONDS_LIMIT } = storageConventions;
const {
  dataStoreCapabilities: dataStoreCapabilitiesSchema,
  dataStoreManifestInfo: dataStoreManifestInfoSchema,
  portableData: portableDataSchema,
} = agentConnectorSchemas;

/**
 * Validates a `PortableData` item more strictly than `portableDataSchema` alone: string `id` and
 * `summary`, no curated field repeated in `metadata`, and no field present as `null` or `undefined`.
 */
export function assertPortableData(value: unknown, what: string): PortableData {
  assertNoEmptyFields(value, what);
  const parsed = portableDataSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    fail(
      `${what} is not valid PortableData (${issue?.path.join('.') || 'value'}: ${issue?.message})`,
      parsed.error,
    );
  }
  const metadata = parsed.data.metadata ?? {};
  const repeated = CURATED_DATA_FIELDS.filter((field) => Object.hasOwn(metadata, field));
  assertTrue(repeated.length === 0, `${what}.metadata repeats curated field(s) ${formatValue(repeated)}`);
  return parsed.data;
}

/** Fails unless `value` is an array; validates every item with {@link assertPortableData}. */
export function assertPortableDataList(value: unknown, what: string): PortableData[] {
  assertTrue(Array.isArray(value), `${what} must resolve to an array, got ${formatValue(value)}`);
  return (value as unknown[]).map((item, index) => assertPortableData(item, `${what}[${index}]`));
}

/** Version of the data-store suite; it follows the DataStore contract version (v1.0). */
export const DATA_STORE_SUITE_VERSION = '1.0.0';

type Case = ConformanceCase<DataStoreContext>;

const since = DATA_STORE_SUITE_VERSION;
const DAY_SECONDS = 86_400;

/** Writes an entry and fails the case unless `write()` resolves to an object with a string id. */
export async function writeEntry(
  ctx: DataStoreContext,
  entry: Parameters<DataStoreContext['store']['write']>[0],
): Promise<string> {
  const record: unknown = await mustResolve('write()', () => ctx.store.write(entry));
  const id = (record as { readonly id?: unknown } | null)?.id;
  assertTrue(typeof id === 'string' && id !== '', `write() resolved to ${formatValue(record)}: no string id`);
  return id;
}

/** `write()` records, and `get()` on written and unknown ids. */
export function entryCases(suiteName: string): Case[] {
  const id = (rest: string) => `${suiteName}.${rest}`;
  return [
    {
      id: id('write.record'),
      title: 'write() resolves to { id: non-empty string, created_at: whole unix seconds of now }',
      section: 'DataStore v1.0 §write',
      level: 'required',
      requires: 'writes',
      since,
      run: async (ctx) => {
        const before = Math.floor(Date.now() / 1000);
        const record: unknown = await mustResolve('write()', () =>
          ctx.store.write({ content: `conformance record ${ctx.uniqueWord()}` }),
        );
        const { id: written, created_at } = (record ?? {}) as { id?: unknown; created_at?: unknown };
        assertTrue(
          typeof written === 'string' && written !== '',
          `id must be a non-empty string, got ${formatValue(written)}`,
        );
        assertTrue(
          typeof created_at === 'number' && Number.isInteger(created_at) && created_at < UNIX_SECONDS_LIMIT,
          `created_at must be whole unix seconds, got ${formatValue(created_at)}`,
        );
        assertTrue(
          Math.abs(created_at - before) <= DAY_SECONDS,
          `created_at ${created_at} is more than a day away from now (${before})`,
        );
      },
    },
    {
      id: id('write.unique-ids'),
      title: 'every write() gets a new id',
      section: 'DataStore v1.0 §write',
      level: 'required',
      requires: 'writes',
      since,
      run: async (ctx) => {
        const word = ctx.uniqueWord();
        const ids = [];
        for (let index = 0; index < 3; index++) ids.push(await writeEntry(ctx, { content: `same ${word}` }));
        assertEqual(new Set(ids).size, ids.length, `ids of three writes (${formatValue(ids)})`);
      },
    },
    {
      id: id('get.round-trip'),
      title: 'get(written id) resolves to valid PortableData with that id',
      section: 'DataStore v1.0 §get',
      level: 'required',
      requires: 'writes',
      since,
      run: async (ctx) => {
        const written = await writeEntry(ctx, { content: `round trip ${ctx.uniqueWord()}` });
        const item = assertPortableData(await mustResolve('get()', () => ctx.store.get(written)), 'get()');
        assertEqual(item.id, written, 'get().id');
      },
    },
    {
      id: id('get.unknown-null'),
      title: 'get(unknown id) resolves to null and does not throw',
      section: 'DataStore v1.0 §get',
      level: 'required',
      since,
      run: async (ctx) => {
        const item: unknown = await mustResolve('get(unknown id)', () =>
          ctx.store.get(`missing-${ctx.uniqueWord()}`),
        );
        assertEqual(item, null, 'get(unknown id)');
      },
    },
    {
      id: id('get.summary-detail'),
      title: 'summary is the first line of the content (cut at 200) and detail the whole content',
      section: 'DataStore conventions §summary/detail',
      level: 'recommended',
      requires: 'writes',
      since,
      run: async (ctx) => {
        const content = `${'Summary line '.repeat(20)}${ctx.uniqueWord()}\nsecond line\nthird line`;
        const written = await writeEntry(ctx, { content });
        const item = assertPortableData(await ctx.store.get(written), 'get()');
        assertEqual(item.summary, summarizeContent(content), 'summary');
        assertEqual(item.detail, content, 'detail');
      },
    },
    {
      id: id('get.unicode'),
      title: 'content outside ASCII (accents, CJK, emoji, line breaks) comes back unchanged in detail',
      section: 'DataStore v1.0 §get',
      level: 'recommended',
      requires: 'writes',
      since,
      run: async (ctx) => {
        const content = `Ünïcödé ${ctx.uniqueWord()} 日本語 🚀\r\n\ttab\u00a0nbsp 👩‍💻`;
        const written = await writeEntry(ctx, { content });
        const item = assertPortableData(await ctx.store.get(written), 'get()');
        assertEqual(item.detail, content, 'detail');
      },
    },
    {
      id: id('curated.not-in-metadata'),
      title: 'tags, recipients and expires_at never come back inside metadata',
      section: 'DataStore v1.0 §PortableData',
      level: 'required',
      requires: 'writes',
      since,
      run: async (ctx) => {
        const written = await writeEntry(ctx, {
          content: `curated ${ctx.uniqueWord()}`,
          tags: ['conformance'],
          recipients: ['conformance-agent'],
          expires_at: Math.floor(Date.now() / 1000) + DAY_SECONDS,
          metadata: { origin: 'conformance' },
        });
        assertPortableData(await mustResolve('get()', () => ctx.store.get(written)), 'get()');
      },
    },
    {
      id: id('curated.top-level'),
      title: 'written tags, recipients and expires_at come back as domain_tags, recipients, expires_at',
      section: 'DataStore v1.0 §PortableData',
      level: 'recommended',
      requires: 'writes',
      since,
      run: async (ctx) => {
        const expires_at = Math.floor(Date.now() / 1000) + DAY_SECONDS;
        const written = await writeEntry(ctx, {
          content: `top level ${ctx.uniqueWord()}`,
          tags: ['conformance-a', 'conformance-b'],
          recipients: ['conformance-agent'],
          expires_at,
        });
        const item = assertPortableData(await ctx.store.get(written), 'get()');
        assertEqual([...(item.domain_tags ?? [])].sort(), ['conformance-a', 'conformance-b'], 'domain_tags');
        assertEqual(item.recipients, ['conformance-agent'], 'recipients');
        assertEqual(item.expires_at, expires_at, 'expires_at');
      },
    },
  ];
}

/** Static capabilities, the methods the capabilities promise, and the manifest. */
export function methodCases(suiteName: string): Case[] {
  const id = (rest: string) => `${suiteName}.${rest}`;
  return [
    {
      id: id('static-capabilities.valid'),
      title: 'staticCapabilities() declares a data_store of contract major version 1 with boolean features',
      section: 'DataStore v1.0 §staticCapabilities',
      level: 'required',
      requires: 'static-capabilities',
      since,
      run: (ctx) => {
        const parsed = dataStoreCapabilitiesSchema.safeParse(ctx.declaredCapabilities);
        if (!parsed.success) {
          fail(`staticCapabilities() returned ${formatValue(ctx.declaredCapabilities)}`, parsed.error);
        }
        assertEqual(parsed.data.contract_version.split('.')[0], '1', 'contract major version');
      },
    },
    {
      id: id('methods.present'),
      title: 'query, get and manifest are methods, and write is one when writes are declared',
      section: 'DataStore v1.0 §interface',
      level: 'required',
      since,
      run: (ctx) => {
        const store = ctx.store as unknown as Record<string, unknown>;
        const expected = ['query', 'get', 'manifest'];
        if (ctx.staticCapabilities?.features.supports_writes === true) expected.push('write');
        const missing = expected.filter((name) => typeof store[name] !== 'function');
        assertEqual(missing, [], 'missing methods');
      },
    },
    {
      id: id('manifest.valid'),
      title: 'manifest() resolves to { capabilities_version, manifest } with a non-empty kind',
      section: 'DataStore v1.0 §manifest',
      level: 'required',
      since,
      run: async (ctx) => {
        const info: unknown = await mustResolve('manifest()', () => ctx.store.manifest());
        const parsed = dataStoreManifestInfoSchema.safeParse(info);
        if (!parsed.success) fail(`manifest() resolved to ${formatValue(info)}`, parsed.error);
        assertTrue(parsed.data.manifest.kind !== '', 'manifest.kind is empty');
        const modes = parsed.data.manifest.supported_modes ?? [];
        assertEqual(
          modes.length,
          new Set(modes).size,
          `supported_modes lists a mode twice (${formatValue(modes)})`,
        );
      },
    },
  ];
}

/** Searches: empty results, item shape, full-text hits, limit, declared modes and the domain_tags filter. */
export function queryCases(suiteName: string): Case[] {
  const id = (rest: string) => `${suiteName}.${rest}`;
  const search = (ctx: DataStoreContext, query: string, extra: Record<string, unknown> = {}) =>
    mustResolve(`query(${formatValue({ query, ...extra })})`, () =>
      ctx.store.query({ query, limit: 10, mode: ctx.searchMode, ...extra }),
    );
  return [
    {
      id: id('query.no-match-empty'),
      title: "an 'fts' query for a word no entry holds resolves to [] and does not throw",
      section: 'DataStore v1.0 §query',
      level: 'required',
      requires: 'fts',
      since,
      run: async (ctx) => {
        assertEqual(await search(ctx, ctx.uniqueWord()), [], 'query() with no match');
      },
    },
    {
      id: id('query.items-valid'),
      title: 'query() items are valid PortableData with string id and summary',
      section: 'DataStore v1.0 §query',
      level: 'required',
      requires: 'writes',
      since,
      run: async (ctx) => {
        const word = ctx.uniqueWord();
        await writeEntry(ctx, { content: `items ${word}\nmore text`, tags: ['conformance'] });
        assertPortableDataList(await search(ctx, word), 'query()');
      },
    },
    {
      id: id('query.fts-finds-written'),
      title: "an 'fts' query for a word of a written entry finds that entry",
      section: 'DataStore v1.0 §query modes',
      level: 'required',
      requires: 'fts-writes',
      since,
      run: async (ctx) => {
        const word = ctx.uniqueWord();
        const written = await writeEntry(ctx, { content: `The ${word} appears in this sentence.` });
        const items = assertPortableDataList(await search(ctx, word, { mode: 'fts' }), 'query()');
        assertTrue(
          items.some((item) => item.id === written),
          `query for '${word}' did not return entry ${written} (got ${formatValue(items.map((i) => i.id))})`,
        );
      },
    },
    {
      id: id('query.limit'),
      title: 'query() returns at most limit items',
      section: 'DataStore v1.0 §query',
      level: 'required',
      requires: 'writes',
      since,
      run: async (ctx) => {
        const word = ctx.uniqueWord();
        for (let index = 0; index < 3; index++)
          await writeEntry(ctx, { content: `limited ${word} ${index}` });
        const items = assertPortableDataList(await search(ctx, word, { limit: 2 }), 'query()');
        assertTrue(items.length <= 2, `limit 2 returned ${items.length} items`);
      },
    },
    {
      id: id('query.declared-modes'),
      title: 'every declared mode (supported_modes, supports_semantic, supports_rerank) resolves to an array',
      section: 'DataStore v1.0 §query modes',
      level: 'required',
      since,
      run: async (ctx) => {
        const modes = new Set(ctx.manifest?.supported_modes ?? [ctx.searchMode]);
        if (ctx.staticCapabilities?.features.supports_semantic === true) modes.add('semantic');
        if (ctx.staticCapabilities?.features.supports_rerank === true) modes.add('rerank');
        for (const mode of modes) {
          assertPortableDataList(
            await search(ctx, 'conformance', { mode, limit: 3 }),
            `query(mode '${mode}')`,
          );
        }
      },
    },
    {
      id: id('filters.domain-tags'),
      title: 'a declared domain_tags filter narrows results: a tag exactly, an array as any of them',
      section: 'DataStore v1.0 §supported_filters',
      level: 'required',
      requires: 'filter:domain_tags',
      since,
      run: async (ctx) => {
        const word = ctx.uniqueWord();
        const [tagA, tagB] = [`${word}a`, `${word}b`];
        const a = await writeEntry(ctx, { content: `tagged ${word} one`, tags: [tagA] });
        const b = await writeEntry(ctx, { content: `tagged ${word} two`, tags: [tagB] });
        const ids = async (domain_tags: unknown) =>
          assertPortableDataList(await search(ctx, word, { domain_tags }), 'query()').map((item) => item.id);
        assertEqual(await ids(tagA), [a], `domain_tags '${tagA}'`);
        assertEqual((await ids([tagA, tagB])).sort(), [a, b].sort(), 'domain_tags [a, b]');
      },
    },
  ];
}

/** A data store wired for a conformance run. */
export interface DataStoreUnderTest {
  readonly store: DataStore;
  /** Releases what `create` set up (database files, connections); called once after the last case. */
  readonly dispose?: () => void | Promise<void>;
}

/** What the suite's `create` may return: a bare store, or one with its disposal. */
export type DataStoreFactoryResult = DataStore | DataStoreUnderTest;

/** The context every case of `dataStoreSuite` receives. */
export interface DataStoreContext {
  readonly store: DataStore;
  /** What the store's class returns from `staticCapabilities()`, unvalidated; `undefined` without one. */
  readonly declaredCapabilities: unknown;
  /** The validated static capabilities, when the class declares valid ones. */
  readonly staticCapabilities: DataStoreCapabilities | undefined;
  /** The validated manifest read at setup, when `manifest()` gave a valid one. */
  readonly manifest: DataStoreManifest | undefined;
  /** The mode the search cases use: `'fts'` when declared (or nothing is), else the first declared mode. */
  readonly searchMode: string;
  /** A word no entry holds yet, new on every call: letters and digits only, one token to any tokenizer. */
  readonly uniqueWord: () => string;
}

let words = 0;

/**
 * Resolves what `create` returned into the case context, its capabilities and its dispose. Capabilities come
 * from the store's own declarations: `static-capabilities` (the class has `staticCapabilities()`),
 * `writes` (`supports_writes`, or a `write` method when the class declares nothing), `fts` (mode `'fts'`
 * declared, or no modes declared), and for a store that writes, `fts-writes` (both) and
 * `filter:domain_tags` (`supported_filters` lists it).
 */
export async function prepareDataStore(
  result: DataStoreFactoryResult,
): Promise<SuiteSetup<DataStoreContext>> {
  const underTest: DataStoreUnderTest = isWrapped(result) ? result : { store: result };
  const { store } = underTest;
  const declaredCapabilities = declaredCapabilitiesOf(store);
  const parsedCapabilities = dataStoreCapabilitiesSchema.safeParse(declaredCapabilities);
  const staticCapabilities = parsedCapabilities.success ? parsedCapabilities.data : undefined;
  const manifest = await readManifest(store);
  const capabilities = new Set<string>();
  if (declaredCapabilities !== undefined) capabilities.add('static-capabilities');
  const features = staticCapabilities?.features;
  const writes =
    features === undefined ? typeof store.write === 'function' : features.supports_writes === true;
  if (writes) capabilities.add('writes');
  const modes = manifest?.supported_modes;
  const fts = modes === undefined || modes.includes('fts');
  if (fts) capabilities.add('fts');
  if (fts && writes) capabilities.add('fts-writes');
  if (writes && manifest?.supported_filters?.includes('domain_tags') === true) {
    capabilities.add('filter:domain_tags');
  }
  const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  return {
    ctx: {
      store,
      declaredCapabilities,
      staticCapabilities,
      manifest,
      searchMode: fts ? 'fts' : (modes?.[0] ?? 'fts'),
      uniqueWord: () => {
        words += 1;
        return `awconf${run}w${words}`;
      },
    },
    capabilities,
    ...(underTest.dispose === undefined ? {} : { dispose: underTest.dispose }),
  };
}

function isWrapped(result: DataStoreFactoryResult): result is DataStoreUnderTest {
  return typeof (result as { readonly query?: unknown }).query !== 'function' && 'store' in result;
}

function declaredCapabilitiesOf(store: DataStore): unknown {
  const declare = (store.constructor as { readonly staticCapabilities?: unknown } | undefined)
    ?.staticCapabilities;
  if (typeof declare !== 'function') return undefined;
  try {
    return declare.call(store.constructor);
  } catch (error) {
    return error;
  }
}

async function readManifest(store: DataStore): Promise<DataStoreManifest | undefined> {
  try {
    const parsed = dataStoreManifestInfoSchema.safeParse(await store.manifest());
    return parsed.success ? parsed.data.manifest : undefined;
  } catch {
    // The manifest case reports the fault; the other cases run with the defaults.
    return undefined;
  }
}

/** Options of {@link dataStoreSuite}. */
export interface DataStoreSuiteOptions {
  /** Builds the store under test; called once per run, in the suite's `setup`. Use a fresh, empty store. */
  readonly create: () => DataStoreFactoryResult | Promise<DataStoreFactoryResult>;
  /**
   * The implementation's storage-convention helpers and bridge (`@agentwire/agent-connector`'s
   * `storageConventions` kit plus `(store) => new DataStoreQueryBridge(store)` fit), each checked against
   * `fixtures/agent-connector/storage-conventions.json`; absent members skip their cases. The store-level
   * summary cases run whatever this holds.
   */
  readonly conventions?: DataStoreConventions;
}

const SUITE_NAME = 'data-store.contract';

/**
 * The DataStore v1.0 contract, checked more strictly than the reference suite (which only checks that
 * `query` and `manifest` exist and that `fts` items carry a string `id` and `summary`): every item
 * validated as `PortableData` with no curated field repeated in `metadata` and no `null` fields; `write()`
 * records with whole unix-second `created_at`; `get()` round-trips a written entry and resolves to `null`
 * for an unknown id; no match is `[]`; `limit` is honoured; a full-text query finds a written word; every
 * declared mode answers; a declared `domain_tags` filter narrows. Cases are gated on the store's own
 * declarations: `static-capabilities`, `writes` (`supports_writes`), `fts` / `fts-writes` (mode
 * `'fts'`), `filter:domain_tags` (`manifest().supported_filters`). Entries the suite writes carry unique words, so a store that already
 * holds data can be checked too. The storage conventions of `fixtures/agent-connector/storage-conventions.json`
 * hold the store to the summary rule and check the helpers and bridge passed as `conventions`
 * (capability `convention:<member>`).
 *
 * @example
 * ```ts
 * const report = await runSuite(dataStoreSuite({ create: () => new SqliteDataStore({ path: ':memory:' }) }));
 * ```
 */
export function dataStoreSuite(options: DataStoreSuiteOptions): ConformanceSuite<DataStoreContext> {
  return {
    name: SUITE_NAME,
    version: DATA_STORE_SUITE_VERSION,
    description:
      'The DataStore v1.0 contract: static capabilities, manifest, write records, get round-trip and null ' +
      'on miss, PortableData items without curated fields in metadata, empty results, limit, full-text ' +
      'search, declared modes, the domain_tags filter, and the storage conventions (summary, filter ' +
      'enforcement, the query bridge).',
    cases: [
      ...methodCases(SUITE_NAME),
      ...entryCases(SUITE_NAME),
      ...queryCases(SUITE_NAME),
      ...dataStoreConventionCases<DataStoreContext>(SUITE_NAME, options.conventions, since),
    ],
    setup: async () => {
      const setup = await prepareDataStore(await options.create());
      const conventions = dataStoreConventionCapabilities(options.conventions);
      return { ...setup, capabilities: new Set([...(setup.capabilities ?? []), ...conventions]) };
    },
  };
}
