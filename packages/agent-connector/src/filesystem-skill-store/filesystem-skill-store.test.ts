import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentConnectorError } from '../contract/errors.js';
import { SkillNotFoundError } from '../storage/errors.js';
import {
  contentIdentity,
  EMPTY_CATALOG_CHANGE_TOKEN,
  type SkillStatus,
  skillMetaSchema,
  skillSourceSchema,
  skillStoreCapabilitiesSchema,
  skillStoreManifestInfoSchema,
  statusOfSkill,
  versionInfoSchema,
} from '../storage/skill-store.js';
import { FilesystemSkillStore } from './filesystem-skill-store.js';

const DRAFT_SAMPLE = '# Skill: conformance-test\n# Status: draft\n\nt:\n    ! hi\n\ndefault: t\n';
const T0 = 1_700_000_000_000;

let dir: string;
let clock: number;
const now = () => clock;

function open(options: { defaultAuthor?: string | null } = {}) {
  return new FilesystemSkillStore({ dir, now, defaultAuthor: 'owner', ...options });
}

function body(status: string | undefined, text = 'main:\n  ! hello\n'): string {
  return `# Skill: demo\n${status === undefined ? '' : `# Status: ${status}\n`}\n${text}`;
}

/**
 * `body(status, text)` after the store rewrote its status header: the reference stores' pattern takes
 * the blank line under the header (and under `# Skill:` when it inserts one) with it.
 */
function rewritten(status: string, text = 'main:\n  ! hello\n'): string {
  return `# Skill: demo\n# Status: ${status}\n${text}`;
}

const sourceFile = (name: string) => readFile(join(dir, `${name}.skill.md`), 'utf8');
const logFile = (name: string) => readFile(join(dir, `${name}.versions.jsonl`), 'utf8');
const logLines = async (name: string) => (await logFile(name)).split('\n').filter((line) => line !== '');

beforeEach(async () => {
  dir = join(await mkdtemp(join(tmpdir(), 'fs-skill-store-')), 'skills');
  clock = T0;
});

afterEach(async () => {
  await rm(join(dir, '..'), { recursive: true, force: true });
});

