import {
  agentConnectorSchemas,
  type SkillFilter,
  type SkillMeta,
  type SkillMetaInput,
  type SkillStatus,
  type SkillStoreCapabilities,
  storageConventions,
} from '@agentwire/agent-connector';
import { FilesystemSkillStore } from '@agentwire/agent-connector/filesystem-skill-store';
import { afterAll, describe, expect, it } from 'vitest';
import { runSuite, type SuiteReport } from '../../run-suite.js';
import { registerSuite } from '../../vitest/index.js';
import { filesystemSkillStoreUnderTest, temporaryFolderStores } from './filesystem-store-under-test.js';
import type { SkillStoreConventions } from './skill-store-conventions.js';
import type { SkillStoreUnderTest } from './skill-store-suite.js';
import { skillStoreSuite } from './skill-store-suite.js';

/** Stores of class `Store`, each in a fresh temporary folder. */
const inTempFolder = (Store: new (options: { dir: string }) => FilesystemSkillStore) =>
  temporaryFolderStores((dir) => new Store({ dir }));

const statuses = (report: SuiteReport) =>
  Object.fromEntries(report.results.map((r) => [r.id.replace('skill-store.contract.', ''), r.status]));
const failedIds = (report: SuiteReport) =>
  report.results
    .filter((r) => r.status === 'failed')
    .map((r) => r.id.replace('skill-store.contract.', ''))
    .sort();

/** Reports a content hash that is not the SHA-256 of the stored bytes. */
class WrongHashStore extends FilesystemSkillStore {
  override async store(name: string, source: string, metadata?: SkillMetaInput) {
    return { ...(await super.store(name, source, metadata)), content_hash: 'ab'.repeat(32) };
  }
}

/** Throws a plain Error for a missing skill, as a store that does not use the contract's errors would. */
class PlainErrorStore extends FilesystemSkillStore {
  override async load(name: string, version?: string) {
    try {
      return await super.load(name, version);
    } catch (error) {
      throw new Error(`no skill ${name}`, { cause: error });
    }
  }
  override async update_status(name: string, status: SkillStatus) {
    return super.update_status(name, status).catch(() => {
      throw Object.assign(new Error('missing'), { name: 'SkillNotFoundError' });
    });
  }
}

/** Reports fractional seconds and forgets previous_status. */
class FractionalSecondsStore extends FilesystemSkillStore {
  override async store(name: string, source: string, metadata?: SkillMetaInput) {
    const info = await super.store(name, source, metadata);
    return { ...info, changed_at: info.changed_at + 0.5 };
  }
  override async update_status(name: string, status: SkillStatus) {
    const { previous_status: _dropped, ...info } = await super.update_status(name, status);
    return info;
  }
}

/** A change token that never moves, and a status filter that is ignored. */
class StaleTokenStore extends FilesystemSkillStore {
  override async version() {
    return 'frozen';
  }
  override async query() {
    return super.query();
  }
}

/** Drops the CR bytes on the way in and adds a final newline, as a careless text substrate would. */
class NormalisingStore extends FilesystemSkillStore {
  override async store(name: string, source: string, metadata?: SkillMetaInput) {
    const text = source.replaceAll('\r\n', '\n');
    return super.store(name, text.endsWith('\n') ? text : `${text}\n`, metadata);
  }
}

/**
 * A FilesystemSkillStore that also keeps the tags written with `store()` (in memory, beside the files) and
 * filters `query()` by them — every listed tag required — so the tag cases have a correct store to pass.
 */
class TaggingStore extends FilesystemSkillStore {
  static override staticCapabilities(): SkillStoreCapabilities {
    const declared = FilesystemSkillStore.staticCapabilities();
    return { ...declared, features: { ...declared.features, supports_tag_filter: true } };
  }

  readonly #tags = new Map<string, readonly string[]>();

