import { type SkillMetaInput, type SkillStatus, storageConventions } from '@agentwire/agent-connector';
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
  it('passes FilesystemSkillStore with every case run, the storage-convention kit included', async () => {
    const report = await runSuite(
      skillStoreSuite({ create: filesystemSkillStoreUnderTest, conventions: storageConventions }),
    );
    expect(report.errors).toEqual([]);
    expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
    expect(report.results.length).toBeGreaterThanOrEqual(24);
    expect(report.ok).toBe(true);
  });

  it('fails a store whose update_status() rewrites the header line by line', async () => {
    const report = await runSuite(skillStoreSuite({ create: inTempFolder(NaiveRewriteStore) }));
    expect(failedIds(report)).toEqual([
      'conventions.set-status-dollar-literal.store',
      'conventions.set-status-insert-drops-blank-lines-under-skill.store',
      'conventions.set-status-inserts-under-skill-line.store',
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
      'store.version-info',
    ]);
  });

  it('fails a store that throws a plain Error, or a look-alike without code, for a missing skill', async () => {
    const report = await runSuite(skillStoreSuite({ create: inTempFolder(PlainErrorStore) }));
    expect(failedIds(report)).toEqual([
      'conventions.set-status-rejects-lowercase.store',
      'delete.removes',
      'load.version',
      'missing-skill.load',
      'missing-skill.update-status',
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
    expect(failedIds(report)).toEqual(['metadata.consistent', 'timestamps.unix-seconds']);
    const failure = report.results.find((r) => r.id.endsWith('timestamps.unix-seconds'));
    expect(failure?.error?.message).toMatch(/updated_at/);
  });

  it('fails a change token that never moves and a status filter that is ignored', async () => {
    const report = await runSuite(skillStoreSuite({ create: inTempFolder(StaleTokenStore) }));
    expect(failedIds(report)).toEqual([
      'change-token.moves-on-add',
      'change-token.moves-on-body-edit',
      'change-token.moves-on-remove',
      'change-token.moves-on-status-change',
      'query.status-filter',
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