describe('FilesystemSkillStore: store and load', () => {
  it('round-trips the exact bytes of a lowercase `# Status: draft` body', async () => {
    const store = open();
    const info = await store.store('conformance-test', DRAFT_SAMPLE);
    expect(versionInfoSchema.parse(info)).toEqual(info);
    expect(info).toEqual({
      name: 'conformance-test',
      ...contentIdentity(DRAFT_SAMPLE),
      status: 'Draft',
      changed_at: T0 / 1000,
      changed_by: 'owner',
    });
    const loaded = await store.load('conformance-test');
    expect(skillSourceSchema.parse(loaded)).toEqual(loaded);
    expect(loaded.source).toBe(DRAFT_SAMPLE);
    expect(await sourceFile('conformance-test')).toBe(DRAFT_SAMPLE);
    expect({ version: loaded.version, content_hash: loaded.content_hash }).toEqual(
      contentIdentity(DRAFT_SAMPLE),
    );
    expect(loaded.metadata.status).toBe('Draft');
  });

  it('keeps non-ASCII text, CRLF line ends and a missing final newline byte for byte', async () => {
    const store = open();
    const source = '# Skill: 日報\r\n# Status: Draft\r\n\r\nmain:\r\n  ! ship it — 🙂 naïve';
    const info = await store.store('unicode', source);
    expect(await sourceFile('unicode')).toBe(source);
    expect(info.content_hash).toBe(contentIdentity(source).content_hash);
  });

  it('records one log line per write, equal to the returned VersionInfo', async () => {
    const store = open();
    const first = await store.store('demo', body('Draft'));
    clock += 5_000;
    const second = await store.store('demo', body('Draft', 'main:\n  ! bye\n'));
    expect((await logLines('demo')).map((line) => JSON.parse(line))).toEqual([first, second]);
    expect(second.previous_status).toBe('Draft');
    expect(first).not.toHaveProperty('previous_status');
  });

  it('normalises an Approved body to the bare header and hashes the persisted bytes', async () => {
    const store = open();
    const info = await store.store('demo', body('approved v1:stale-token'));
    const persisted = await sourceFile('demo');
    expect(persisted).toBe(rewritten('Approved'));
    expect(info).toMatchObject({ status: 'Approved', ...contentIdentity(persisted) });
    const loaded = await store.load('demo');
    expect(loaded.source).toBe(persisted);
    expect(loaded.content_hash).toBe(info.content_hash);
  });

  it('stores a body without a status header as Draft, verbatim', async () => {
    const store = open();
    const info = await store.store('demo', body(undefined));
    expect(info.status).toBe('Draft');
    expect(await sourceFile('demo')).toBe(body(undefined));
  });

  it('load(name, version) answers for the current version only', async () => {
    const store = open();
    const first = await store.store('demo', body('Draft'));
    expect((await store.load('demo', first.version)).version).toBe(first.version);
    const second = await store.store('demo', body('Draft', 'main:\n  ! changed\n'));
    expect((await store.load('demo', second.version)).source).toContain('changed');
    const error = await store.load('demo', first.version).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillNotFoundError);
    expect(error).toMatchObject({
      skill_name: 'demo',
      details: { version: first.version },
      code: 'version_not_found',
    });
    await expect(store.load('demo', 42 as never)).rejects.toMatchObject({ code: 'storage_validation' });
  });

  it('creates the folder on the first write and leaves no temp files', async () => {
    const store = open();
    await Promise.all(['a', 'b', 'c'].map((name) => store.store(name, body('Draft'))));
    expect((await readdir(dir)).sort()).toEqual([
      'a.skill.md',
      'a.versions.jsonl',
      'b.skill.md',
      'b.versions.jsonl',
      'c.skill.md',
      'c.versions.jsonl',
    ]);
  });

  it('refuses a non-string body and invalid metadata without writing', async () => {
    const store = open();
    await expect(store.store('demo', 42 as never)).rejects.toMatchObject({ path: 'source' });
    await expect(store.store('demo', 'x', { status: 'Live' as never })).rejects.toMatchObject({
      code: 'storage_validation',
      path: 'metadata.status',
    });
    await expect(store.store('demo', 'x', { author: 7 as never })).rejects.toMatchObject({
      code: 'storage_validation',
    });
    await expect(readdir(dir)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('FilesystemSkillStore: names', () => {
  it.each(['a', 'Z', '0', 'a1', 'skill.v2', 'my-skill_2', 'a..b', 'trailing.', 'x.skill', 'x.versions'])(
    'accepts %j',
    async (name) => {
      const store = open();
      await store.store(name, body('Draft'));
      expect((await store.load(name)).name).toBe(name);
      expect((await store.query()).map((meta) => meta.name)).toEqual([name]);
    },
  );

  it.each([
    '',
    '.hidden',
    '-dash',
    '_under',
    'a/b',
    '../escape',
    'a\\b',
    'a b',
    'tab\t',
    'new\nline',
    'é',
    'a:b',
    'semi;colon',
  ])('refuses %j: storage_conflict on store, SkillNotFoundError on reads', async (name) => {
    const store = open();
    const error = await store.store(name, body('Draft')).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'storage_conflict',
      details: { skill_name: name, connector_type: 'skill_store' },
      message: `Storage conflict on '${name}': name contains characters unsafe for filesystem path`,
    });
    for (const read of [
      () => store.load(name),
      () => store.metadata(name),
      () => store.versions(name),
      () => store.delete(name),
      () => store.update_status(name, 'Approved'),
    ]) {
      await expect(read()).rejects.toBeInstanceOf(SkillNotFoundError);
    }
    await expect(readdir(join(dir, '..'))).resolves.toEqual([]);
  });

  it('refuses a name that is not a string with storage_validation', async () => {
    const store = open();
    for (const call of [
      () => store.store(7 as never, 'x'),
      () => store.load(undefined as never),
      () => store.metadata(null as never),
      () => store.versions({} as never),
      () => store.delete(1 as never),
      () => store.update_status([] as never, 'Draft'),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'storage_validation', path: 'name' });
    }
  });
});

describe('FilesystemSkillStore: author lock', () => {
  it('locks the first write’s author; a different explicit author is refused and nothing changes', async () => {
    const store = open();
    await store.store('demo', body('Draft'), { author: 'alice' });
    clock += 1_000;
    const same = await store.store('demo', body('Draft', 'main:\n  ! v2\n'), { author: 'alice' });
    const implicit = await store.store('demo', body('Draft', 'main:\n  ! v3\n'));
    expect([same.changed_by, implicit.changed_by]).toEqual(['alice', 'alice']);
    const before = { source: await sourceFile('demo'), log: await logFile('demo') };
    const error = await store
      .store('demo', body('Draft', 'main:\n  ! v4\n'), { author: 'bob' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'storage_conflict' });
    expect((error as AgentConnectorError).details.reason).toContain("'alice'");
    expect({ source: await sourceFile('demo'), log: await logFile('demo') }).toEqual(before);
    expect((await store.metadata('demo')).author).toBe('alice');
  });

  it('takes defaultAuthor when the first write names none', async () => {
    const store = open({ defaultAuthor: 'ops' });
    await store.store('demo', body('Draft'));
    expect((await store.metadata('demo')).author).toBe('ops');
    await expect(store.store('demo', body('Draft'), { author: 'alice' })).rejects.toMatchObject({
      code: 'storage_conflict',
    });
  });

  it('defaults to the OS user', async () => {
    const store = new FilesystemSkillStore({ dir, now });
    await store.store('demo', body('Draft'));
    expect((await store.metadata('demo')).author).toBe(userInfo().username);
  });

  it('records no author with defaultAuthor: null, until a write names one', async () => {
    const store = open({ defaultAuthor: null });
    const first = await store.store('demo', body('Draft'));
    expect(first).not.toHaveProperty('changed_by');
    expect(await store.metadata('demo')).not.toHaveProperty('author');
    await store.store('demo', body('Draft'), { author: 'carol' });
    expect((await store.metadata('demo')).author).toBe('carol');
    await expect(store.store('demo', body('Draft'), { author: 'dave' })).rejects.toMatchObject({
      code: 'storage_conflict',
    });
  });

  it('a deleted name starts over: the old author is not inherited', async () => {
    const store = open();
    await store.store('demo', body('Draft'), { author: 'alice' });
    await store.delete('demo');
    await store.store('demo', body('Draft'), { author: 'bob' });
    expect((await store.metadata('demo')).author).toBe('bob');
    expect(await store.versions('demo')).toHaveLength(1);
  });
});

describe('FilesystemSkillStore: status preservation on overwrite', () => {
  async function skillWithStatus(store: FilesystemSkillStore, status: SkillStatus) {
    await store.store('demo', body('Draft'));
    if (status !== 'Draft') await store.update_status('demo', status);
  }

  it.each<[SkillStatus, string | undefined, SkillStatus | undefined, SkillStatus]>([
    ['Draft', 'Approved', undefined, 'Draft'],
    ['Draft', 'Disabled', undefined, 'Draft'],
    ['Approved', 'Draft', undefined, 'Approved'],
    ['Approved', undefined, undefined, 'Approved'],
    ['Approved', 'Disabled', undefined, 'Approved'],
    ['Disabled', 'Approved', undefined, 'Disabled'],
    ['Disabled', 'Draft', undefined, 'Disabled'],
    ['Draft', 'Draft', 'Approved', 'Approved'],
    ['Approved', 'Approved', 'Draft', 'Draft'],
    ['Disabled', undefined, 'Draft', 'Draft'],
  ])(
    '%s skill, body says %s, metadata.status %s → %s, body rewritten to match',
    async (current, header, explicit, expected) => {
      const store = open();
      await skillWithStatus(store, current);
      const info = await store.store(
        'demo',
        body(header, 'main:\n  ! edited\n'),
        explicit === undefined ? undefined : { status: explicit },
      );
      expect(info).toMatchObject({ status: expected, previous_status: current });
      const persisted = await sourceFile('demo');
      expect(statusOfSkill(persisted)).toBe(expected);
      expect(persisted).toContain('! edited');
      expect(info.content_hash).toBe(contentIdentity(persisted).content_hash);
      expect((await store.metadata('demo')).status).toBe(expected);
    },
  );

  it('inserts the header under `# Skill:` when an Approved skill is overwritten by a headerless body', async () => {
    const store = open();
    await skillWithStatus(store, 'Approved');
    await store.store('demo', body(undefined, 'main:\n  ! new\n'));
    expect(await sourceFile('demo')).toBe(rewritten('Approved', 'main:\n  ! new\n'));
  });

  it('new skill: metadata.status wins and the body is written to match (no Approved-over-Draft quirk)', async () => {
    const store = open();
    const approved = await store.store('a', body('Draft'), { status: 'Approved' });
    expect(approved.status).toBe('Approved');
    expect(await sourceFile('a')).toBe(rewritten('Approved'));
    expect((await store.metadata('a')).status).toBe('Approved');
    const draft = await store.store('b', body('Approved'), { status: 'Draft' });
    expect(draft.status).toBe('Draft');
    expect(await sourceFile('b')).toBe(rewritten('Draft'));
  });

  it('a refused author change leaves the status alone too', async () => {
    const store = open();
    await store.store('demo', body('Draft'), { author: 'alice' });
    await expect(
      store.store('demo', body('Approved'), { author: 'mallory', status: 'Approved' }),
    ).rejects.toMatchObject({ code: 'storage_conflict' });
    expect((await store.metadata('demo')).status).toBe('Draft');
  });
});

describe('FilesystemSkillStore: update_status', () => {
  it('fills previous_status, rewrites the header and drops an approval token', async () => {
    const store = open();
    await store.store('demo', body('Draft'));
    clock += 2_000;
    const approved = await store.update_status('demo', 'Approved');
    expect(versionInfoSchema.parse(approved)).toEqual(approved);
    expect(approved).toMatchObject({
      status: 'Approved',
      previous_status: 'Draft',
      changed_at: T0 / 1000 + 2,
    });
    expect(await sourceFile('demo')).toBe(rewritten('Approved'));
    const disabled = await store.update_status('demo', 'Disabled');
    expect(disabled).toMatchObject({ status: 'Disabled', previous_status: 'Approved' });
    expect(disabled.content_hash).toBe(contentIdentity(rewritten('Disabled')).content_hash);
    expect((await store.load('demo')).source).toBe(rewritten('Disabled'));
  });

  it('reads the previous status from the body as it is, and inserts a header where none was', async () => {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'hand.skill.md'), '# Skill: hand\n# Status: approved v3:sig\nbody\n');
    await writeFile(join(dir, 'bare.skill.md'), 'no headers here\n');
    const store = open();
    expect(await store.update_status('hand', 'Draft')).toMatchObject({ previous_status: 'Approved' });
    expect(await sourceFile('hand')).toBe('# Skill: hand\n# Status: Draft\nbody\n');
    await store.update_status('bare', 'Disabled');
    expect(await sourceFile('bare')).toBe('# Status: Disabled\nno headers here\n');
  });

  it('refuses an unknown status with storage_validation and changes nothing', async () => {
    const store = open();
    await store.store('demo', body('Draft'));
    for (const status of ['approved', 'Live', undefined, 3]) {
      await expect(store.update_status('demo', status as never)).rejects.toMatchObject({
        code: 'storage_validation',
        path: 'status',
      });
    }
    expect(await sourceFile('demo')).toBe(body('Draft'));
    expect(await logLines('demo')).toHaveLength(1);
  });

  it('throws SkillNotFoundError for a missing skill', async () => {
    const error = await open()
      .update_status('ghost', 'Approved')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillNotFoundError);
    expect(error).toMatchObject({ skill_name: 'ghost', implementation: 'FilesystemSkillStore' });
  });
});

