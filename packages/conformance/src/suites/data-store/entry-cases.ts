import { summarizeContent, UNIX_SECONDS_LIMIT } from '@agentwire/agent-connector';
import { assertEqual, assertTrue } from '../../assert.js';
import { formatValue } from '../../format-value.js';
import type { ConformanceCase } from '../../suite.js';
import { mustResolve } from '../agent-connector/strict-values.js';
import { assertPortableData } from './data-checks.js';
import type { DataStoreContext } from './store-under-test.js';
import { DATA_STORE_SUITE_VERSION } from './suite-version.js';

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
