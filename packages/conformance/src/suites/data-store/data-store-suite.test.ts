import {
  type DataStore,
  type DataStoreCapabilities,
  type DataStoreManifest,
  DataStoreQueryBridge,
  type DataWrite,
  type DataWriteRecord,
  type ManifestInfo,
  type PortableData,
  type QueryFilters,
  storageConventions,
} from '@agentwire/agent-connector';
import { afterAll, describe, expect, it } from 'vitest';
import { runSuite } from '../../run-suite.js';
import { registerSuite } from '../../vitest/index.js';
import type { DataStoreConventions } from './data-store-conventions.js';
import { dataStoreSuite } from './data-store-suite.js';

const { CURATED_DATA_FIELDS, storageValidationError, summarizeContent } = storageConventions;

/** Refuses query filters that break `QueryFilters` (or a `domain_tags` value that is no tag or tag list). */
function checkFilters(filters: QueryFilters): void {
  const { query, limit, mode, domain_tags: tags } = filters as Readonly<Record<string, unknown>>;
  if (typeof query !== 'string') throw storageValidationError('must be a string', 'filters.query');
  if (typeof limit !== 'number' || !Number.isFinite(limit) || limit <= 0) {
    throw storageValidationError('must be a positive finite number', 'filters.limit');
  }
  if (typeof mode !== 'string') throw storageValidationError('must be a string', 'filters.mode');
  if (
    tags !== undefined &&
    typeof tags !== 'string' &&
    !(Array.isArray(tags) && tags.every((tag) => typeof tag === 'string'))
  ) {
    throw storageValidationError('must be a tag or an array of tags', 'filters.domain_tags');
  }
}

/** The bundled helpers and bridge, as the suite's `conventions` option takes them. */
const bundledConventions: DataStoreConventions = {
  ...storageConventions,
  createQueryBridge: (store) => new DataStoreQueryBridge(store),
};

/**
 * A small, correct in-memory DataStore: word search, tag filter, curated fields on top, and entries whose
 * `expires_at` has passed left out of every read.
 */
class MemoryDataStore implements DataStore {
  static staticCapabilities(): DataStoreCapabilities {
    return {
      connector_type: 'data_store',
      implementation: 'MemoryDataStore',
      contract_version: '1.0.0',
      features: { supports_writes: true, supports_tag_filter: true },
    };
  }

  protected readonly entries: PortableData[] = [];
  #next = 0;

  async write(entry: DataWrite): Promise<DataWriteRecord> {
    if (typeof entry.content !== 'string') throw storageValidationError('must be a string', 'entry.content');
    for (const field of CURATED_DATA_FIELDS) {
      if (entry.metadata !== undefined && Object.hasOwn(entry.metadata, field)) {
        throw storageValidationError('is a curated field', `entry.metadata.${field}`);
      }
    }
    this.#next += 1;
    const record = { id: `mem-${this.#next}`, created_at: Math.floor(Date.now() / 1000) };
    this.entries.push({
      id: record.id,
      summary: summarizeContent(entry.content),
      detail: entry.content,
      created_at: record.created_at,
      ...(entry.tags === undefined ? {} : { domain_tags: entry.tags }),
      ...(entry.recipients === undefined ? {} : { recipients: entry.recipients }),
      ...(entry.expires_at == null ? {} : { expires_at: entry.expires_at }),
      ...(entry.metadata === undefined ? {} : { metadata: structuredClone(entry.metadata) }),
    });
    return record;
  }

  async get(id: string): Promise<PortableData | null> {
    if (typeof id !== 'string') throw storageValidationError('must be a string', 'id');
    return this.entries.find((entry) => entry.id === id && this.isLive(entry)) ?? null;
  }

  async query(filters: QueryFilters): Promise<PortableData[]> {
    checkFilters(filters);
    const words = filters.query.split(/\s+/).filter((word) => word !== '');
    const tags = filters['domain_tags'];
    const wanted =
      typeof tags === 'string' ? [tags] : Array.isArray(tags) && tags.length > 0 ? tags : undefined;
    return this.entries
      .filter((entry) => this.isLive(entry))
      .filter((entry) => words.every((word) => entry.detail?.split(/\s+/).includes(word)))
      .filter(
        (entry) => wanted === undefined || entry.domain_tags?.some((tag) => this.tagMatches(tag, wanted)),
      )
      .slice(0, this.cap(filters.limit));
  }

  /** Whether `entry` is still served: no `expires_at`, or one still ahead. */
  protected isLive(entry: PortableData): boolean {
    return entry.expires_at === undefined || entry.expires_at > Math.floor(Date.now() / 1000);
  }

