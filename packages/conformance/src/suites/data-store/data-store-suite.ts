import {
  agentConnectorSchemas,
  type DataStore,
  type DataStoreCapabilities,
  type DataStoreManifest,
  type PortableData,
  type QueryFilters,
  storageConventions,
} from '@agentwire/agent-connector';
import { assertEqual, assertRefuses, assertTrue, fail, formatValue } from '../../assert.js';
import { requiredCapabilities } from '../../run-suite.js';
import type { CapabilityNeed, ConformanceCase, ConformanceSuite, SuiteSetup } from '../../suite.js';
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

/**
 * Version of the data-store suite; its major follows the DataStore contract version (v1.0). 1.1.0 added
 * the expires_at, round-trip, exact-limit and exact-tag cases.
 */
export const DATA_STORE_SUITE_VERSION = '1.1.0';

type Case = ConformanceCase<DataStoreContext>;

/** The suite version that shipped the first cases. */
const since = '1.0.0';

/** The suite version of the expires_at, round-trip, exact-limit and exact-tag cases. */
const sinceLifecycle = DATA_STORE_SUITE_VERSION;
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
      id: id('write.malformed-refused'),
      title:
        'write() refuses content that is no string and metadata that repeats a curated field, with storage_validation naming the field',
      section: 'DataStore v1.0 §write; storage conventions §curated fields',
      level: 'recommended',
      requires: 'writes',
      since: sinceLifecycle,
      run: async (ctx) => {
        const refusals: [string, unknown, string][] = [
          ['content 7', { content: 7 }, 'entry.content'],
          [
            'metadata holding domain_tags',
            { content: `curated ${ctx.uniqueWord()}`, metadata: { domain_tags: ['x'] } },
            'entry.metadata.domain_tags',
          ],
        ];
        for (const [what, entry, path] of refusals) {
          await assertRefuses(
            () => ctx.store.write(entry as Parameters<DataStoreContext['store']['write']>[0]),
            { code: 'storage_validation', path },
            what,
          );
        }
      },
    },
    {
      id: id('round-trip.content-only'),
      title: 'an entry written with content only comes back without tags, recipients, expires_at or metadata',
      section: 'DataStore v1.0 §DataWrite, §PortableData',
      level: 'required',
      requires: 'writes',
      since: sinceLifecycle,
      run: async (ctx) => {
        const written = await writeEntry(ctx, { content: `content only ${ctx.uniqueWord()}` });
        const item = assertPortableData(await mustResolve('get()', () => ctx.store.get(written)), 'get()');
        assertEqual(item.domain_tags ?? [], [], 'domain_tags of an untagged entry');
        assertEqual(
          [item.recipients, item.expires_at, item.metadata],
          [undefined, undefined, undefined],
          'recipients, expires_at and metadata of an entry written without them',
        );
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
    {
      id: id('capabilities.filters-alike'),
      title:
        'features.supports_tag_filter and supports_thread_status_filter are true exactly when the manifest lists domain_tags and thread_status',
      section: 'DataStore v1.0 §staticCapabilities, §manifest',
      level: 'required',
      requires: 'static-capabilities',
      since: sinceLifecycle,
      run: (ctx) => {
        const filters = ctx.manifest?.supported_filters ?? [];
        const features = ctx.staticCapabilities?.features;
        assertEqual(
          [features?.supports_tag_filter === true, features?.supports_thread_status_filter === true],
          [filters.includes('domain_tags'), filters.includes('thread_status')],
          `features.supports_tag_filter and supports_thread_status_filter against the manifest's supported_filters ${formatValue(
            filters,
          )}`,
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
      id: id('refuses-malformed-arguments'),
      title:
        'refuses a non-string id and query filters that break QueryFilters with storage_validation naming the field',
      section: 'DataStore v1.0 §get, §query; storage_validation',
      level: 'recommended',
      since: sinceLifecycle,
      run: async (ctx) => {
        const query = (filters: Record<string, unknown>) => () =>
          ctx.store.query({
            query: 'conformance',
            limit: 10,
            mode: ctx.searchMode,
            ...filters,
          } as QueryFilters);
        const refusals: [string, () => Promise<unknown>, string][] = [
          ['get(7)', () => ctx.store.get(7 as unknown as string), 'id'],
          ['query 7', query({ query: 7 }), 'filters.query'],
          ...[0, -1, Number.NaN, Number.POSITIVE_INFINITY, '5'].map(
            (limit): [string, () => Promise<unknown>, string] => [
              `limit ${formatValue(limit)}`,
              query({ limit }),
              'filters.limit',
            ],
          ),
          ['mode 5', query({ mode: 5 }), 'filters.mode'],
        ];
        if (declaresTagFilter(ctx)) {
          refusals.push(
            ['domain_tags 7', query({ domain_tags: 7 }), 'filters.domain_tags'],
            ['domain_tags [1]', query({ domain_tags: [1] }), 'filters.domain_tags'],
            [
              "domain_tags ['conformance', 1]",
              query({ domain_tags: ['conformance', 1] }),
              'filters.domain_tags',
            ],
          );
        }
        for (const [what, call, path] of refusals) {
          await assertRefuses(call, { code: 'storage_validation', path }, what);
        }
      },
    },
    {
      id: id('query.user-text'),
      title:
        "an 'fts' query is user text: operator words, quotes and extra white space are searched as words, never refused",
      section: 'DataStore v1.0 §query modes',
      level: 'required',
      requires: 'fts-writes',
      since: sinceLifecycle,
      run: async (ctx) => {
        const word = ctx.uniqueWord();
        const written = await writeEntry(ctx, { content: `${word} OR NOT "quote say"hello end` });
        const queries = [
          `${word} OR`,
          `  ${word}   NOT  `,
          `${word} "quote`,
          `"quote ${word}`,
          `say"hello ${word}`,
        ];
        for (const query of queries) {
          const items = assertPortableDataList(
            await search(ctx, query, { mode: 'fts' }),
            `query(${formatValue(query)})`,
          );
          assertTrue(
            items.some((item) => item.id === written),
            `query ${formatValue(query)} did not return entry ${written} (got ${formatValue(items.map((i) => i.id))})`,
          );
        }
      },
    },
    {
      id: id('query.scores'),
      title: 'a store whose manifest declares a score_range gives every search hit a numeric score',
      section: 'DataStore v1.0 §PortableData.score, §manifest',
      level: 'required',
      requires: 'fts-writes',
      since: sinceLifecycle,
      run: async (ctx) => {
        if (ctx.manifest?.score_range === undefined) return;
        const word = ctx.uniqueWord();
        await writeEntry(ctx, { content: `scored ${word}` });
        const items = assertPortableDataList(await search(ctx, word, { mode: 'fts' }), 'query()');
        assertTrue(items.length > 0, `query for '${word}' found nothing`);
        for (const item of items) {
          assertTrue(
            typeof item.score === 'number' && Number.isFinite(item.score),
            `item ${item.id} has score ${formatValue(item.score)}`,
          );
        }
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

/** Unix seconds now, as the cases stamp `expires_at` relative to it. */
function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** An `expires_at` an hour gone: the entry is expired from the moment it is written. */
const pastExpiry = () => nowSeconds() - 3600;

/** Metadata with non-ASCII keys and values, nesting, numbers and booleans: all of it must come back. */
const DISTINCTIVE_METADATA: Readonly<Record<string, unknown>> = {
  origin: 'conformance',
  'clé-ü': 'valeur — 日本語 🙂',
  nested: { list: [1, 'zwei', true], ratio: 0.25, flag: false },
};

/** The ids `query(...)` returns, items validated. */
async function queriedIds(ctx: DataStoreContext, query: string, extra: Record<string, unknown> = {}) {
  const filters = { query, limit: 100, mode: ctx.searchMode, ...extra };
  const items = await mustResolve(`query(${formatValue(filters)})`, () => ctx.store.query(filters));
  return assertPortableDataList(items, `query(${formatValue(filters)})`).map((item) => item.id);
}

/** Whether `ctx`'s manifest declares the `domain_tags` filter. */
const declaresTagFilter = (ctx: DataStoreContext) =>
  ctx.manifest?.supported_filters?.includes('domain_tags') === true;

/** Fails unless `item` carries every field written by the every-field cases, unchanged. */
function assertEveryField(
  item: PortableData,
  written: {
    readonly content: string;
    readonly tags: readonly string[];
    readonly recipients: readonly string[];
    readonly expires_at: number;
    readonly created_at: number;
  },
  what: string,
): void {
  assertEqual(item.detail, written.content, `${what}.detail`);
  assertEqual(item.summary, summarizeContent(written.content), `${what}.summary`);
  assertEqual([...(item.domain_tags ?? [])].sort(), [...written.tags].sort(), `${what}.domain_tags`);
  assertEqual(item.recipients, written.recipients, `${what}.recipients`);
  assertEqual(item.expires_at, written.expires_at, `${what}.expires_at`);
  assertEqual(item.created_at, written.created_at, `${what}.created_at (the one write() returned)`);
  assertEqual(item.metadata, DISTINCTIVE_METADATA, `${what}.metadata`);
}

/** `expires_at` honoured on every read path, metadata and every field round-tripped, exact limits and tags. */
export function lifecycleCases(suiteName: string): Case[] {
  const id = (rest: string) => `${suiteName}.${rest}`;
  return [
    {
      id: id('expires-at.get-hides-expired'),
      title: 'get() of an entry whose expires_at has passed resolves to null; an unexpired one is served',
      section: 'DataStore v1.0 §DataWrite.expires_at, §get',
      level: 'required',
      requires: 'writes',
      since: sinceLifecycle,
      run: async (ctx) => {
        const expired = await writeEntry(ctx, {
          content: `expired ${ctx.uniqueWord()}`,
          expires_at: pastExpiry(),
        });
        const live = await writeEntry(ctx, {
          content: `live ${ctx.uniqueWord()}`,
          expires_at: nowSeconds() + DAY_SECONDS,
        });
        assertEqual(
          await mustResolve('get(expired id)', () => ctx.store.get(expired)),
          null,
          'get() of an expired entry',
        );
        const served = await mustResolve('get(live id)', () => ctx.store.get(live));
        assertEqual(
          assertPortableData(served, 'get(live id)').id,
          live,
          'get() of an entry that expires tomorrow',
        );
      },
    },
    {
      id: id('expires-at.query-hides-expired'),
      title: 'query() never returns an expired entry: by text, by the empty text listing, or by tag',
      section: 'DataStore v1.0 §DataWrite.expires_at, §query',
      level: 'required',
      requires: 'fts-writes',
      since: sinceLifecycle,
      run: async (ctx) => {
        const word = ctx.uniqueWord();
        const tag = `${word}tag`;
        const expired = await writeEntry(ctx, {
          content: `gone ${word}`,
          tags: [tag],
          expires_at: pastExpiry(),
        });
        const live = await writeEntry(ctx, { content: `kept ${word}`, tags: [tag] });
        const byText = await queriedIds(ctx, word);
        assertTrue(!byText.includes(expired), `query('${word}') returned the expired entry ${expired}`);
        assertTrue(byText.includes(live), `query('${word}') lost the live entry ${live}`);
        // The empty text lists recent entries on stores that support it; any it lists must be live.
        const listing: unknown = await ctx.store
          .query({ query: '', limit: 100, mode: ctx.searchMode })
          .catch(() => []);
        if (Array.isArray(listing)) {
          assertTrue(
            !listing.some((item) => (item as { id?: unknown } | null)?.id === expired),
            `query('') listed the expired entry ${expired}`,
          );
        }
        if (declaresTagFilter(ctx)) {
          assertEqual(
            await queriedIds(ctx, word, { domain_tags: tag }),
            [live],
            `query('${word}', domain_tags '${tag}')`,
          );
        }
      },
    },
    {
      id: id('expires-at.null-durable'),
      title: 'expires_at: null keeps the entry for good: it is served, and comes back without expires_at',
      section: 'DataStore v1.0 §DataWrite.expires_at',
      level: 'required',
      requires: 'writes',
      since: sinceLifecycle,
      run: async (ctx) => {
        const written = await writeEntry(ctx, { content: `durable ${ctx.uniqueWord()}`, expires_at: null });
        const item = await mustResolve('get()', () => ctx.store.get(written));
        assertTrue(item !== null, `get() of an entry written with expires_at: null resolved to null`);
        assertEqual(assertPortableData(item, 'get()').expires_at, undefined, 'expires_at of a durable entry');
      },
    },
    {
      id: id('round-trip.metadata'),
      title:
        'metadata written with write() comes back unchanged from get() and query(), non-ASCII and nesting included',
      section: 'DataStore v1.0 §DataWrite.metadata, §PortableData',
      level: 'required',
      requires: 'fts-writes',
      since: sinceLifecycle,
      run: async (ctx) => {
        const word = ctx.uniqueWord();
        const written = await writeEntry(ctx, {
          content: `metadata ${word}`,
          metadata: DISTINCTIVE_METADATA,
        });
        const got = assertPortableData(await mustResolve('get()', () => ctx.store.get(written)), 'get()');
        assertEqual(got.metadata, DISTINCTIVE_METADATA, 'get().metadata');
        const found = assertPortableDataList(
          await mustResolve('query()', () =>
            ctx.store.query({ query: word, limit: 10, mode: ctx.searchMode }),
          ),
          'query()',
        ).find((item) => item.id === written);
        assertTrue(found !== undefined, `query('${word}') did not return entry ${written}`);
        assertEqual(found.metadata, DISTINCTIVE_METADATA, 'query() item metadata');
      },
    },
    {
      id: id('round-trip.every-field'),
      title:
        'every field of a write (content, tags, recipients, expires_at, metadata) comes back from get() and query()',
      section: 'DataStore v1.0 §write, §PortableData',
      level: 'recommended',
      requires: 'fts-writes',
      since: sinceLifecycle,
      run: async (ctx) => {
        const word = ctx.uniqueWord();
        const entry = {
          content: `Première ligne ${word} — 日本語 🙂\r\nzweite Zeile mit Ümlaut\n\tdritte`,
          tags: [`${word}-étiquette`, `${word}-標籤`],
          recipients: ['agent-ü', 'agent-日本'],
          expires_at: nowSeconds() + DAY_SECONDS,
          metadata: { ...DISTINCTIVE_METADATA },
        };
        const record: unknown = await mustResolve('write()', () => ctx.store.write(entry));
        const { id: written, created_at } = (record ?? {}) as { id?: unknown; created_at?: unknown };
        assertTrue(
          typeof written === 'string' && typeof created_at === 'number',
          `write() resolved to ${formatValue(record)}`,
        );
        const expected = { ...entry, created_at };
        assertEveryField(assertPortableData(await ctx.store.get(written), 'get()'), expected, 'get()');
        const found = assertPortableDataList(
          await mustResolve('query()', () =>
            ctx.store.query({ query: word, limit: 10, mode: ctx.searchMode }),
          ),
          'query()',
        ).find((item) => item.id === written);
        assertTrue(found !== undefined, `query('${word}') did not return entry ${written}`);
        assertEveryField(found, expected, 'query() item');
      },
    },
    {
      id: id('query.limit-exact'),
      title: 'query() returns exactly limit items when more entries match, and every match when fewer do',
      section: 'DataStore v1.0 §query',
      level: 'required',
      requires: 'fts-writes',
      since: sinceLifecycle,
      run: async (ctx) => {
        const word = ctx.uniqueWord();
        for (let index = 0; index < 3; index++)
          await writeEntry(ctx, { content: `counted ${word} ${index}` });
        for (const [limit, expected] of [
          [1, 1],
          [2, 2],
          [3, 3],
          [10, 3],
        ] as const) {
          const items = await mustResolve(`query(limit ${limit})`, () =>
            ctx.store.query({ query: word, limit, mode: ctx.searchMode }),
          );
          assertEqual(
            assertPortableDataList(items, 'query()').length,
            expected,
            `items for limit ${limit} with 3 matches`,
          );
        }
      },
    },
    {
      id: id('filters.domain-tags-exact'),
      title: 'a domain_tags filter matches a tag exactly: not a longer tag, not another case',
      section: 'DataStore v1.0 §supported_filters',
      level: 'required',
      requires: 'filter:domain_tags',
      since: sinceLifecycle,
      run: async (ctx) => {
        const word = ctx.uniqueWord();
        const tag = `${word}ops`;
        const exact = await writeEntry(ctx, { content: `exact ${word}`, tags: [tag] });
        await writeEntry(ctx, { content: `longer ${word}`, tags: [`${tag}-team`] });
        await writeEntry(ctx, { content: `upper ${word}`, tags: [tag.toUpperCase()] });
        assertEqual(await queriedIds(ctx, word, { domain_tags: tag }), [exact], `domain_tags '${tag}'`);
        assertEqual(await queriedIds(ctx, word, { domain_tags: [tag] }), [exact], `domain_tags ['${tag}']`);
      },
    },
    {
      id: id('filters.domain-tags-with-text'),
      title: 'a domain_tags filter narrows the text search: both must match',
      section: 'DataStore v1.0 §supported_filters, §query',
      level: 'required',
      requires: 'filter:domain_tags',
      since: sinceLifecycle,
      run: async (ctx) => {
        const [word, other] = [ctx.uniqueWord(), ctx.uniqueWord()];
        const tag = `${word}shared`;
        const both = await writeEntry(ctx, { content: `both ${word}`, tags: [tag] });
        await writeEntry(ctx, { content: `tag only ${other}`, tags: [tag] });
        await writeEntry(ctx, { content: `text only ${word}` });
        assertEqual(
          await queriedIds(ctx, word, { domain_tags: tag }),
          [both],
          `query('${word}', domain_tags '${tag}')`,
        );
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

/** What the implementer provides for each store capability a case requires. */
const STORE_NEEDS: Readonly<Record<string, string>> = {
  'static-capabilities': "a static staticCapabilities() on the store's class",
  writes:
    "features.supports_writes: true in the class's static staticCapabilities() (or, without one, a write() method)",
  fts: "mode 'fts' in manifest().manifest.supported_modes (or no supported_modes at all)",
  'fts-writes':
    "both writes (features.supports_writes) and mode 'fts' in manifest().manifest.supported_modes",
  'filter:domain_tags': "'domain_tags' in manifest().manifest.supported_filters, on a store that writes",
};

/**
 * What the implementer provides for each capability the `cases` require: the store's own declarations,
 * or a member of the `conventions` option. None is an observation: every case reads its answers from the
 * store itself.
 */
function dataStoreNeeds(cases: readonly Case[]): Record<string, CapabilityNeed> {
  const needs: Record<string, CapabilityNeed> = {};
  for (const capability of new Set(cases.flatMap(requiredCapabilities))) {
    const provide = STORE_NEEDS[capability];
    if (provide !== undefined) {
      needs[capability] = { provide };
    } else if (capability.startsWith('convention:')) {
      const member = capability.slice('convention:'.length);
      needs[capability] = {
        provide: `conventions.${member} in the suite options (agent-connector's storageConventions and DataStoreQueryBridge fit)`,
      };
    }
  }
  return needs;
}

/**
 * The DataStore v1.0 contract, checked more strictly than the reference suite (which only checks that
 * `query` and `manifest` exist and that `fts` items carry a string `id` and `summary`): every item
 * validated as `PortableData` with no curated field repeated in `metadata` and no `null` fields; `write()`
 * records with whole unix-second `created_at`; `get()` round-trips a written entry and resolves to `null`
 * for an unknown id; no match is `[]`; `limit` is honoured; a full-text query finds a written word; every
 * declared mode answers; a declared `domain_tags` filter narrows. Since 1.1.0: an entry whose
 * `expires_at` has passed is served by no read (`get`, a text query, the empty-text listing, a tag
 * query) while `expires_at: null` keeps one for good; `metadata` (nested, non-ASCII) and every written
 * field come back from `get()` and `query()`; `limit` returns exactly that many when more match; a
 * `domain_tags` tag matches exactly (not a longer tag, not another case) and narrows the text search
 * rather than replacing it. Cases are gated on the store's own
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
  const cases: Case[] = [
    ...methodCases(SUITE_NAME),
    ...entryCases(SUITE_NAME),
    ...queryCases(SUITE_NAME),
    ...lifecycleCases(SUITE_NAME),
    ...dataStoreConventionCases<DataStoreContext>(SUITE_NAME, options.conventions, since),
  ];
  return {
    name: SUITE_NAME,
    version: DATA_STORE_SUITE_VERSION,
    description:
      'The DataStore v1.0 contract: static capabilities, manifest, write records, get round-trip and null ' +
      'on miss, PortableData items without curated fields in metadata, empty results, limit, full-text ' +
      'search, declared modes, the domain_tags filter, expired entries hidden from every read, metadata ' +
      'and every written field round-tripped, exact limits, exact tags, and the storage conventions ' +
      '(summary, filter enforcement, the query bridge).',
    needs: dataStoreNeeds(cases),
    cases,
    setup: async () => {
      const setup = await prepareDataStore(await options.create());
      const conventions = dataStoreConventionCapabilities(options.conventions);
      return { ...setup, capabilities: new Set([...(setup.capabilities ?? []), ...conventions]) };
    },
  };
}
