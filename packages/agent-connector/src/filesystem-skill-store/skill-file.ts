import { open, stat } from 'node:fs/promises';
import { unixSeconds } from '../storage/unix-seconds.js';

/** A skill's source file as read: its text and when it was last written. */
export interface SkillFile {
  /** The file's bytes, decoded as UTF-8. */
  readonly source: string;
  /** The file's modification time, in whole unix seconds. */
  readonly modifiedAt: number;
}

/**
 * Reads a skill's source file together with its modification time (one open file, so both describe the
 * same bytes). `undefined` when there is no such file, or something other than a file (a folder) has
 * its name.
 *
 * @throws {NodeJS.ErrnoException} for any other file-system fault (permissions, I/O).
 */
export async function readSkillFile(path: string): Promise<SkillFile | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return undefined;
    const source = await handle.readFile('utf8');
    return { source, modifiedAt: unixSeconds(stats.mtimeMs) };
  } finally {
    await handle.close();
  }
}

/** Whether a skill's source file exists (as a file), without reading it. */
export async function skillFileExists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