describe('FilesystemSkillStore: metadata and timestamps', () => {
  it('reports whole unix seconds from the clock: created, updated and status change', async () => {
    const store = open();
    clock = T0 + 999;
    await store.store('demo', `# Skill: demo\n# Description: Sorts the inbox\n# Status: Draft\n`);
    clock = T0 + 60_500;
    await store.update_status('demo', 'Approved');
    clock = T0 + 120_000;
    await store.store('demo', `# Skill: demo\n# Description: Sorts the inbox\n# Status: Approved\nmore\n`);
    const meta = await store.metadata('demo');
    expect(skillMetaSchema.parse(meta)).toEqual(meta);
    expect(meta).toEqual({
      name: 'demo',
      ...contentIdentity(`# Skill: demo\n# Description: Sorts the inbox\n# Status: Approved\nmore\n`),
      status: 'Approved',
      created_at: T0 / 1000,
      updated_at: T0 / 1000 + 120,
      status_changed_at: T0 / 1000 + 60,
      author: 'owner',
      description: 'Sorts the inbox',
    });
    expect((await store.load('demo')).metadata).toEqual(meta);
    expect(await store.query()).toEqual([meta]);
  });

  it('after an edit outside the store, takes updated_at from the file and drops status_changed_at', async () => {
    const store = open();
    await store.store('demo', body('Draft'));
    await writeFile(join(dir, 'demo.skill.md'), body('Draft', 'main:\n  ! hand edit\n'));
    await utimes(join(dir, 'demo.skill.md'), 1_800_000_000, 1_800_000_000);
    const meta = await store.metadata('demo');
    expect(meta).toMatchObject({ created_at: T0 / 1000, updated_at: 1_800_000_000, author: 'owner' });
    expect(meta).not.toHaveProperty('status_changed_at');
    expect(meta.content_hash).toBe(contentIdentity(body('Draft', 'main:\n  ! hand edit\n')).content_hash);
  });

  it('serves a skill file written by hand, without a log', async () => {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'hand.skill.md'), body('disabled'));
    await utimes(join(dir, 'hand.skill.md'), 1_750_000_000, 1_750_000_000);
    const meta = await open().metadata('hand');
    expect(meta).toEqual({
      name: 'hand',
      ...contentIdentity(body('disabled')),
      status: 'Disabled',
      created_at: 1_750_000_000,
      updated_at: 1_750_000_000,
    });
  });

  it('throws SkillNotFoundError for a missing skill, and for a folder named like a skill file', async () => {
    const store = open();
    await expect(store.metadata('ghost')).rejects.toBeInstanceOf(SkillNotFoundError);
    await mkdir(join(dir, 'folder.skill.md'), { recursive: true });
    await expect(store.metadata('folder')).rejects.toBeInstanceOf(SkillNotFoundError);
    await expect(store.load('folder')).rejects.toBeInstanceOf(SkillNotFoundError);
    expect(await store.query()).toEqual([]);
  });
});

