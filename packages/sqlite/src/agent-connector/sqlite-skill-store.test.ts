import { agentConnectorSchemas, SkillNotFoundError, storageConventions } from '@agentwire/agent-connector';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDirectory, type TempDirectory } from '../../test/temp-directory.js';
import { SqliteDataStore } from './sqlite-data-store.js';
import { SqliteSkillStore, type SqliteSkillStoreOptions } from './sqlite-skill-store.js';

const { catalogChangeToken, contentIdentity, EMPTY_CATALOG_CHANGE_TOKEN } = storageConventions;
const { skillMeta: skillMetaSchema, versionInfo: versionInfoSchema } = agentConnectorSchemas;

const T0 = Date.UTC(2026, 0, 1);
const DRAFT = '# Skill: hello\n# Status: Draft\n# Description: Says hi\nt:\n    emit(text="hi")\n';
const APPROVED_WITH_TOKEN = '# Skill: hello\n# Status: approved v1:0123abcd\nt:\n    emit(text="hi")\n';
const SIGNED = '# Skill: hello\n# Status: Approved v3:c2lnbmF0dXJl\nt:\n    emit(text="hi")\n';

let dir: TempDirectory;
let clock: number;
const stores: SqliteSkillStore[] = [];
const open = (options: Partial<SqliteSkillStoreOptions> = {}) => {
  const store = new SqliteSkillStore({
    path: dir.file('skills.db'),
    now: () => clock,
    ...options,
  } as SqliteSkillStoreOptions);
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

describe('SqliteSkillStore: store, load, metadata', () => {
  it('round-trips the exact bytes with a SHA-256 content hash and a 12-hex version', async () => {
    const store = open();
    const info = await store.store('hello', DRAFT);
    expect(info).toEqual({
      name: 'hello',
      ...contentIdentity(DRAFT),
      status: 'Draft',
      changed_at: T0 / 1000,
    });
    const loaded = await store.load('hello');
    expect(loaded).toMatchObject({ name: 'hello', source: DRAFT, ...contentIdentity(DRAFT) });
    expect(skillMetaSchema.parse(loaded.metadata)).toEqual({
      name: 'hello',
      ...contentIdentity(DRAFT),
      status: 'Draft',
      description: 'Says hi',
      created_at: T0 / 1000,
      updated_at: T0 / 1000,
      status_changed_at: T0 / 1000,
    });
    expect(await store.metadata('hello')).toEqual(loaded.metadata);
  });

  it('stores Approved bodies verbatim, approval token and lowercase status included', async () => {
    const store = open();
    const info = await store.store('hello', APPROVED_WITH_TOKEN);
    expect(info.status).toBe('Approved');
    expect(info.content_hash).toBe(contentIdentity(APPROVED_WITH_TOKEN).content_hash);
    expect((await store.load('hello')).source).toBe(APPROVED_WITH_TOKEN);
  });

  it('reads status from the header case-insensitively, Draft without one, and keeps such bodies as they are', async () => {
    const store = open();
    const lower = '# Skill: lower\n# Status: draft\n';
    expect((await store.store('lower', lower)).status).toBe('Draft');
    expect((await store.load('lower')).source).toBe(lower);
    const bare = '# Skill: bare\nbody\n';
    expect((await store.store('bare', bare)).status).toBe('Draft');
    expect((await store.load('bare')).source).toBe(bare);
  });

  it('lets metadata.status decide a new skill and rewrites the header to agree', async () => {
    const store = open();
    const info = await store.store('hello', DRAFT, { status: 'Disabled' });
    const loaded = await store.load('hello');
    expect(info.status).toBe('Disabled');
    expect(loaded.metadata.status).toBe('Disabled');
    expect(loaded.source).toBe(DRAFT.replace('# Status: Draft', '# Status: Disabled'));
    expect(info.content_hash).toBe(loaded.content_hash);
  });

  it('keeps every historical body, and tells a missing skill from a missing version', async () => {
    const store = open();
    const v1 = await store.store('hello', DRAFT);
    clock += 1000;
    const edited = DRAFT.replace('Says hi', 'Says hello');
    const v2 = await store.store('hello', edited);
    expect(v1.version).not.toBe(v2.version);
    expect((await store.load('hello', v1.version)).source).toBe(DRAFT);
    expect((await store.load('hello', v2.version)).source).toBe(edited);
    expect((await store.load('hello')).source).toBe(edited);
    expect((await store.metadata('hello')).description).toBe('Says hello');
    const missingVersion = store.load('hello', 'ffffffffffff');
    await expect(missingVersion).rejects.toBeInstanceOf(SkillNotFoundError);
    await expect(missingVersion).rejects.toMatchObject({ code: 'version_not_found' });
    await expect(store.load('nope', v1.version)).rejects.toBeInstanceOf(SkillNotFoundError);
    for (const call of [
      () => store.load('nope'),
      () => store.metadata('nope'),
      () => store.versions('nope'),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SkillNotFoundError);
      expect(error).toMatchObject({ connector_type: 'skill_store', implementation: 'SqliteSkillStore' });
    }
  });

  it('keeps created_at on overwrite and moves updated_at', async () => {
    const store = open();
    await store.store('hello', DRAFT);
    clock += 5000;
    await store.store('hello', `${DRAFT}\n`);
    const meta = await store.metadata('hello');
    expect(meta.created_at).toBe(T0 / 1000);
    expect(meta.updated_at).toBe(T0 / 1000 + 5);
    expect(meta.status_changed_at).toBe(T0 / 1000);
  });

  it('keeps projections and metadata_bag given with a write', async () => {
    const store = open();
    await store.store('hello', DRAFT, {
      description: 'explicit',
      vars: ['who'],
      returns: ['greeting'],
      type: 'procedural',
      triggers: [{ source: 'cron', name: 'daily' }],
      metadata_bag: { team: 'ops' },
      tags: ['b', 'a'],
    });
    expect(await store.metadata('hello')).toMatchObject({
      description: 'explicit',
      vars: ['who'],
      returns: ['greeting'],
      type: 'procedural',
      triggers: [{ source: 'cron', name: 'daily' }],
      metadata_bag: { team: 'ops' },
      tags: ['a', 'b'],
    });
  });

  it('refuses names the catalog token cannot carry and malformed arguments', async () => {
    const store = open();
    for (const name of ['', 'a\nb', 'a\rb', 'lone\uD800']) {
      await expect(store.store(name, DRAFT)).rejects.toMatchObject({ code: 'storage_conflict' });
    }
    await expect(store.store(3 as never, DRAFT)).rejects.toMatchObject({ code: 'storage_validation' });
    await expect(store.store('ok', null as never)).rejects.toMatchObject({ code: 'storage_validation' });
    await expect(store.store('ok', DRAFT, { status: 'Live' } as never)).rejects.toMatchObject({
      code: 'storage_validation',
    });
    await expect(store.store('ok', DRAFT, { tags: 'x' } as never)).rejects.toMatchObject({
      code: 'storage_validation',
    });
    expect(await store.query()).toEqual([]);
    expect(await store.store('unicode 名前 🚀', DRAFT)).toMatchObject({ name: 'unicode 名前 🚀' });
  });
});

describe('SqliteSkillStore: overwrite rules (contract, not the reference SQLite store)', () => {
  it('locks the author once set, keeps it when a later write names none, refuses another', async () => {
    const store = open();
    expect((await store.store('hello', DRAFT, { author: 'alice' })).changed_by).toBe('alice');
    expect((await store.store('hello', `${DRAFT}\n`)).changed_by).toBe('alice');
    expect((await store.metadata('hello')).author).toBe('alice');
    const error = await store.store('hello', DRAFT, { author: 'bob' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'storage_conflict' });
    expect((await store.store('hello', DRAFT, { author: 'alice' })).changed_by).toBe('alice');
    await store.store('anon', DRAFT);
    expect((await store.metadata('anon')).author).toBeUndefined();
    await store.store('anon', DRAFT, { author: 'carol' });
    expect((await store.metadata('anon')).author).toBe('carol');
  });

  it('preserves the current status across an overwrite, rewriting the body to match', async () => {
    const store = open();
    await store.store('hello', DRAFT);
    await store.update_status('hello', 'Approved');
    const draftAgain = DRAFT.replace('Says hi', 'Says bye');
    const info = await store.store('hello', draftAgain);
    expect(info).toMatchObject({ status: 'Approved', previous_status: 'Approved' });
    const loaded = await store.load('hello');
    expect(loaded.source).toBe(draftAgain.replace('# Status: Draft', '# Status: Approved'));
    expect(loaded.metadata.status).toBe('Approved');
    const explicit = await store.store('hello', draftAgain, { status: 'Draft' });
    expect(explicit.status).toBe('Draft');
    expect((await store.load('hello')).source).toBe(draftAgain);
  });
});

describe('SqliteSkillStore: update_status and versions', () => {
  it('records the chronological audit trail with previous_status', async () => {
    const store = open();
    await store.store('hello', DRAFT, { author: 'alice' });
    clock += 1000;
    const approved = await store.update_status('hello', 'Approved');
    expect(approved).toMatchObject({
      status: 'Approved',
      previous_status: 'Draft',
      changed_at: T0 / 1000 + 1,
    });
    await store.update_status('hello', 'Disabled');
    const versions = await store.versions('hello');
    expect(versions.map((v) => [v.status, v.previous_status])).toEqual([
      ['Draft', undefined],
      ['Approved', 'Draft'],
      ['Disabled', 'Approved'],
    ]);
    for (const version of versions) expect(versionInfoSchema.parse(version)).toEqual(version);
    expect(versions[0]!.changed_by).toBe('alice');
    expect((await store.metadata('hello')).status_changed_at).toBe(T0 / 1000 + 1);
  });

  it('writes a bare "# Status: Approved" and strips tokens on the way out', async () => {
    const store = open();
    await store.store('hello', DRAFT);
    await store.update_status('hello', 'Approved');
    expect((await store.load('hello')).source).toBe(DRAFT.replace('# Status: Draft', '# Status: Approved'));
    await store.store('tok', APPROVED_WITH_TOKEN);
    await store.update_status('tok', 'Approved');
    expect((await store.load('tok')).source).toMatch(/^# Status: Approved$/m);
    await store.update_status('tok', 'Draft');
    const source = (await store.load('tok')).source;
    expect(source).toMatch(/^# Status: Draft$/m);
    expect(source).not.toMatch(/v\d+:/);
  });

  it('refuses an invalid status without touching the body', async () => {
    const store = open();
    await store.store('guard', DRAFT);
    for (const status of [undefined, 'Bogus', 'approved', 1]) {
      await expect(store.update_status('guard', status as never)).rejects.toMatchObject({
        code: 'storage_validation',
      });
    }
    expect((await store.load('guard')).source).toBe(DRAFT);
    await expect(store.update_status('nope', 'Approved')).rejects.toBeInstanceOf(SkillNotFoundError);
  });
});

describe('SqliteSkillStore: secured mode', () => {
  it('stores an unsigned Approved write as Draft and keeps a signed one verbatim', async () => {
    const store = open({ secured: true });
    const forced = await store.store('unsigned', APPROVED_WITH_TOKEN);
    expect(forced.status).toBe('Draft');
    expect((await store.load('unsigned')).source).toMatch(/^# Status: Draft$/m);
    expect((await store.store('asked', DRAFT, { status: 'Approved' })).status).toBe('Draft');
    expect((await store.store('signed', SIGNED)).status).toBe('Approved');
    expect((await store.load('signed')).source).toBe(SIGNED);
    expect((await store.manifest()).manifest).toMatchObject({ kind: 'sqlite', secured: true });
  });

  it('refuses to approve an unsigned body through update_status, and can leave Approved', async () => {
    const store = open({ secured: true });
    await store.store('hello', DRAFT);
    await expect(store.update_status('hello', 'Approved')).rejects.toMatchObject({
      code: 'approval_required',
    });
    expect((await store.metadata('hello')).status).toBe('Draft');
    await store.store('signed', SIGNED);
    expect((await store.update_status('signed', 'Approved')).content_hash).toBe(
      contentIdentity(SIGNED).content_hash,
    );
    await store.update_status('signed', 'Disabled');
    expect((await store.load('signed')).source).not.toContain('v3:');
  });

  it('uses a custom signature verifier', async () => {
    const store = open({ secured: true, isSignedApproval: (source) => source.includes('v3:good') });
    expect((await store.store('bad', SIGNED)).status).toBe('Draft');
    expect((await store.store('good', SIGNED.replace('v3:c2lnbmF0dXJl', 'v3:good'))).status).toBe('Approved');
  });
});

describe('SqliteSkillStore: query', () => {
  const seed = async (store: SqliteSkillStore) => {
    await store.store('zebra', DRAFT, { author: 'alice', tags: ['foo', 'bar'] });
    clock += 10_000;
    await store.store('alpha', DRAFT, { author: 'bob', metadata_bag: { tags: ['foo'] } });
    await store.store('mango', DRAFT, { tags: ['baz'] });
    await store.update_status('mango', 'Approved');
    await store.store('alpha-2', DRAFT);
    await store.update_status('alpha-2', 'Disabled');
  };

  it('returns [] on an empty store and every skill ordered by name', async () => {
    const store = open();
    expect(await store.query()).toEqual([]);
    await seed(store);
    expect((await store.query()).map((m) => m.name)).toEqual(['alpha', 'alpha-2', 'mango', 'zebra']);
  });

  it('filters by status, tags (all of them), author, since, name_pattern, with limit and offset', async () => {
    const store = open();
    await seed(store);
    const names = async (filter: Record<string, unknown>) => (await store.query(filter)).map((m) => m.name);
    expect(await names({ status: 'Approved' })).toEqual(['mango']);
    expect(await names({ status: ['Approved', 'Disabled'] })).toEqual(['alpha-2', 'mango']);
    expect(await names({ tag: 'foo' })).toEqual(['alpha', 'zebra']);
    expect(await names({ tag: ['foo', 'bar'] })).toEqual(['zebra']);
    expect(await names({ tag: ['foo', 'foo'] })).toEqual(['alpha', 'zebra']);
    expect(await names({ author: 'alice' })).toEqual(['zebra']);
    expect(await names({ since: T0 / 1000 + 10 })).toEqual(['alpha', 'alpha-2', 'mango']);
    expect(await names({ name_pattern: '^alpha' })).toEqual(['alpha', 'alpha-2']);
    expect(await names({ name_pattern: 'a', offset: 1, limit: 2 })).toEqual(['alpha-2', 'mango']);
    expect(await names({ limit: 2, offset: 1 })).toEqual(['alpha-2', 'mango']);
    expect(await names({ offset: 3 })).toEqual(['zebra']);
    expect(await names({ status: 'Draft', tag: 'foo', author: 'bob' })).toEqual(['alpha']);
    expect(await names({ type: 'data', unknown_key: 1 })).toHaveLength(4);
    expect(await names({ author: 'nobody' })).toEqual([]);
  });

  it('refuses malformed filters with storage_validation', async () => {
    const store = open();
    for (const filter of [
      { status: 'Live' },
      { limit: -1 },
      { since: Date.now() },
      { name_pattern: '(' },
      'x',
    ]) {
      await expect(store.query(filter as never)).rejects.toMatchObject({ code: 'storage_validation' });
    }
  });
});

describe('SqliteSkillStore: delete, version(), lifecycle', () => {
  it('hard-deletes with history so the name starts afresh', async () => {
    const store = open();
    await store.store('hello', DRAFT, { author: 'alice', tags: ['t'] });
    await store.update_status('hello', 'Approved');
    await store.delete('hello');
    await expect(store.load('hello')).rejects.toBeInstanceOf(SkillNotFoundError);
    await expect(store.versions('hello')).rejects.toBeInstanceOf(SkillNotFoundError);
    await expect(store.delete('hello')).rejects.toBeInstanceOf(SkillNotFoundError);
    await store.store('hello', DRAFT, { author: 'bob' });
    const versions = await store.versions('hello');
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ status: 'Draft', changed_by: 'bob' });
    expect((await store.metadata('hello')).tags).toBeUndefined();
    expect(await store.query({ tag: 't' })).toEqual([]);
  });

  it('moves version() on add, status change, same-status body edit and remove, and equals the reference token', async () => {
    const store = open();
    const tokens = [await store.version()];
    expect(tokens[0]).toBe(EMPTY_CATALOG_CHANGE_TOKEN);
    await store.store('a', DRAFT);
    tokens.push(await store.version());
    expect(await store.version()).toBe(tokens[1]);
    await store.update_status('a', 'Approved');
    tokens.push(await store.version());
    await store.store('a', DRAFT.replace('Says hi', 'Says more'));
    tokens.push(await store.version());
    await store.store('b', DRAFT);
    tokens.push(await store.version());
    await store.delete('b');
    tokens.push(await store.version());
    expect(new Set(tokens.slice(0, 5)).size).toBe(5);
    expect(tokens[5]).toBe(tokens[3]);
    const meta = await store.metadata('a');
    expect(tokens[5]).toBe(catalogChangeToken([meta]));
  });

  it('survives close and reopen of the file, and shares a file with a data store', async () => {
    const first = open();
    await first.store('hello', DRAFT);
    first.close();
    const data = new SqliteDataStore({ path: dir.file('skills.db') });
    try {
      const { id } = await data.write({ content: 'next to the skills' });
      const second = open();
      expect((await second.load('hello')).source).toBe(DRAFT);
      expect(await second.versions('hello')).toHaveLength(1);
      expect((await data.get(id))?.detail).toBe('next to the skills');
    } finally {
      data.close();
    }
  });

  it('serialises parallel writes from two connections to the same file', async () => {
    const a = open();
    const b = open();
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 === 0 ? a : b).store(`skill-${i % 10}`, `${DRAFT}# ${i}\n`),
      ),
    );
    const all = await a.query();
    expect(all).toHaveLength(10);
    const histories = await Promise.all(all.map((meta) => b.versions(meta.name)));
    expect(histories.flat()).toHaveLength(40);
  });

  it('works in memory and on a borrowed connection, and throws store_closed once closed', async () => {
    const database = new Database(':memory:');
    try {
      const store = new SqliteSkillStore({ database });
      await store.store('hello', DRAFT);
      store.close();
      expect(database.open).toBe(true);
      await expect(store.load('hello')).rejects.toMatchObject({ code: 'store_closed' });
      await expect(store.version()).rejects.toMatchObject({ code: 'store_closed' });
      expect((await new SqliteSkillStore({ database }).load('hello')).source).toBe(DRAFT);
    } finally {
      database.close();
    }
    const memory = new SqliteSkillStore({ path: ':memory:' });
    stores.push(memory);
    expect((await memory.store('m', DRAFT)).status).toBe('Draft');
  });

  it('refuses a schema from a newer release and bad options', () => {
    open().close();
    const raw = new Database(dir.file('skills.db'));
    raw.prepare("UPDATE agentwire_schema_versions SET version = 7 WHERE component = 'skill_store'").run();
    raw.close();
    expect(() => open()).toThrow(expect.objectContaining({ code: 'schema_migration' }));
    expect(() => new SqliteSkillStore({ path: ':memory:', secured: 'yes' as never })).toThrow(
      expect.objectContaining({ code: 'storage_validation' }),
    );
    expect(() => new SqliteSkillStore({ path: ':memory:', isSignedApproval: 1 as never })).toThrow(
      expect.objectContaining({ code: 'storage_validation' }),
    );
  });

  it('declares its static capabilities and manifest', async () => {
    expect(SqliteSkillStore.staticCapabilities()).toMatchObject({
      connector_type: 'skill_store',
      implementation: 'SqliteSkillStore',
      contract_version: '1.0.0',
      features: {
        supports_audit_trail: true,
        supports_atomic_status_transitions: true,
        supports_tag_filter: true,
      },
    });
    const info = await open().manifest();
    expect(info).toMatchObject({ capabilities_version: '1', manifest: { kind: 'sqlite', secured: false } });
    expect(info.manifest.db_path).toBe(dir.file('skills.db'));
  });
});
