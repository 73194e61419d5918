import { assertEqual, assertTrue } from '../../assert.js';
import { formatValue } from '../../format-value.js';
import type { ConformanceCase } from '../../suite.js';
import { mustResolve } from '../agent-connector/strict-values.js';
import { assertPortableDataList } from './data-checks.js';
import { writeEntry } from './entry-cases.js';
import type { DataStoreContext } from './store-under-test.js';
import { DATA_STORE_SUITE_VERSION } from './suite-version.js';

type Case = ConformanceCase<DataStoreContext>;

const since = DATA_STORE_SUITE_VERSION;

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
