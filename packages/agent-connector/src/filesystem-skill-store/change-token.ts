import { readdir, stat } from 'node:fs/promises';
import { changeTokenFromLines } from '../storage/change-token.js';
import { compareNames } from './skill-filter.js';
import { skillNameOfFile, skillPaths } from './skill-name.js';
import { readLastLogLine } from './version-log.js';

/**
 * The change token of a skill folder, computed without reading any skill body. Each skill contributes
 * one line: its name; the size, modification and status-change times (nanoseconds) and inode of its
 * source file; and the raw last line of its version log. Lines are ordered by name and digested by
 * `changeTokenFromLines` (16 hex digits).
 *
 * - Every change made through the store moves it exactly: a write or status change appends a log entry
 *   carrying the new content version and status, and replaces the source file (a new inode); a removal
 *   drops the line. Two writes within one clock tick still differ by their versions.
 * - An edit made outside the store is seen through the source file's size, times and inode.
 * - A missing or empty folder gives `EMPTY_CATALOG_CHANGE_TOKEN`, the token of an empty catalog.
 *
 * The reference store hashes `<file>:<floor(mtimeMs)>` lines instead, which misses a second edit within
 * the same millisecond, and returns `'empty'` for a missing folder.
 */
export async function folderChangeToken(dir: string): Promise<string> {
  let fileNames: string[];
  try {
    fileNames = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return changeTokenFromLines([]);
    throw error;
  }
  const names = fileNames
    .map(skillNameOfFile)
    .filter((name) => name !== undefined)
    .sort(compareNames);
  const lines: string[] = [];
  for (const name of names) {
    const paths = skillPaths(dir, name);
    const source = await stat(paths.source, { bigint: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (source === undefined || !source.isFile()) continue;
    const lastEntry = (await readLastLogLine(paths.log)) ?? '';
    lines.push([name, source.size, source.mtimeNs, source.ctimeNs, source.ino, lastEntry].join('\t'));
  }
  return changeTokenFromLines(lines);
}