describe('FilesystemSkillStore: versions', () => {
  it('writes each log line with the reference store key order, byte for byte', async () => {
    const store = open();
    const source = body('Draft');
    const { content_hash, version } = contentIdentity(source);
    await store.store('demo', source);
    clock += 1000;
    const approved = contentIdentity(rewritten('Approved'));
    await store.update_status('demo', 'Approved');
    expect(await logFile('demo')).toBe(
      `{"name":"demo","version":"${version}","content_hash":"${content_hash}","status":"Draft","changed_at":1700000000,"changed_by":"owner"}\n` +
        `{"name":"demo","version":"${approved.version}","content_hash":"${approved.content_hash}","status":"Approved","previous_status":"Draft","changed_at":1700000001}\n`,
    );
  });

  it('lists every write and status change, oldest first', async () => {
    const store = open();
    const a = await store.store('demo', body('Draft'));
    const b = await store.update_status('demo', 'Approved');
    const c = await store.store('demo', body('Draft', 'main:\n  ! v3\n'));
    expect(await store.versions('demo')).toEqual([a, b, c]);
    expect(c.status).toBe('Approved');
  });

  it('tolerates a torn last line and drops it on the next write', async () => {
    const store = open();
    const a = await store.store('demo', body('Draft'));
    await writeFile(join(dir, 'demo.versions.jsonl'), `${await logFile('demo')}{"name":"demo","vers`);
    expect(await store.versions('demo')).toEqual([a]);
    expect((await store.metadata('demo')).updated_at).toBe(a.changed_at);
    const b = await store.store('demo', body('Draft', 'main:\n  ! next\n'));
    expect(await logFile('demo')).toBe(`${JSON.stringify(a)}\n${JSON.stringify(b)}\n`);
    expect(await store.versions('demo')).toEqual([a, b]);
  });

  it('skips lines that are not VersionInfo records and keeps them on later writes', async () => {
    const store = open();
    const a = await store.store('demo', body('Draft'));
    const foreign = '{"note":"written by another tool"}\nnot json\n\n';
    await writeFile(join(dir, 'demo.versions.jsonl'), `${await logFile('demo')}${foreign}`);
    const b = await store.update_status('demo', 'Disabled');
    expect(await store.versions('demo')).toEqual([a, b]);
    expect(await logFile('demo')).toBe(`${JSON.stringify(a)}\n${foreign}${JSON.stringify(b)}\n`);
  });

  it('adds the current bytes as a version when the file has no log or was edited outside the store', async () => {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'hand.skill.md'), body('Draft'));
    await utimes(join(dir, 'hand.skill.md'), 1_750_000_000, 1_750_000_000);
    const store = open();
    expect(await store.versions('hand')).toEqual([
      { name: 'hand', ...contentIdentity(body('Draft')), status: 'Draft', changed_at: 1_750_000_000 },
    ]);
    const logged = await store.store('hand', body('Draft', 'main:\n  ! logged\n'));
    await writeFile(join(dir, 'hand.skill.md'), body('Draft', 'main:\n  ! edited\n'));
    const listed = await store.versions('hand');
    expect(listed).toHaveLength(2);
    expect(listed[0]).toEqual(logged);
    expect(listed[1]?.content_hash).toBe(contentIdentity(body('Draft', 'main:\n  ! edited\n')).content_hash);
  });

  it('throws SkillNotFoundError for a missing skill, even with a leftover log', async () => {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'ghost.versions.jsonl'), '');
    await expect(open().versions('ghost')).rejects.toBeInstanceOf(SkillNotFoundError);
  });
});

