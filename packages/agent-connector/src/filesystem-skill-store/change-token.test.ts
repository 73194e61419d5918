import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeTokenFromLines } from '../storage/skill-store.js';
import { FilesystemSkillStore, folderChangeToken } from './filesystem-skill-store.js';

const reads = vi.hoisted(() => ({ paths: [] as string[] }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const open: typeof fs.open = (path, ...rest) => {
    reads.paths.push(String(path));
    return actual.open(path, ...rest);
  };
  const readFile = ((path: Parameters<typeof fs.readFile>[0], ...rest: never[]) => {
    reads.paths.push(String(path));
    return actual.readFile(path, ...rest);
  }) as typeof fs.readFile;
  return { ...actual, open, readFile };
});

let dir: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'fs-change-token-'));
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('folderChangeToken', () => {
  it('opens no skill body, only the tails of the version logs', async () => {
    const store = new FilesystemSkillStore({ dir });
    await store.store('a', '# Skill: a\n');
    await store.store('b', '# Skill: b\n');
    reads.paths.length = 0;
    await folderChangeToken(dir);
    expect(reads.paths.sort()).toEqual([join(dir, 'a.versions.jsonl'), join(dir, 'b.versions.jsonl')]);
  });

  it('digests one line per skill: name, source size, times, inode and the last log line', async () => {
    const store = new FilesystemSkillStore({ dir, now: () => 1_700_000_000_000, defaultAuthor: null });
    const info = await store.store('a', 'body');
    const stats = await fs.stat(join(dir, 'a.skill.md'), { bigint: true });
    const line = ['a', 4n, stats.mtimeNs, stats.ctimeNs, stats.ino, JSON.stringify(info)].join('\t');
    expect(await folderChangeToken(dir)).toBe(changeTokenFromLines([line]));
  });
});