  /** Whether an entry's `tag` satisfies a filter asking for any of `wanted`. */
  protected tagMatches(tag: string, wanted: readonly unknown[]): boolean {
    return wanted.includes(tag);
  }

  /** How many items a query with this `limit` returns at most. */
  protected cap(limit: number): number {
    return limit;
  }

  async manifest(): Promise<ManifestInfo<DataStoreManifest>> {
    return {
      capabilities_version: '1',
      manifest: { kind: 'memory', supported_modes: ['fts'], supported_filters: ['domain_tags'] },
    };
  }
}

/**
 * The reference's mistakes and worse: created_at in milliseconds, get() throwing on a miss, recipients
 * kept in metadata, the tag filter ignored, limit ignored.
 */
class BrokenDataStore extends MemoryDataStore {
  override async write(entry: DataWrite): Promise<DataWriteRecord> {
    const record = await super.write({
      ...entry,
      ...(entry.recipients === undefined
        ? {}
        : { metadata: { ...entry.metadata, recipients: entry.recipients } }),
    });
    return { ...record, created_at: record.created_at * 1000 };
  }

  override async get(id: string): Promise<PortableData | null> {
    const entry = await super.get(id);
    if (entry === null) throw new Error(`no entry ${id}`);
    return entry;
  }

  override async query(filters: QueryFilters): Promise<PortableData[]> {
    const { domain_tags: _ignored, ...rest } = filters;
    return super.query({ ...rest, limit: 1000 });
  }
}

/** Stores `expires_at` and hands it back, but serves expired entries as if they were live. */
class ServesExpiredStore extends MemoryDataStore {
  protected override isLive(): boolean {
    return true;
  }
}

/** Reads `expires_at: null` as "expired at the epoch" instead of "durable forever". */
class NullExpiresStore extends MemoryDataStore {
  override write(entry: DataWrite): Promise<DataWriteRecord> {
    return super.write(entry.expires_at === null ? { ...entry, expires_at: 0 } : entry);
  }
}

/** Accepts `metadata` on write and drops it. */
class DropsMetadataStore extends MemoryDataStore {
  override write(entry: DataWrite): Promise<DataWriteRecord> {
    const { metadata: _dropped, ...rest } = entry;
    return super.write(rest);
  }
}

/** Answers queries from a summary index: id, summary and score only, the rest left to get(). */
class SummaryIndexStore extends MemoryDataStore {
  override async query(filters: QueryFilters): Promise<PortableData[]> {
    return (await super.query(filters)).map(({ id, summary }) => ({ id, summary, score: 1 }));
  }
}

/** Returns one item fewer than the limit, an off-by-one in its paging. */
class LimitOffByOneStore extends MemoryDataStore {
  protected override cap(limit: number): number {
    return Math.max(1, limit - 1);
  }
}

/** Matches domain_tags by case-insensitive prefix, as a `LIKE 'x%'` over a tags column would. */
class PrefixTagStore extends MemoryDataStore {
  protected override tagMatches(tag: string, wanted: readonly unknown[]): boolean {
    return wanted.some(
      (asked) => typeof asked === 'string' && tag.toLowerCase().startsWith(asked.toLowerCase()),
    );
  }
}

/** Lists every entry carrying the tag when a domain_tags filter is given, whatever the text asked. */
class TagReplacesTextStore extends MemoryDataStore {
  override query(filters: QueryFilters): Promise<PortableData[]> {
    return super.query(filters['domain_tags'] === undefined ? filters : { ...filters, query: '' });
  }
}

/** Summarises by cutting at 200 units without the ellipsis, and keeps whatever follows a line break. */
class FlatSummaryStore extends MemoryDataStore {
  override async write(entry: DataWrite): Promise<DataWriteRecord> {
    const record = await super.write(entry);
    const written = this.entries.find((item) => item.id === record.id);
    if (written !== undefined && typeof entry.content === 'string')
      written.summary = entry.content.slice(0, 200);
    return record;
  }
}

/**
 * Helpers with realistic slips: a summary cut at 200 units that may split an emoji (and reads any
 * value's `split`), a filter check that takes `permissive_filters: "true"` for an opt-out, and a bridge
 * that hands the store its filters with sorted keys and forwards any `expires_at` it is given.
 */
