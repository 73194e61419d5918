import { randomUUID } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Replaces the file at `path` with `content` (UTF-8) so that a reader sees either the old bytes or the
 * new ones, never a mix: the bytes go to a hidden `.<file>.<uuid>.tmp` beside the target, are flushed
 * with `fsync`, and the temp file is renamed onto `path` (atomic within one file system). A failed write
 * removes the temp file and rethrows. The folder must exist.
 *
 * @throws {NodeJS.ErrnoException} the file system refused the write or the rename.
 */
export async function writeFileAtomic(path: string, content: string): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`);
  try {
    const handle = await open(temp, 'wx');
    try {
      await handle.writeFile(content, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}
