import { randomUUID } from 'node:crypto';
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentConnectorError } from '../contract/errors.js';

/** `written`: the file was created; `unchanged`: an identical file was already there. */
export type PublishOutcome = 'written' | 'unchanged';

/**
 * Publishes `content` as `<folder>/<name>` so that readers never see a partial file, and at most once:
 * - an existing file with identical bytes is left alone (`unchanged`), one with different bytes is kept
 *   and `dispatch_id_conflict` {@link AgentConnectorError} is thrown;
 * - otherwise the bytes go to `<folder>/.<uuid>.tmp` (hidden, never `*.json`), are flushed with `fsync`,
 *   and the temp file is renamed onto `name` — atomic within one file system. A failed write removes
 *   the temp file.
 *
 * Two concurrent publishers of different bytes under one name both pass the existence check and the
 * last rename wins; a `dispatch_id` names one emit, so only retries with identical bytes collide.
 *
 * @throws {AgentConnectorError} `dispatch_id_conflict`: a different file already exists under `name`.
 * @throws {NodeJS.ErrnoException} the file system refused a read, write or rename.
 */
export async function publishFileOnce(
  folder: string,
  name: string,
  content: string,
): Promise<PublishOutcome> {
  const target = join(folder, name);
  const existing = await readExisting(target);
  if (existing !== undefined) {
    if (existing === content) return 'unchanged';
    throw new AgentConnectorError(
      'dispatch_id_conflict',
      `a different dispatch file already exists at ${target}`,
      {
        details: { file: target },
      },
    );
  }
  const temp = join(folder, `.${randomUUID()}.tmp`);
  try {
    const handle = await open(temp, 'wx');
    try {
      await handle.writeFile(content, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  return 'written';
}

async function readExisting(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