const slippedConventions: DataStoreConventions = {
  summarizeContent: (content) => {
    const line = content.split('\n')[0] ?? '';
    return line.length > 200 ? `${line.slice(0, 197)}...` : line;
  },
  enforceSupportedFilters: (filters, supported) => {
    if (filters['permissive_filters'] === 'true') return;
    storageConventions.enforceSupportedFilters(filters, supported);
  },
  createQueryBridge: (store) => ({
    query: (args) =>
      new DataStoreQueryBridge({
        ...store,
        manifest: () => store.manifest(),
        query: (filters) => store.query(Object.fromEntries(Object.entries(filters).sort()) as QueryFilters),
      }).query(args),
    write: async (args) =>
      store.write({
        ...(await captureEntry(args)),
        ...('expires_at' in args ? { expires_at: args['expires_at'] as null } : {}),
      }),
  }),
};

/** The entry the bundled bridge would write for `args`. */
async function captureEntry(args: Readonly<Record<string, unknown>>): Promise<DataWrite> {
  let entry: DataWrite | undefined;
  const recorder = new MemoryDataStore();
  recorder.write = async (written) => {
    entry = written;
    return { id: 'captured', created_at: 0 };
  };
  await new DataStoreQueryBridge(recorder).write(args);
  if (entry === undefined) throw new Error('the bridge wrote nothing');
  return entry;
}

const statuses = (report: { results: readonly { id: string; status: string }[] }) =>
  Object.fromEntries(report.results.map((r) => [r.id.replace('data-store.contract.', ''), r.status]));

