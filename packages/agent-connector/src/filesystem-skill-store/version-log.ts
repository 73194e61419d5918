import { open, readFile } from 'node:fs/promises';
import { type VersionInfo, versionInfoSchema } from '../storage/skill-store.js';
import { writeFileAtomic } from './atomic-write.js';

/**
 * A skill's version log (`<name>.versions.jsonl`) as read: one JSON `VersionInfo` per line, oldest
 * first.
 */
export interface VersionLog {
  /** The lines that parse as a `VersionInfo`, in file order; torn or foreign lines are left out. */
  readonly entries: readonly VersionInfo[];
  /**
   * The file's complete lines (each ending in `\n`), kept verbatim for the next append. A torn last line
   * — one without its newline, left by a writer that stopped mid-append — is not part of it.
   */
  readonly completeText: string;
}

/** The log of a skill without history: what a new skill's log starts from. */
export const EMPTY_VERSION_LOG: VersionLog = Object.freeze({ entries: Object.freeze([]), completeText: '' });

/** Reads a version log; a missing file is an empty log. */
export async function readVersionLog(path: string): Promise<VersionLog> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return EMPTY_VERSION_LOG;
    throw error;
  }
  const completeText = text.slice(0, text.lastIndexOf('\n') + 1);
  const entries: VersionInfo[] = [];
  for (const line of text.split('\n')) {
    const entry = parseEntry(line);
    if (entry !== undefined) entries.push(entry);
  }
  return { entries, completeText };
}

function parseEntry(line: string): VersionInfo | undefined {
  if (line.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const parsed = versionInfoSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Writes `log`'s complete lines plus `entry` as a new last line, replacing the file atomically (so the
 * log is never torn by this writer). Pass an empty log to start a fresh history.
 */
export async function appendVersionEntry(path: string, log: VersionLog, entry: VersionInfo): Promise<void> {
  await writeFileAtomic(path, `${log.completeText}${JSON.stringify(entry)}\n`);
}

const TAIL_CHUNK_BYTES = 4096;
const NEWLINE = 0x0a;

/**
 * The last non-empty line of a log file, read from the end in small chunks — the cost does not grow with
 * the history. `undefined` when the file is missing or holds no line.
 */
export async function readLastLogLine(path: string): Promise<string | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    let tail = Buffer.alloc(0);
    let position = size;
    while (position > 0) {
      const length = Math.min(TAIL_CHUNK_BYTES, position);
      position -= length;
      const chunk = Buffer.alloc(length);
      const { bytesRead } = await handle.read(chunk, 0, length, position);
      tail = Buffer.concat([chunk.subarray(0, bytesRead), tail]);
      let end = tail.length;
      while (end > 0 && tail[end - 1] === NEWLINE) end -= 1;
      if (end === 0) continue;
      const start = tail.lastIndexOf(NEWLINE, end - 1);
      if (start >= 0 || position === 0) return tail.subarray(start + 1, end).toString('utf8');
    }
    return undefined;
  } finally {
    await handle.close();
  }
}
