import {
  type AgentConnectorError,
  agentConnectorSchemas,
  storageConventions,
  UnsupportedFilterError,
} from '@agentwire/agent-connector';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDirectory, type TempDirectory } from '../../test/temp-directory.js';
import { SqliteStoreError } from '../shared/errors.js';
import { SqliteDataStore } from './sqlite-data-store.js';

const { summarizeContent } = storageConventions;
const { portableData: portableDataSchema } = agentConnectorSchemas;

const T0 = Date.UTC(2026, 0, 1);
const fts = (query: string, extra: Record<string, unknown> = {}) => ({
  query,
  limit: 10,
  mode: 'fts',
  ...extra,
});

let dir: TempDirectory;
let clock: number;
const stores: SqliteDataStore[] = [];
const open = (path = dir.file('data.db')) => {
  const store = new SqliteDataStore({ path, now: () => clock });
  stores.push(store);
  return store;
};

beforeEach(() => {
  dir = createTempDirectory();
  clock = T0;
});
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  dir.remove();
});

describe('SqliteDataStore.write / get', () => {
  it('assigns a UUID and unix-second created_at, and splits summary from detail', async () => {
    const store = open();
    const content = `${'x'.repeat(250)}\nsecond line`;
    const record = await store.write({ content });
    expect(record.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(record.created_at).toBe(T0 / 1000);
    const entry = await store.get(record.id);
    expect(entry).toEqual({
      id: record.id,
      summary: summarizeContent(content),
      detail: content,
      created_at: T0 / 1000,
    });
    expect(entry?.summary).toHaveLength(200);
    expect(portableDataSchema.parse(entry)).toEqual(entry);
  });

  it('returns tags, recipients and expires_at as top-level fields, never in metadata', async () => {
    const store = open();
    const { id } = await store.write({
      content: 'hello',
      tags: ['ops', 'deploy', 'ops'],
      recipients: ['perry'],
      expires_at: T0 / 1000 + 60,
      metadata: { source: 'test', nested: { a: [1, 2] } },
    });
    expect(await store.get(id)).toEqual({
      id,
      summary: 'hello',
      detail: 'hello',
      created_at: T0 / 1000,
      domain_tags: ['ops', 'deploy'],
      recipients: ['perry'],
      expires_at: T0 / 1000 + 60,
      metadata: { source: 'test', nested: { a: [1, 2] } },
    });
  });

  it('treats expires_at null as durable and hides entries once expires_at has passed', async () => {
    const store = open();
    const durable = await store.write({ content: 'durable note', expires_at: null });
    const brief = await store.write({ content: 'brief note', expires_at: T0 / 1000 + 10 });
    expect((await store.get(durable.id))?.expires_at).toBeUndefined();
    expect(await store.get(brief.id)).not.toBeNull();
    clock = T0 + 10_000;
    expect(await store.get(brief.id)).toBeNull();
    expect((await store.query(fts('note'))).map((e) => e.id)).toEqual([durable.id]);
    expect((await store.query(fts(''))).map((e) => e.id)).toEqual([durable.id]);
  });

  it('resolves get() to null for an unknown id and refuses a non-string id with a typed error', async () => {
    const store = open();
    expect(await store.get('no-such-id')).toBeNull();
    expect(await store.get('')).toBeNull();
    await expect(store.get(42 as never)).rejects.toMatchObject({ code: 'storage_validation' });
  });

  it('refuses malformed writes with storage_validation naming the field', async () => {
    const store = open();
    const cases: [unknown, string][] = [
      [undefined, 'entry'],
      [{}, 'entry.content'],
      [{ content: 1 }, 'entry.content'],
      [{ content: 'x', tags: 'ops' }, 'entry.tags'],
      [{ content: 'x', expires_at: Date.now() }, 'entry.expires_at'],
      [{ content: 'x', metadata: { recipients: ['a'] } }, 'entry.metadata.recipients'],
      [{ content: 'x', metadata: { big: 1n } }, 'entry.metadata'],
    ];
    for (const [entry, path] of cases) {
      const error = await store.write(entry as never).catch((e: unknown) => e);
      expect(error, path).toMatchObject({ code: 'storage_validation' });
      expect((error as AgentConnectorError).path).toBe(path);
    }
    expect(await store.query(fts(''))).toEqual([]);
  });

  it('keeps unicode and large content byte for byte', async () => {
    const store = open();
    const content = `Ünïcödé 日本語 テキスト 🚀 ${'\u{1F600}'.repeat(3)}\n${'lorem ipsum '.repeat(100_000)}`;
    const { id } = await store.write({ content });
    const entry = await store.get(id);
    expect(entry?.detail).toBe(content);
    expect(entry?.summary).toBe(summarizeContent(content));
    expect((await store.query(fts('日本語'))).map((e) => e.id)).toEqual([id]);
    expect((await store.query(fts('unicode'))).map((e) => e.id)).toEqual([id]);
  });
});

describe('SqliteDataStore.query', () => {
  it('finds entries by words of their content, best match first, with a positive score', async () => {
    const store = open();
    const a = await store.write({ content: 'deploy window moved\ndeploy on friday, deploy early' });
    const b = await store.write({ content: 'the deploy was fine' });
    await store.write({ content: 'unrelated' });
    const hits = await store.query(fts('deploy'));
    expect(hits.map((e) => e.id)).toEqual([a.id, b.id]);
    for (const hit of hits) {
      expect(hit.score).toBeGreaterThan(0);
      expect(portableDataSchema.parse(hit)).toEqual(hit);
    }
    expect(hits[0]!.score!).toBeGreaterThan(hits[1]!.score!);
    expect(await store.query(fts('deploy unrelated'))).toEqual([]);
    expect(await store.query(fts('nothing-like-this'))).toEqual([]);
  });

  it('searches FTS5 operators and special characters literally', async () => {
    const store = open();
    const words = await store.write({ content: 'apples OR oranges NEAR the NOT gate' });
    const plain = await store.write({ content: 'apples and pears' });
    expect((await store.query(fts('apples OR pears'))).map((e) => e.id)).toEqual([]);
    expect((await store.query(fts('apples OR'))).map((e) => e.id)).toEqual([words.id]);
    expect((await store.query(fts('NEAR NOT'))).map((e) => e.id)).toEqual([words.id]);
    for (const hostile of [
      '"',
      '""',
      'apples"',
      '*',
      'app*',
      '^apples',
      'detail:apples',
      '(apples',
      'a"b OR "c',
    ]) {
      const hits = await store.query(fts(hostile));
      expect(Array.isArray(hits), hostile).toBe(true);
    }
    expect((await store.query(fts('app*'))).map((e) => e.id)).toEqual([]);
    expect((await store.query(fts('"apples" pears'))).map((e) => e.id)).toEqual([plain.id]);
  });

  it('passes raw: queries to FTS5 and turns its syntax errors into invalid_fts_query', async () => {
    const store = open();
    const a = await store.write({ content: 'apples and pears' });
    const b = await store.write({ content: 'oranges' });
    const either = await store.query(fts('raw:apples OR oranges'));
    expect(either.map((e) => e.id).sort()).toEqual([a.id, b.id].sort());
    expect((await store.query(fts('raw:app*'))).map((e) => e.id)).toEqual([a.id]);
    for (const broken of ['raw:apples OR', 'raw:"unbalanced', 'raw:nosuchcolumn:apples', 'raw:(a']) {
      const error = await store.query(fts(broken)).catch((e: unknown) => e);
      expect(error, broken).toMatchObject({ code: 'invalid_fts_query' });
      expect((error as SqliteStoreError).cause).toBeInstanceOf(Database.SqliteError);
    }
  });

  it('refuses an invalid raw: query whatever the data and the tag filter', async () => {
    const store = open();
    const broken = ['raw:NOT x', 'raw:* {b}', 'raw:^start 1.5'];
    const refusal = (query: string, extra: Record<string, unknown> = {}) =>
      store.query(fts(query, extra)).then(
        () => 'answered',
        (error: unknown) =>
          error instanceof SqliteStoreError && error.code === 'invalid_fts_query'
            ? error.details.expression
            : error,
      );
    for (const query of broken) {
      const expression = query.slice('raw:'.length);
      expect(await refusal(query), query).toBe(expression);
      expect(await refusal(query, { domain_tags: 'ops' }), query).toBe(expression);
      expect(await refusal(query, { domain_tags: ['', 'ops'] }), query).toBe(expression);
    }
    await store.write({ content: 'deploy notes', tags: ['dev'] });
    for (const query of broken) {
      expect(await refusal(query, { domain_tags: 'missing' }), query).toBe(query.slice('raw:'.length));
    }
  });

  it('lists the most recent entries for an empty query, honouring limit', async () => {
    const store = open();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      clock = T0 + i * 1000;
      ids.push((await store.write({ content: `entry ${i}` })).id);
    }
    const recent = await store.query({ query: '  ', limit: 3, mode: 'fts' });
    expect(recent.map((e) => e.id)).toEqual([ids[4], ids[3], ids[2]]);
    expect(recent[0]!.score).toBeUndefined();
    expect((await store.query(fts('raw:'))).map((e) => e.id)).toEqual([...ids].reverse());
  });

  it('applies domain_tags: a string exactly, an array as any-of, [] as no filter — also to empty queries', async () => {
    const store = open();
    const ops = await store.write({ content: 'note one', tags: ['ops'] });
    const dev = await store.write({ content: 'note two', tags: ['dev', 'ops-extra'] });
    const none = await store.write({ content: 'note three' });
    const ids = async (extra: Record<string, unknown>, query = 'note') =>
      (await store.query(fts(query, extra))).map((e) => e.id).sort();
    expect(await ids({ domain_tags: 'ops' })).toEqual([ops.id]);
    expect(await ids({ domain_tags: 'op' })).toEqual([]);
    expect(await ids({ domain_tags: ['ops', 'dev'] })).toEqual([ops.id, dev.id].sort());
    expect(await ids({ domain_tags: [] })).toEqual([ops.id, dev.id, none.id].sort());
    expect(await ids({ domain_tags: 'dev' }, '')).toEqual([dev.id]);
    expect(await ids({ domain_tags: ['ops'] }, 'raw:note')).toEqual([ops.id]);
    await expect(store.query(fts('note', { domain_tags: 7 }))).rejects.toMatchObject({
      code: 'storage_validation',
    });
    await expect(store.query(fts('note', { domain_tags: ['ok', 1] }))).rejects.toMatchObject({
      code: 'storage_validation',
    });
  });

  it('refuses undeclared filter keys unless permissive_filters is literally true', async () => {
    const store = open();
    await store.write({ content: 'scoped note' });
    const error = await store.query(fts('note', { vault: 'private' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedFilterError);
    expect((error as UnsupportedFilterError).unsupported_keys).toEqual(['vault']);
    await expect(store.query(fts('note', { vault: 'x', permissive_filters: 'true' }))).rejects.toBeInstanceOf(
      UnsupportedFilterError,
    );
    expect(await store.query(fts('note', { vault: 'x', permissive_filters: true }))).toHaveLength(1);
  });

  it('refuses unsupported modes and malformed filters with typed errors', async () => {
    const store = open();
    const error = await store.query(fts('x', { mode: 'semantic' })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'unsupported_query_mode' });
    expect((error as SqliteStoreError).details.supported_modes).toEqual(['fts']);
    for (const filters of [
      undefined,
      {},
      fts('x', { limit: 0 }),
      fts('x', { limit: -1 }),
      fts('x', { limit: '5' }),
      fts('x', { limit: Number.NaN }),
      { query: 3, limit: 1, mode: 'fts' },
    ]) {
      await expect(store.query(filters as never)).rejects.toMatchObject({ code: 'storage_validation' });
    }
  });

  it('rounds a fractional limit down (to at least 1) and accepts a huge one', async () => {
    const store = open();
    for (let i = 0; i < 4; i++) await store.write({ content: `row ${i}` });
    expect(await store.query(fts('row', { limit: 2.7 }))).toHaveLength(2);
    expect(await store.query(fts('row', { limit: 0.5 }))).toHaveLength(1);
    expect(await store.query(fts('row', { limit: 1e300 }))).toHaveLength(4);
  });
});

describe('SqliteDataStore lifecycle', () => {
  it('keeps entries across close and reopen of the file', async () => {
    const path = dir.file('nested/deeper/data.db');
    const first = open(path);
    const { id } = await first.write({ content: 'survives restarts', tags: ['keep'] });
    first.close();
    const second = open(path);
    expect((await second.get(id))?.domain_tags).toEqual(['keep']);
    expect((await second.query(fts('survives', { domain_tags: 'keep' }))).map((e) => e.id)).toEqual([id]);
  });

  it('works in memory', async () => {
    const store = new SqliteDataStore({ path: ':memory:' });
    stores.push(store);
    const { id } = await store.write({ content: 'ephemeral' });
    expect((await store.query(fts('ephemeral'))).map((e) => e.id)).toEqual([id]);
    expect((await store.manifest()).manifest).toMatchObject({
      kind: 'sqlite-fts',
      supported_modes: ['fts'],
      supported_filters: ['domain_tags'],
    });
  });

  it('takes parallel writes from one store and from two connections to the same file', async () => {
    const path = dir.file('shared.db');
    const a = open(path);
    const b = open(path);
    const writes = Array.from({ length: 100 }, (_, i) =>
      (i % 2 === 0 ? a : b).write({ content: `parallel write ${i}`, tags: [`t${i % 3}`] }),
    );
    const records = await Promise.all(writes);
    expect(new Set(records.map((r) => r.id)).size).toBe(100);
    const all = await a.query({ query: 'parallel', limit: 1000, mode: 'fts' });
    expect(all).toHaveLength(100);
    expect(await b.query({ query: 'parallel', limit: 1000, mode: 'fts', domain_tags: 't0' })).toHaveLength(
      34,
    );
  });

  it('throws store_closed after close, and leaves a borrowed connection open', async () => {
    const database = new Database(':memory:');
    try {
      const store = new SqliteDataStore({ database });
      await store.write({ content: 'borrowed' });
      store.close();
      store.close();
      expect(database.open).toBe(true);
      await expect(store.get('x')).rejects.toMatchObject({ code: 'store_closed' });
      await expect(store.query(fts('x'))).rejects.toMatchObject({ code: 'store_closed' });
      await expect(store.write({ content: 'x' })).rejects.toMatchObject({ code: 'store_closed' });
      await expect(store.manifest()).rejects.toMatchObject({ code: 'store_closed' });
      const again = new SqliteDataStore({ database });
      expect(await again.query(fts('borrowed'))).toHaveLength(1);
    } finally {
      database.close();
    }
  });

  it('refuses bad options and a database from a newer release', () => {
    expect(() => new SqliteDataStore(null as never)).toThrow(
      expect.objectContaining({ code: 'storage_validation' }),
    );
    expect(() => new SqliteDataStore({ path: '' })).toThrow(
      expect.objectContaining({ code: 'storage_validation' }),
    );
    expect(() => new SqliteDataStore({ path: ':memory:', now: 5 as never })).toThrow(
      expect.objectContaining({ code: 'storage_validation' }),
    );
    const closed = new Database(':memory:');
    closed.close();
    expect(() => new SqliteDataStore({ database: closed })).toThrow(
      expect.objectContaining({ code: 'storage_validation' }),
    );
    const path = dir.file('future.db');
    open(path).close();
    const raw = new Database(path);
    raw.prepare("UPDATE agentwire_schema_versions SET version = 99 WHERE component = 'data_store'").run();
    raw.close();
    const error = (() => {
      try {
        return new SqliteDataStore({ path });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(SqliteStoreError);
    expect(error).toMatchObject({
      code: 'schema_migration',
      details: { component: 'data_store', found_version: 99, supported_version: 1 },
    });
  });

  it('declares its static capabilities', () => {
    expect(SqliteDataStore.staticCapabilities()).toMatchObject({
      connector_type: 'data_store',
      implementation: 'SqliteDataStore',
      contract_version: '1.0.0',
      features: { supports_writes: true, supports_tag_filter: true, supports_semantic: false },
    });
  });
});
