import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Temporary files {@link writeFileAtomic} leaves behind when a process dies mid-write. */
export const TEMP_FILE_PATTERN = /^\..+\.[0-9a-f]{16}\.tmp$/;

/**
 * Writes `data` to `path` all or nothing: into a temporary file in the same folder, then renamed over
 * `path`. With `fsync`, the file is flushed before the rename and the folder after it.
 */
export async function writeFileAtomic(
  path: string,
  data: Uint8Array | string,
  fsync: boolean,
): Promise<void> {
  const folder = dirname(path);
  await mkdir(folder, { recursive: true });
  const temp = join(folder, `.${basename(path)}.${randomBytes(8).toString('hex')}.tmp`);
  try {
    const file = await open(temp, 'wx');
    try {
      await file.writeFile(data);
      if (fsync) await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  if (fsync) await syncFolder(folder);
}

async function syncFolder(folder: string): Promise<void> {
  // Windows cannot open a folder for flushing; its renames are journalled by NTFS.
  if (process.platform === 'win32') return;
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