describe('FilesystemSkillStore: query', () => {
  async function seed(store: FilesystemSkillStore) {
    clock = T0;
    await store.store('beta', body('Draft'), { author: 'alice' });
    clock = T0 + 10_000;
    await store.store('Alpha', body('Draft'), { author: 'bob' });
    await store.update_status('Alpha', 'Approved');
    clock = T0 + 20_000;
    await store.store('alpha-2', body('Disabled'), { author: 'alice' });
    await store.store('_x', body('Draft')).catch(() => undefined);
    await store.store('gamma.v1', body('Draft'));
  }
  const names = (metas: readonly { name: string }[]) => metas.map((meta) => meta.name);

  it('returns [] for a missing folder, an empty one, and no match', async () => {
    const store = open();
    expect(await store.query()).toEqual([]);
    await mkdir(dir, { recursive: true });
    expect(await store.query({ status: 'Approved' })).toEqual([]);
    await seed(store);
    expect(await store.query({ name_pattern: 'nothing-like-this' })).toEqual([]);
  });

  it('sorts by name in code-point order (uppercase first), unlike localeCompare', async () => {
    const store = open();
    await seed(store);
    await store.store('Zulu', body('Draft'));
    const listed = names(await store.query());
    expect(listed).toEqual(['Alpha', 'Zulu', 'alpha-2', 'beta', 'gamma.v1']);
    expect([...listed].sort((a, b) => a.localeCompare(b))).not.toEqual(listed);
  });

  it('filters by one status or several', async () => {
    const store = open();
    await seed(store);
    expect(names(await store.query({ status: 'Approved' }))).toEqual(['Alpha']);
    expect(names(await store.query({ status: ['Draft', 'Disabled'] }))).toEqual([
      'alpha-2',
      'beta',
      'gamma.v1',
    ]);
    expect(names(await store.query({ status: [] }))).toEqual([]);
  });

  it('filters by name_pattern (a regular expression), since (seconds) and author', async () => {
    const store = open();
    await seed(store);
    expect(names(await store.query({ name_pattern: '^[Aa]lpha' }))).toEqual(['Alpha', 'alpha-2']);
    expect(names(await store.query({ name_pattern: '\\.v\\d$' }))).toEqual(['gamma.v1']);
    expect(names(await store.query({ since: T0 / 1000 + 10 }))).toEqual(['Alpha', 'alpha-2', 'gamma.v1']);
    expect(names(await store.query({ since: T0 / 1000 + 11 }))).toEqual(['alpha-2', 'gamma.v1']);
    expect(names(await store.query({ author: 'alice' }))).toEqual(['alpha-2', 'beta']);
    expect(names(await store.query({ author: 'alice', status: 'Disabled' }))).toEqual(['alpha-2']);
  });

  it('pages with offset and limit after filtering and sorting', async () => {
    const store = open();
    await seed(store);
    expect(names(await store.query({ offset: 1, limit: 2 }))).toEqual(['alpha-2', 'beta']);
    expect(names(await store.query({ offset: 3 }))).toEqual(['gamma.v1']);
    expect(names(await store.query({ limit: 0 }))).toEqual([]);
    expect(names(await store.query({ status: 'Draft', limit: 1, offset: 1 }))).toEqual(['gamma.v1']);
  });

  it('ignores type, tag and unknown keys', async () => {
    const store = open();
    await seed(store);
    expect(names(await store.query({ type: 'data', tag: ['x'], vault: 'v1' }))).toHaveLength(4);
  });

  it('refuses an invalid regular expression or mistyped keys with storage_validation', async () => {
    const store = open();
    await seed(store);
    await expect(store.query({ name_pattern: '([' })).rejects.toMatchObject({
      code: 'storage_validation',
      path: 'filter.name_pattern',
    });
    await expect(store.query({ status: 'Live' as never })).rejects.toMatchObject({ path: 'filter.status' });
    await expect(store.query({ limit: -1 })).rejects.toMatchObject({ code: 'storage_validation' });
    await expect(store.query({ since: T0 })).rejects.toMatchObject({ code: 'storage_validation' });
    await expect(store.query('all' as never)).rejects.toMatchObject({ code: 'storage_validation' });
  });

  it('lists only well-named *.skill.md files', async () => {
    const store = open();
    await store.store('real', body('Draft'));
    await writeFile(join(dir, 'notes.md'), 'x');
    await writeFile(join(dir, '.hidden.skill.md'), 'x');
    await writeFile(join(dir, 'has space.skill.md'), 'x');
    await writeFile(join(dir, '.real.skill.md.0f.tmp'), 'x');
    await writeFile(join(dir, 'orphan.versions.jsonl'), '');
    await mkdir(join(dir, 'folder.skill.md'));
    expect(names(await store.query())).toEqual(['real']);
  });
});