  override async store(name: string, source: string, metadata?: SkillMetaInput) {
    const info = await super.store(name, source, metadata);
    if (metadata?.tags !== undefined) this.#tags.set(name, [...metadata.tags]);
    return info;
  }

  override async delete(name: string) {
    await super.delete(name);
    this.#tags.delete(name);
  }

  override async metadata(name: string) {
    return this.withTags(await super.metadata(name));
  }

  override async load(name: string, version?: string) {
    const loaded = await super.load(name, version);
    return { ...loaded, metadata: this.withTags(loaded.metadata) };
  }

  override async query(filter: SkillFilter = {}) {
    // The base store checks the filter's keys; its own limit and offset come after the tag filter here.
    storageConventions.parseStorageValue(agentConnectorSchemas.skillFilter, filter, 'filter');
    const { tag, limit, offset = 0, ...rest } = filter;
    const wanted = tag === undefined ? [] : [tag].flat();
    const matching = (await super.query(rest))
      .map((meta) => this.withTags(meta))
      .filter((meta) => this.carries(meta, wanted));
    return matching.slice(offset, limit === undefined ? undefined : offset + limit);
  }

  /** Whether `meta` passes a tag filter asking for `wanted` (every one of them). */
  protected carries(meta: SkillMeta, wanted: readonly string[]): boolean {
    return wanted.every((tag) => meta.tags?.includes(tag) === true);
  }

  private withTags(meta: SkillMeta): SkillMeta {
    const tags = this.#tags.get(meta.name);
    return tags === undefined ? meta : { ...meta, tags: [...tags] };
  }
}

/** Declares the tag filter and keeps the tags, but lists every skill whatever the tags asked. */
class IgnoredTagFilterStore extends TaggingStore {
  protected override carries(): boolean {
    return true;
  }
}

/** Reads a list of tags as "any of them" instead of "all of them". */
class AnyTagStore extends TaggingStore {
  protected override carries(meta: SkillMeta, wanted: readonly string[]): boolean {
    return wanted.length === 0 || wanted.some((tag) => meta.tags?.includes(tag) === true);
  }
}

/** A read-through cache over load, metadata and query that only a delete clears: reads go stale. */
class CachingStore extends FilesystemSkillStore {
  readonly #cache = new Map<string, Promise<unknown>>();

  #cached<T>(key: string, read: () => Promise<T>): Promise<T> {
    const hit = this.#cache.get(key) ?? read();
    this.#cache.set(key, hit);
    return hit as Promise<T>;
  }

  override load(name: string, version?: string) {
    return this.#cached(`load ${name} ${version ?? ''}`, () => super.load(name, version));
  }

  override metadata(name: string) {
    return this.#cached(`metadata ${name}`, () => super.metadata(name));
  }

  override query(filter?: SkillFilter) {
    return this.#cached(`query ${JSON.stringify(filter ?? {})}`, () => super.query(filter));
  }

  override async delete(name: string) {
    await super.delete(name);
    this.#cache.clear();
  }
}

/** Serves the current body whatever version is asked for. */
class IgnoredVersionStore extends FilesystemSkillStore {
  override load(name: string) {
    return super.load(name);
  }
}

/** Lists versions newest first. */
class NewestFirstVersionsStore extends FilesystemSkillStore {
  override async versions(name: string) {
    return (await super.versions(name)).reverse();
  }
}

/** Skips one skill too many on every page after the first (offset counted from 1). */
class OffsetByOneStore extends FilesystemSkillStore {
  override query(filter: SkillFilter = {}) {
    return super.query(filter.offset ? { ...filter, offset: filter.offset + 1 } : filter);
  }
}

/** Pages the substrate's listing first and filters the page afterwards, as a naive remote adapter does. */
class LimitBeforeFilterStore extends FilesystemSkillStore {
  override async query(filter: SkillFilter = {}) {
    const { limit, offset, ...rest } = filter;
    const page = await super.query({
      ...(limit === undefined ? {} : { limit }),
      ...(offset === undefined ? {} : { offset }),
    });
    const matching = new Set((await super.query(rest)).map((meta) => meta.name));
    return page.filter((meta) => matching.has(meta.name));
  }
}

