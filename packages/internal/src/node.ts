// Node-only helpers the packages share (their Node-only subpaths import this entry; root entries never do).
import { randomBytes } from 'node:crypto';
import { type FileHandle, mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export {
  createNodeListener,
  type NodeListenerOptions,
  type NodeListenerProblem,
  type NodeRequestListener,
  type WebRequestHandler,
  type WholeBodyOptions,
} from './node-listener.js';

/** Options of {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** File mode of the new file, set exactly (not narrowed by the umask). Default: `0o666` less the umask. */
  readonly mode?: number;
  /** Flush the file to disk before the rename. Default `true`. */
  readonly fsync?: boolean;
  /** Also flush the folder after the rename, so the rename itself survives a crash. Default `false`. */
  readonly syncFolder?: boolean;
  /** Create the folder (and its parents) first. Default `false`: the folder must exist. */
  readonly createFolder?: boolean;
}

/**
 * The names {@link writeFileAtomic} gives its temporary files: `.<file name>.<16 hex digits>.tmp`, the file
 * name cut to 200 UTF-8 bytes so that the temporary name fits where the file name fits.
 */
export const TEMP_FILE_PATTERN = /^\..+\.[0-9a-f]{16}\.tmp$/;

/**
 * Replaces the file at `path` so that a reader sees the old bytes or the new ones, never a mix: the
 * content goes to a hidden temporary file beside `path` (see {@link TEMP_FILE_PATTERN}), is flushed,
 * and the temporary file is renamed onto `path` (atomic within one file system). `content` is the text
 * (UTF-8) or bytes to write, or a function that writes through the open handle and returns a value.
 * A failed write removes the temporary file and rethrows the file system's error. With `syncFolder`, a
 * failure to flush the folder rejects after the file has already been replaced.
 */
export async function writeFileAtomic(
  path: string,
  content: string | Uint8Array,
  options?: AtomicWriteOptions,
): Promise<void>;
export async function writeFileAtomic<T>(
  path: string,
  content: (handle: FileHandle) => Promise<T>,
  options?: AtomicWriteOptions,
): Promise<T>;
export async function writeFileAtomic<T>(
  path: string,
  content: string | Uint8Array | ((handle: FileHandle) => Promise<T>),
  options: AtomicWriteOptions = {},
): Promise<T | undefined> {
  const folder = dirname(path);
  if (options.createFolder === true) await mkdir(folder, { recursive: true });
  const temporary = join(folder, `.${clipped(basename(path))}.${randomBytes(8).toString('hex')}.tmp`);
  let result: T | undefined;
  try {
    const handle = await open(temporary, 'wx', options.mode);
    try {
      if (options.mode !== undefined) await handle.chmod(options.mode);
      if (typeof content === 'function') result = await content(handle);
      else await handle.writeFile(content);
      if (options.fsync !== false) await handle.sync();
    } catch (error) {
      // The write's own error is the one to report, not a failure to close after it.
      await handle.close().catch(() => undefined);
      throw error;
    }
    await handle.close();
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
  if (options.syncFolder === true) await syncFolder(folder);
  return result;
}

/** The longest file-name stem a temporary name keeps, in UTF-8 bytes: with `.`, 16 hex digits and `.tmp` it stays under the usual 255-byte name limit. */
const MAX_STEM_BYTES = 200;

/** `name`, cut at a character boundary to at most {@link MAX_STEM_BYTES} UTF-8 bytes. */
function clipped(name: string): string {
  if (Buffer.byteLength(name) <= MAX_STEM_BYTES) return name;
  let out = '';
  let bytes = 0;
  for (const character of name) {
    bytes += Buffer.byteLength(character);
    if (bytes > MAX_STEM_BYTES) break;
    out += character;
  }
  return out;
}

/** Flushes a folder's entries to disk. Windows cannot open a folder for flushing (NTFS journals renames): a no-op there. */
export async function syncFolder(folder: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