describe('dataStoreSuite', () => {
  it('passes a correct in-memory store and the bundled conventions with nothing skipped', async () => {
    const report = await runSuite(
      dataStoreSuite({ create: () => new MemoryDataStore(), conventions: bundledConventions }),
    );
    expect(report.errors).toEqual([]);
    expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
    expect(report.results).toHaveLength(23 + 8 + 68 + 11);
  });

  it('skips the helper cases without conventions and still holds the store to the summary rule', async () => {
    const s = statuses(await runSuite(dataStoreSuite({ create: () => new MemoryDataStore() })));
    expect(s['conventions.summary-201-cut']).toBe('skipped');
    expect(s['conventions.bridge-query-minimal']).toBe('skipped');
    expect(s['conventions.summary-201-cut.store']).toBe('passed');
    expect(s['conventions.summary-rejects-non-string.store']).toBe('passed');
  });

  it('fails a store whose summary is not the first line cut with an ellipsis', async () => {
    const report = await runSuite(dataStoreSuite({ create: () => new FlatSummaryStore() }));
    const failed = report.results
      .filter((r) => r.status === 'failed')
      .map((r) => r.id.replace('data-store.contract.', ''));
    expect(failed.sort()).toEqual(
      [
        'get.summary-detail',
        'round-trip.every-field',
        'conventions.summary-first-line.store',
        'conventions.summary-leading-newline.store',
        'conventions.summary-201-cut.store',
        'conventions.summary-long-line-then-more.store',
        'conventions.summary-crlf-keeps-cr.store',
        'conventions.summary-emoji-at-cut-kept-whole.store',
        'conventions.summary-emoji-after-cut.store',
      ].sort(),
    );
  });

  it('fails the convention cases slipped helpers get wrong, and only those', async () => {
    const report = await runSuite(
      dataStoreSuite({ create: () => new MemoryDataStore(), conventions: slippedConventions }),
    );
    const failed = report.results
      .filter((r) => r.status === 'failed')
      .map((r) => r.id.replace('data-store.contract.', ''));
    for (const id of [
      'enforce-filters-permissive-string-true-does-not',
      'bridge-query-minimal',
      'bridge-query-extras-forwarded-in-order',
      'bridge-write-expires-null-dropped',
      'bridge-write-expires-string-dropped',
      'summary-emoji-at-cut-kept-whole',
      'summary-rejects-non-string',
    ]) {
      expect(failed).toContain(`conventions.${id}`);
    }
    expect(failed).not.toContain('conventions.summary-201-cut');
    expect(failed).not.toContain('conventions.bridge-query-undeclared-extra-refused');
    expect(failed).not.toContain('conventions.bridge-write-all-fields');
    expect(failed).not.toContain('conventions.enforce-filters-declared-key');
    expect(failed.every((id) => id.startsWith('conventions.') && !id.endsWith('.store'))).toBe(true);
  });

  it('fails a store with the wrong units, a throwing get, curated fields in metadata and ignored filters', async () => {
    const report = await runSuite(dataStoreSuite({ create: () => new BrokenDataStore() }));
    expect(report.ok).toBe(false);
    const failed = report.results
      .filter((r) => r.status === 'failed')
      .map((r) => r.id.replace('data-store.contract.', ''));
    expect(failed.sort()).toEqual(
      [
        'write.record',
        'get.unknown-null',
        // get() throws for the expired entry instead of resolving to null.
        'expires-at.get-hides-expired',
        'curated.not-in-metadata',
        'curated.top-level',
        'round-trip.every-field',
        'query.limit',
        'query.limit-exact',
        // Its query() passes its own limit, so a malformed one is never refused.
        'refuses-malformed-arguments',
        'filters.domain-tags',
        'filters.domain-tags-exact',
        'filters.domain-tags-with-text',
      ].sort(),
    );
  });

  it.each([
    [
      'serves expired entries',
      ServesExpiredStore,
      ['expires-at.get-hides-expired', 'expires-at.query-hides-expired'],
    ],
    ['reads expires_at: null as expired', NullExpiresStore, ['expires-at.null-durable']],
    [
      'drops metadata',
      DropsMetadataStore,
      // Metadata repeating a curated field is dropped, not refused.
      ['round-trip.every-field', 'round-trip.metadata', 'write.malformed-refused'],
    ],
    [
      'answers queries with summaries only',
      SummaryIndexStore,
      ['round-trip.every-field', 'round-trip.metadata'],
    ],
    ['returns one item fewer than the limit', LimitOffByOneStore, ['query.limit-exact']],
    ['matches tags by case-insensitive prefix', PrefixTagStore, ['filters.domain-tags-exact']],
    ['lets a tag filter replace the text search', TagReplacesTextStore, ['filters.domain-tags-with-text']],
  ] as const)('fails a store that %s, on exactly those cases', async (_, Store, expected) => {
    const report = await runSuite(dataStoreSuite({ create: () => new Store() }));
    const failed = report.results
      .filter((r) => r.status === 'failed')
      .map((r) => r.id.replace('data-store.contract.', ''));
    expect(failed.sort()).toEqual([...expected].sort());
  });

  it('says what to provide for every capability a case requires, none of them an observation', () => {
    const suite = dataStoreSuite({ create: () => new MemoryDataStore() });
    const required = new Set(suite.cases.flatMap((c) => (c.requires === undefined ? [] : [c.requires])));
    expect(Object.keys(suite.needs ?? {}).sort()).toEqual([...required].sort());
    expect(Object.values(suite.needs ?? {}).every((need) => need.observation !== true)).toBe(true);
  });

  it('skips write-dependent cases for a read-only store and checks the rest', async () => {
    class ReadOnlyStore extends MemoryDataStore {
      static override staticCapabilities(): DataStoreCapabilities {
        return { ...MemoryDataStore.staticCapabilities(), features: { supports_writes: false } };
      }
    }
    const s = statuses(await runSuite(dataStoreSuite({ create: () => ({ store: new ReadOnlyStore() }) })));
    expect(s['write.record']).toBe('skipped');
    expect(s['filters.domain-tags']).toBe('skipped');
    expect(s['query.fts-finds-written']).toBe('skipped');
    expect(s['get.unknown-null']).toBe('passed');
    expect(s['query.no-match-empty']).toBe('passed');
    expect(s['static-capabilities.valid']).toBe('passed');
  });

  it('fails invalid static capabilities, a missing get, a broken manifest and non-array queries', async () => {
    const store = new MemoryDataStore();
    Object.assign(store, {
      get: undefined,
      manifest: async () => ({ manifest: { kind: '' } }),
      query: async () => ({ items: [] }),
    });
    Object.defineProperty(store, 'constructor', {
      value: { staticCapabilities: () => ({ connector_type: 'skill_store', features: {} }) },
    });
    const s = statuses(await runSuite(dataStoreSuite({ create: () => store })));
    expect(s['static-capabilities.valid']).toBe('failed');
    expect(s['methods.present']).toBe('failed');
    expect(s['manifest.valid']).toBe('failed');
    expect(s['query.no-match-empty']).toBe('failed');
    expect(s['query.declared-modes']).toBe('failed');
  });

  it('disposes what the factory set up', async () => {
    let disposed = 0;
    await runSuite(
      dataStoreSuite({ create: () => ({ store: new MemoryDataStore(), dispose: () => void disposed++ }) }),
    );
    expect(disposed).toBe(1);
  });
});

describe('dataStoreSuite through registerSuite (in-memory store)', () => {
  registerSuite(dataStoreSuite({ create: () => new MemoryDataStore(), conventions: bundledConventions }), {
    describe,
    it,
    afterAll,
  });
});