/** Drops the `since` filter. */
class IgnoredSinceStore extends FilesystemSkillStore {
  override query(filter: SkillFilter = {}) {
    const { since: _ignored, ...rest } = filter;
    return super.query(rest);
  }
}

/** Matches authors case-insensitively and by prefix, as a SQL `LIKE 'x%'` would. */
class LooseAuthorStore extends FilesystemSkillStore {
  override async query(filter: SkillFilter = {}) {
    const { author, ...rest } = filter;
    const found = await super.query(rest);
    if (author === undefined) return found;
    return found.filter((meta) => meta.author?.toLowerCase().startsWith(author.toLowerCase()) === true);
  }
}

/** Records the author of each write, so an overwrite naming none forgets it (the reference SQLite slip). */
class ForgetfulAuthorStore extends FilesystemSkillStore {
  readonly #authors = new Map<string, string | undefined>();

  override async store(name: string, source: string, metadata?: SkillMetaInput) {
    this.#authors.set(name, metadata?.author);
    return super.store(name, source, metadata);
  }

  override async metadata(name: string) {
    return this.#withLastAuthor(await super.metadata(name));
  }

  override async query(filter?: SkillFilter) {
    return (await super.query(filter)).map((meta) => this.#withLastAuthor(meta));
  }

  #withLastAuthor(meta: SkillMeta): SkillMeta {
    const { author: _kept, ...rest } = meta;
    const author = this.#authors.get(meta.name);
    return author === undefined ? rest : { ...rest, author };
  }
}

/**
 * Takes an overwrite's status from its body when the write names none, as the reference SQLite store
 * does: an Approved skill overwritten with a `# Status: draft` body falls back to Draft.
 */
class StatusResettingStore extends FilesystemSkillStore {
  override async store(name: string, source: string, metadata?: SkillMetaInput) {
    if (metadata?.status !== undefined) return super.store(name, source, metadata);
    return super.store(name, source, { ...metadata, status: storageConventions.statusOfSkill(source) });
  }
}

/** Keeps a per-name cache in a plain object, so a name such as `constructor` finds Object.prototype's. */
class PlainObjectCacheStore extends FilesystemSkillStore {
  readonly #cache: Record<string, SkillMeta> = {};

  override async store(name: string, source: string, metadata?: SkillMetaInput) {
    delete this.#cache[name];
    return super.store(name, source, metadata);
  }

  override async update_status(name: string, status: SkillStatus) {
    delete this.#cache[name];
    return super.update_status(name, status);
  }

  override async delete(name: string) {
    delete this.#cache[name];
    return super.delete(name);
  }

  override async metadata(name: string) {
    const cached = this.#cache[name];
    if (cached !== undefined) return cached;
    const meta = await super.metadata(name);
    this.#cache[name] = meta;
    return meta;
  }
}

/** Hands the author back as UTF-8 bytes read as Latin-1 (`Zoë` → `ZoÃ«`), as a mis-declared column does. */
class MojibakeAuthorStore extends FilesystemSkillStore {
  override async metadata(name: string) {
    const meta = await super.metadata(name);
    return meta.author === undefined
      ? meta
      : { ...meta, author: Buffer.from(meta.author, 'utf8').toString('latin1') };
  }
}

/**
 * Rewrites the `# Status:` header with a line-based pattern: the blank lines and CR after it stay, and a
 * body without one gets the header prepended instead of under its `# Skill:` line.
 */
function naiveStatusRewrite(body: string, status: SkillStatus): string {
  const header = /^#\s*Status\s*:.*$/m;
  return header.test(body) ? body.replace(header, `# Status: ${status}`) : `# Status: ${status}\n${body}`;
}