describe('FilesystemSkillStore: delete', () => {
  it('removes the skill file and its log', async () => {
    const store = open();
    await store.store('demo', body('Draft'));
    await store.store('keep', body('Draft'));
    await store.delete('demo');
    expect((await readdir(dir)).sort()).toEqual(['keep.skill.md', 'keep.versions.jsonl']);
    await expect(store.load('demo')).rejects.toBeInstanceOf(SkillNotFoundError);
    await expect(store.versions('demo')).rejects.toBeInstanceOf(SkillNotFoundError);
    expect((await store.query()).map((meta) => meta.name)).toEqual(['keep']);
  });

  it('throws SkillNotFoundError on a miss, removing a leftover log', async () => {
    const store = open();
    const error = await store.delete('ghost').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillNotFoundError);
    expect(error).toMatchObject({ code: 'skill_not_found', connector_type: 'skill_store' });
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'ghost.versions.jsonl'), '{}\n');
    await expect(store.delete('ghost')).rejects.toBeInstanceOf(SkillNotFoundError);
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('FilesystemSkillStore: concurrent writes', () => {
  it('serialises writes to one name: every write is logged and the file is whole', async () => {
    const store = open();
    const bodies = Array.from({ length: 12 }, (_, index) => body('Draft', `main:\n  ! write ${index}\n`));
    const infos = await Promise.all(bodies.map((source) => store.store('busy', source)));
    const logged = (await logLines('busy')).map((line) => JSON.parse(line));
    expect(logged).toEqual(infos);
    expect(infos.slice(1).every((info) => info.previous_status === 'Draft')).toBe(true);
    expect(await sourceFile('busy')).toBe(bodies.at(-1));
    expect((await readdir(dir)).sort()).toEqual(['busy.skill.md', 'busy.versions.jsonl']);
  });

  it('orders a write, a status change and a delete as called', async () => {
    const store = open();
    const [, approved, , rewritten] = await Promise.all([
      store.store('demo', body('Draft')),
      store.update_status('demo', 'Approved'),
      store.delete('demo'),
      store.store('demo', body('Draft', 'main:\n  ! fresh\n')),
    ]);
    expect(approved.status).toBe('Approved');
    expect(rewritten).not.toHaveProperty('previous_status');
    expect(rewritten.status).toBe('Draft');
    expect(await store.versions('demo')).toEqual([rewritten]);
  });
});

describe('FilesystemSkillStore: version() change token', () => {
  it('is the empty-catalog token for a missing or empty folder', async () => {
    const store = open();
    expect(await store.version()).toBe(EMPTY_CATALOG_CHANGE_TOKEN);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'readme.txt'), 'not a skill');
    expect(await store.version()).toBe(EMPTY_CATALOG_CHANGE_TOKEN);
  });

  it('moves on add, body edit with unchanged status, status change and removal; holds otherwise', async () => {
    const store = open();
    const seen = [await store.version()];
    const expectMoved = async () => {
      const token = await store.version();
      expect(token).toMatch(/^[0-9a-f]{16}$/);
      expect(seen).not.toContain(token);
      seen.push(token);
    };
    await store.store('a', body('Draft'));
    await expectMoved();
    await store.load('a');
    await store.query();
    await store.metadata('a');
    await store.versions('a');
    expect(await store.version()).toBe(seen.at(-1));
    await store.store('a', body('Draft', 'main:\n  ! edit 1\n'));
    await expectMoved();
    // Same clock second, same size: still a new version in the log.
    await store.store('a', body('Draft', 'main:\n  ! edit 2\n'));
    await expectMoved();
    await store.update_status('a', 'Approved');
    await expectMoved();
    await store.store('b', body('Draft'));
    await expectMoved();
    await store.delete('b');
    const afterRemoval = await store.version();
    expect(afterRemoval).not.toBe(seen.at(-1));
    expect(await store.version()).toBe(afterRemoval);
  });

  it('sees an edit made outside the store, and a fresh instance agrees', async () => {
    const store = open();
    await store.store('a', body('Draft'));
    const before = await store.version();
    expect(await open().version()).toBe(before);
    await writeFile(join(dir, 'a.skill.md'), body('Draft', 'main:\n  ! edited by hand\n'));
    expect(await store.version()).not.toBe(before);
  });

  it('does not depend on the order the folder lists files', async () => {
    const left = open();
    await left.store('b', body('Draft'));
    await left.store('a', body('Draft'));
    const token = await left.version();
    expect(await left.version()).toBe(token);
    expect(token).not.toBe(EMPTY_CATALOG_CHANGE_TOKEN);
  });
});

