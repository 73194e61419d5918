import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEMP_FILE_PATTERN, writeFileAtomic } from './node.js';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'agentwire-internal-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('replaces a file with text or bytes and leaves no temporary file', async () => {
    const path = join(folder, 'a.json');
    await writeFile(path, 'old');
    await writeFileAtomic(path, 'new');
    expect(await readFile(path, 'utf8')).toBe('new');
    await writeFileAtomic(path, new Uint8Array([1, 2, 3]), { fsync: false, syncFolder: true });
    expect([...(await readFile(path))]).toEqual([1, 2, 3]);
    expect(await readdir(folder)).toEqual(['a.json']);
  });

  it('sets the mode exactly and can create the folder', async () => {
    const path = join(folder, 'deep', 'er', 'key');
    await writeFileAtomic(path, 'secret', { mode: 0o600, createFolder: true });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('returns what a writer function returns', async () => {
    const path = join(folder, 'b.bin');
    const written = await writeFileAtomic(path, async (handle) => {
      await handle.write(new Uint8Array([9, 9]));
      return 2;
    });
    expect(written).toBe(2);
    expect([...(await readFile(path))]).toEqual([9, 9]);
  });

  it('keeps the old file and removes the temporary one when the write fails', async () => {
    const path = join(folder, 'c.txt');
    await writeFile(path, 'kept');
    let tempSeen = '';
    await expect(
      writeFileAtomic(path, async () => {
        tempSeen = (await readdir(folder)).find((n) => n !== 'c.txt') ?? '';
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect(TEMP_FILE_PATTERN.test(tempSeen)).toBe(true);
    expect(await readFile(path, 'utf8')).toBe('kept');
    expect(await readdir(folder)).toEqual(['c.txt']);
  });

  it('writes a file whose name is as long as the file system allows', async () => {
    const path = join(folder, `${'é'.repeat(125)}.json`); // 255 bytes
    await writeFileAtomic(path, '{}');
    expect(await readFile(path, 'utf8')).toBe('{}');
  });

  it('rethrows when the folder is missing', async () => {
    await expect(writeFileAtomic(join(folder, 'nope', 'x'), 'x')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
