import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeFileAtomic } from './node.js';

const renameHook = vi.hoisted(() => ({
  before: undefined as undefined | ((from: string, to: string) => Promise<void>),
}));

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const rename: typeof fs.rename = async (from, to) => {
    await renameHook.before?.(String(from), String(to));
    return actual.rename(from, to);
  };
  return { ...actual, rename };
});

let folder: string;

beforeEach(async () => {
  folder = await fs.mkdtemp(join(tmpdir(), 'atomic-write-'));
});

afterEach(async () => {
  renameHook.before = undefined;
  await fs.rm(folder, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('writes every byte to a hidden temp file beside the target, then renames it into place', async () => {
    const target = join(folder, 'demo.skill.md');
    await fs.writeFile(target, 'old');
    const seen: { from: string; bytes: string; target: string }[] = [];
    renameHook.before = async (from) => {
      seen.push({ from, bytes: await fs.readFile(from, 'utf8'), target: await fs.readFile(target, 'utf8') });
    };
    await writeFileAtomic(target, 'new — ✓');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.from.slice(folder.length + 1)).toMatch(/^\.demo\.skill\.md\.[0-9a-f]{16}\.tmp$/);
    expect(seen[0]?.bytes).toBe('new — ✓');
    expect(seen[0]?.target).toBe('old');
    expect(await fs.readFile(target, 'utf8')).toBe('new — ✓');
    expect(await fs.readdir(folder)).toEqual(['demo.skill.md']);
  });

  it('keeps the old file and removes the temp file when the rename fails', async () => {
    const target = join(folder, 'demo.skill.md');
    await fs.writeFile(target, 'old');
    renameHook.before = async () => {
      throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    };
    await expect(writeFileAtomic(target, 'new')).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(await fs.readFile(target, 'utf8')).toBe('old');
    expect(await fs.readdir(folder)).toEqual(['demo.skill.md']);
  });

  it('fails when the folder does not exist', async () => {
    await expect(writeFileAtomic(join(folder, 'missing', 'x'), 'x')).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });
});
