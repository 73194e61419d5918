import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { publishFileOnce } from './file-drop-agent-connector.js';

type Rename = typeof fs.rename;
const renameHook = vi.hoisted(() => ({
  before: undefined as undefined | ((from: string, to: string) => Promise<void>),
}));

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const rename: Rename = async (from, to) => {
    await renameHook.before?.(String(from), String(to));
    return actual.rename(from, to);
  };
  return { ...actual, rename };
});

let folder: string;

beforeEach(async () => {
  folder = await fs.mkdtemp(join(tmpdir(), 'file-drop-publish-'));
});

afterEach(async () => {
  renameHook.before = undefined;
  await fs.rm(folder, { recursive: true, force: true });
});

describe('publishFileOnce', () => {
  it('writes the complete bytes under a hidden non-.json temp name, then renames', async () => {
    const seen: { from: string; to: string; listing: string[]; tempBytes: string }[] = [];
    renameHook.before = async (from, to) => {
      seen.push({ from, to, listing: await fs.readdir(folder), tempBytes: await fs.readFile(from, 'utf8') });
    };
    expect(await publishFileOnce(folder, 'd-1.json', '{"a":1}\n')).toBe('written');
    expect(seen).toHaveLength(1);
    const [step] = seen;
    const tempName = step?.from.slice(folder.length + 1) ?? '';
    expect(tempName).toMatch(/^\.d-1\.json\.[0-9a-f]{16}\.tmp$/);
    expect(tempName.endsWith('.json')).toBe(false);
    expect(step?.to).toBe(join(folder, 'd-1.json'));
    // Before the rename no *.json is visible, and the temp file already holds every byte.
    expect(step?.listing).toEqual([tempName]);
    expect(step?.tempBytes).toBe('{"a":1}\n');
    expect(await fs.readdir(folder)).toEqual(['d-1.json']);
  });

  it('removes the temp file and rethrows when the rename fails', async () => {
    renameHook.before = async () => {
      throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    };
    await expect(publishFileOnce(folder, 'd-1.json', 'x')).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(await fs.readdir(folder)).toEqual([]);
  });

  it('leaves an identical file alone and refuses a different one', async () => {
    await fs.writeFile(join(folder, 'd-1.json'), 'same');
    renameHook.before = async () => {
      throw new Error('rename must not be called');
    };
    expect(await publishFileOnce(folder, 'd-1.json', 'same')).toBe('unchanged');
    await expect(publishFileOnce(folder, 'd-1.json', 'other')).rejects.toMatchObject({
      code: 'dispatch_id_conflict',
    });
    expect(await fs.readFile(join(folder, 'd-1.json'), 'utf8')).toBe('same');
    expect(await fs.readdir(folder)).toEqual(['d-1.json']);
  });
});