/** Changes a status by storing the body with its header rewritten by {@link naiveStatusRewrite}. */
class NaiveRewriteStore extends FilesystemSkillStore {
  override async update_status(name: string, status: SkillStatus) {
    const { source } = await this.load(name);
    return this.store(name, naiveStatusRewrite(source, status), { status });
  }
}

/**
 * The kit with four realistic slips: a hash of CRLF-normalised text, a version cut from an uppercase
 * hash, a change token over the revisions in the order given, a case-sensitive, unpadded header reader,
 * and {@link naiveStatusRewrite}.
 */
const slippedConventions: SkillStoreConventions = {
  ...storageConventions,
  contentHash: (body) => storageConventions.contentHash(body.replaceAll('\r\n', '\n')),
  versionFromHash: (hash) => storageConventions.versionFromHash(hash.toLowerCase()),
  catalogChangeToken: (skills) =>
    storageConventions.changeTokenFromLines(skills.map((s) => `${s.name}:${s.status}:${s.version}`)),
  statusOfSkill: (body) =>
    (/^# Status: (Draft|Approved|Disabled)\b/m.exec(body)?.[1] as SkillStatus | undefined) ?? 'Draft',
  withStatusHeader: naiveStatusRewrite,
};

describe('skillStoreSuite', () => {
  it('passes FilesystemSkillStore with every case run but the tag cases, the storage-convention kit included', async () => {
    const report = await runSuite(
      skillStoreSuite({ create: filesystemSkillStoreUnderTest, conventions: storageConventions }),
    );
    expect(report.errors).toEqual([]);
    // The class declares no tag filter (supports_tag_filter: false): its tag cases are skipped.
    expect(report.results.filter((r) => r.status !== 'passed').map((r) => [r.id, r.status])).toEqual([
      ['skill-store.contract.query.tag-filter', 'skipped'],
      ['skill-store.contract.query.tag-filter-all-of', 'skipped'],
      ['skill-store.contract.metadata.tags-kept', 'skipped'],
    ]);
    expect(report.results.length).toBeGreaterThanOrEqual(24);
    expect(report.ok).toBe(true);
  });

  it('passes a FilesystemSkillStore that adds the tag filter, with nothing skipped', async () => {
    const report = await runSuite(
      skillStoreSuite({ create: inTempFolder(TaggingStore), conventions: storageConventions }),
    );
    expect(report.errors).toEqual([]);
    expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
  });

  it.each([
    ['ignores the tag filter', IgnoredTagFilterStore, ['query.tag-filter', 'query.tag-filter-all-of']],
    ['reads a tag list as any of them', AnyTagStore, ['query.tag-filter-all-of']],
    [
      'serves cached reads after a write',
      CachingStore,
      // delete.removes too: the load() refused right after the delete stays cached once the name is reused.
      [
        'delete.removes',
        'store.no-stale-reads',
        'store.overwrite-keeps-status',
        'update-status.no-stale-reads',
      ],
    ],
    ["takes an overwrite's status from its body", StatusResettingStore, ['store.overwrite-keeps-status']],
    ['caches metadata in a plain object', PlainObjectCacheStore, ['store.names-like-builtins']],
    [
      'serves the current body for any version',
      IgnoredVersionStore,
      // Its load() never reads the version, so a version of the wrong type is not refused either.
      ['load.old-version', 'load.version', 'refuses-malformed-arguments'],
    ],
    ['lists versions newest first', NewestFirstVersionsStore, ['versions.in-order']],
    ['counts offsets from 1', OffsetByOneStore, ['query.limit-offset', 'query.name-pattern']],
    ['applies limit before the filters', LimitBeforeFilterStore, ['query.name-pattern']],
    ['ignores since', IgnoredSinceStore, ['query.since']],
    ['matches authors loosely', LooseAuthorStore, ['query.author']],
    [
      'garbles a non-ASCII author',
      MojibakeAuthorStore,
      // metadata() garbles the author that query() still reports correctly: the two disagree.
      ['metadata.round-trip', 'store.overwrite-keeps-author'],
    ],
    ['forgets the author on an overwrite', ForgetfulAuthorStore, ['store.overwrite-keeps-author']],
  ] as const)('fails a store that %s, on exactly those cases', async (_, Store, expected) => {
    const report = await runSuite(skillStoreSuite({ create: inTempFolder(Store) }));
    expect(failedIds(report)).toEqual([...expected].sort());
  });

  it('says what to provide for every capability a case requires, none of them an observation', () => {
    const suite = skillStoreSuite({ create: filesystemSkillStoreUnderTest });
    const required = new Set(suite.cases.flatMap((c) => (c.requires === undefined ? [] : [c.requires])));
    expect(Object.keys(suite.needs ?? {}).sort()).toEqual([...required].sort());
    expect(Object.values(suite.needs ?? {}).every((need) => need.observation !== true)).toBe(true);
    expect(suite.needs?.['supports_tag_filter']?.provide).toMatch(/staticCapabilities\(\)/);
  });

  it('fails a store whose update_status() rewrites the header line by line', async () => {
    const report = await runSuite(skillStoreSuite({ create: inTempFolder(NaiveRewriteStore) }));
    expect(failedIds(report)).toEqual([
      'conventions.set-status-dollar-literal.store',
      'conventions.set-status-insert-drops-blank-lines-under-skill.store',
      'conventions.set-status-inserts-under-skill-line.store',
      // Its update_status() leaves the status to store(), whose refusal names metadata.status.
      'refuses-malformed-arguments',
    ]);
  });

  it('fails the convention cases a slipped helper kit gets wrong, and only those', async () => {
    const report = await runSuite(
      skillStoreSuite({ create: filesystemSkillStoreUnderTest, conventions: slippedConventions }),
    );
    const failed = failedIds(report);
    for (const id of [
      'content-hash-skill-crlf',
      'version-from-hash-uppercase',
      'change-token-two-skills-reversed',
      'change-token-rejects-duplicate-name',
      'status-header-upper-and-tight.status',
      'status-header-padded.status',
      'set-status-inserts-under-skill-line',
      'set-status-rejects-lowercase',
    ]) {
      expect(failed).toContain(`conventions.${id}`);
    }
    expect(failed).not.toContain('conventions.content-hash-skill-draft');
    expect(failed).not.toContain('conventions.content-hash-skill-crlf.identity');
    expect(failed).not.toContain('conventions.change-token-two-skills-sorted');
    expect(failed.every((id) => id.startsWith('conventions.') && !id.endsWith('.store'))).toBe(true);
  });

  it('fails a store whose content_hash is not that of the bytes load() returns', async () => {
    const report = await runSuite(skillStoreSuite({ create: inTempFolder(WrongHashStore) }));
    expect(failedIds(report)).toEqual([
      'metadata.consistent',
      'store.content-hash-convention',
      'store.no-stale-reads',
      'store.version-info',
    ]);
  });

  it('fails a store that throws a plain Error, or a look-alike without code, for a missing skill', async () => {
    const report = await runSuite(skillStoreSuite({ create: inTempFolder(PlainErrorStore) }));
    expect(failedIds(report)).toEqual([
      'conventions.set-status-rejects-lowercase.store',
      'delete.removes',
      'load.old-version',
      'load.version',
      'missing-skill.load',
      'missing-skill.update-status',
      // Its load() turns every refusal into a plain Error, that of a version of the wrong type too.
      'refuses-malformed-arguments',
    ]);
    const failure = report.results.find((r) => r.id.endsWith('missing-skill.update-status'));
    expect(failure?.error?.message).toMatch(/code of SkillNotFoundError/);
  });

  it('fails fractional timestamps and a missing previous_status', async () => {
    const report = await runSuite(skillStoreSuite({ create: inTempFolder(FractionalSecondsStore) }));
    expect(failedIds(report)).toEqual(['timestamps.unix-seconds', 'update-status.previous-status']);
  });

  it('fails millisecond timestamps wherever a record carries one', async () => {
    class MillisecondStore extends FilesystemSkillStore {
      override async metadata(name: string) {
        const meta = await super.metadata(name);
        return { ...meta, updated_at: meta.updated_at * 1000 };
      }
    }
    const report = await runSuite(skillStoreSuite({ create: inTempFolder(MillisecondStore) }));
    expect(failedIds(report)).toEqual([
      'metadata.consistent',
      'metadata.round-trip',
      'query.since',
      'timestamps.unix-seconds',
    ]);
    const failure = report.results.find((r) => r.id.endsWith('timestamps.unix-seconds'));
    expect(failure?.error?.message).toMatch(/updated_at/);
  });

  it('fails a change token that never moves and filters that are ignored', async () => {
    const report = await runSuite(skillStoreSuite({ create: inTempFolder(StaleTokenStore) }));
    expect(failedIds(report)).toEqual([
      'change-token.moves-on-add',
      'change-token.moves-on-body-edit',
      'change-token.moves-on-remove',
      'change-token.moves-on-status-change',
      'query.limit-offset',
      'query.name-pattern',
      'query.since',
      'query.status-filter',
      // Its query() ignores the filter, a malformed one included.
      'refuses-malformed-arguments',
      'update-status.no-stale-reads',
    ]);
  });

  it('fails a store that does not keep the bytes it was given', async () => {
    const report = await runSuite(skillStoreSuite({ create: inTempFolder(NormalisingStore) }));
    expect(failedIds(report)).toEqual([
      'conventions.set-status-crlf-header-line.store',
      'conventions.set-status-dollar-literal.store',
      'conventions.set-status-empty-body.store',
      'conventions.set-status-inserts-at-top.store',
      'conventions.set-status-inserts-under-skill-line.store',
      'load.round-trip',
      // Its store() normalises the source before the base store can refuse one of the wrong type.
      'refuses-malformed-arguments',
    ]);
  });

  it('skips gated cases for a store whose class declares no features and has no version()', async () => {
    class Bare extends FilesystemSkillStore {
      static override staticCapabilities() {
        return { ...FilesystemSkillStore.staticCapabilities(), features: {} };
      }
    }
    const factory = async (): Promise<SkillStoreUnderTest> => {
      const underTest = await inTempFolder(Bare)();
      Object.defineProperty(underTest.store, 'version', { value: undefined });
      return underTest;
    };
    const s = statuses(await runSuite(skillStoreSuite({ create: factory })));
    for (const gated of [
      'update-status.persists',
      'update-status.previous-status',
      'query.status-filter',
      'versions.lists',
      'change-token.stable',
      'change-token.moves-on-add',
    ]) {
      expect(s[gated]).toBe('skipped');
    }
    expect(s['delete.removes']).toBe('passed');
    expect(s['methods.present']).toBe('passed');
  });

  it('fails the static-capabilities case for a plain object store, and reports no setup error', async () => {
    const factory = async (): Promise<SkillStoreUnderTest> => {
      const underTest = await filesystemSkillStoreUnderTest();
      const { store } = underTest;
      const plain = {
        load: store.load.bind(store),
        query: store.query.bind(store),
        metadata: store.metadata.bind(store),
        versions: store.versions.bind(store),
        store: store.store.bind(store),
        delete: store.delete.bind(store),
        update_status: store.update_status.bind(store),
        manifest: store.manifest.bind(store),
      };
      return { ...underTest, store: plain };
    };
    const report = await runSuite(skillStoreSuite({ create: factory }));
    expect(report.errors).toEqual([]);
    expect(failedIds(report)).toEqual(['static-capabilities.valid']);
  });
});

describe('skillStoreSuite through registerSuite (FilesystemSkillStore)', () => {
  registerSuite(skillStoreSuite({ create: filesystemSkillStoreUnderTest, conventions: storageConventions }), {
    describe,
    it,
    afterAll,
  });
});