describe('FilesystemSkillStore: capabilities and manifest', () => {
  it('declares its static capabilities', () => {
    const capabilities = FilesystemSkillStore.staticCapabilities();
    expect(skillStoreCapabilitiesSchema.parse(capabilities)).toEqual(capabilities);
    expect(capabilities).toMatchObject({
      connector_type: 'skill_store',
      implementation: 'FilesystemSkillStore',
      contract_version: '1.0.0',
      features: { supports_writes: true, supports_versioning: true, supports_audit_trail: true },
    });
  });

  it('describes its folder in manifest()', async () => {
    const manifest = await new FilesystemSkillStore({ dir: join(dir, '.', 'x', '..') }).manifest();
    expect(skillStoreManifestInfoSchema.parse(manifest)).toEqual(manifest);
    expect(manifest).toEqual({ capabilities_version: '1', manifest: { kind: 'filesystem', root_dir: dir } });
  });

  it('refuses bad options with storage_validation', () => {
    expect(() => new FilesystemSkillStore({ dir: '' })).toThrow(
      expect.objectContaining({ code: 'storage_validation' }),
    );
    expect(() => new FilesystemSkillStore(undefined as never)).toThrow(/options\.dir/);
    expect(() => new FilesystemSkillStore({ dir, now: 5 as never })).toThrow(/options\.now/);
    expect(() => new FilesystemSkillStore({ dir, defaultAuthor: 5 as never })).toThrow(/defaultAuthor/);
  });
});
