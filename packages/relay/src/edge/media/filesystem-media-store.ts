import { createHash, randomBytes } from 'node:crypto';
import { type FileHandle, mkdir, open, readFile, rename, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { RelayError } from '../../errors.js';
import { isMediaId, newMediaId } from './media-id.js';
import type { MediaBody, MediaEntry, MediaPutOptions, MediaStore, StoredMedia } from './media-store.js';
import { checkChunk, checkPutArguments, isTenant } from './put-arguments.js';

/** Options of {@link FilesystemMediaStore}. */
export interface FilesystemMediaStoreOptions {
  /** The directory that holds the items; created when missing. */
  readonly root: string;
  /** Flush each item to disk before it is published. Default `true`; `false` trades durability for speed. */
  readonly fsync?: boolean;
}

/** Size of the chunks a stored item is read back in. */
const READ_CHUNK_BYTES = 64 * 1024;
const SIDECAR_VERSION = 1;

interface Sidecar {
  readonly version: typeof SIDECAR_VERSION;
  readonly tenant: string;
  readonly size: number;
  readonly contentType: string;
  readonly filename?: string;
}

/**
 * A {@link MediaStore} in a directory. Each tenant has its own subdirectory, named by the SHA-256 of
 * the tenant (so no tenant string can name a path); an item is `<id>.bin` plus a `<id>.json` metadata
 * sidecar that records its tenant, size, type and file name. Ids are random hex, so no id can name a
 * path either. Writes are atomic: bytes go to a temporary file that is renamed into place when
 * complete, and the sidecar, written the same way, publishes the item. A failed or interrupted
 * upload leaves nothing behind. Items never expire; delete them yourself.
 *
 * @example
 * const store = new FilesystemMediaStore({ root: '/var/lib/connector/media' });
 * const media = createMediaHandler({ authenticate, store });
 */
export class FilesystemMediaStore implements MediaStore {
  readonly #root: string;
  readonly #fsync: boolean;

  constructor(options: FilesystemMediaStoreOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new RelayError('media_invalid_argument', 'options must be an object', { path: 'options' });
    }
    if (typeof options.root !== 'string' || options.root === '') {
      throw new RelayError('media_invalid_argument', 'root must be a non-empty directory path', {
        path: 'options.root',
      });
    }
    if (options.fsync !== undefined && typeof options.fsync !== 'boolean') {
      throw new RelayError('media_invalid_argument', 'fsync must be a boolean', { path: 'options.fsync' });
    }
    this.#root = options.root;
    this.#fsync = options.fsync ?? true;
  }

  async put(body: MediaBody, options: MediaPutOptions): Promise<StoredMedia> {
    checkPutArguments(body, options);
    const directory = this.#directory(options.tenant);
    await mkdir(directory, { recursive: true });
    const id = newMediaId();
    const paths = itemPaths(directory, id);
    const size = await this.#writeAtomically(paths.data, (handle) => writeBody(handle, body));
    const sidecar: Sidecar = {
      version: SIDECAR_VERSION,
      tenant: options.tenant,
      size,
      contentType: options.contentType,
      ...(options.filename === undefined ? {} : { filename: options.filename }),
    };
    try {
      await this.#writeAtomically(paths.sidecar, async (handle) => {
        await writeFully(handle, new TextEncoder().encode(JSON.stringify(sidecar)));
      });
    } catch (error) {
      await rm(paths.data, { force: true });
      throw error;
    }
    return { id, size };
  }

  async get(id: string, tenant: string): Promise<MediaEntry | null> {
    if (!isMediaId(id) || !isTenant(tenant)) return null;
    const paths = itemPaths(this.#directory(tenant), id);
    const text = await readIfExists(paths.sidecar);
    if (text === undefined) return null;
    const sidecar = parseSidecar(text, id);
    if (sidecar.tenant !== tenant) return null;
    let handle: FileHandle;
    try {
      handle = await open(paths.data, 'r');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    try {
      const { size } = await handle.stat();
      if (size !== sidecar.size) {
        throw new RelayError(
          'media_store_corrupt',
          `media ${id} holds ${size} bytes; its sidecar says ${sidecar.size}`,
          { path: 'id' },
        );
      }
    } catch (error) {
      await handle.close();
      throw error;
    }
    return {
      body: fileStream(handle, sidecar.size, id),
      size: sidecar.size,
      contentType: sidecar.contentType,
      filename: sidecar.filename,
    };
  }

  async delete(id: string, tenant: string): Promise<boolean> {
    if (!isMediaId(id) || !isTenant(tenant)) return false;
    const paths = itemPaths(this.#directory(tenant), id);
    const text = await readIfExists(paths.sidecar);
    if (text === undefined || parseSidecar(text, id).tenant !== tenant) return false;
    try {
      await unlink(paths.sidecar);
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
    await rm(paths.data, { force: true });
    return true;
  }

  #directory(tenant: string): string {
    return join(this.#root, createHash('sha256').update(tenant, 'utf8').digest('hex'));
  }

  /** Runs `write` on a new temporary file next to `path`, then renames it to `path`; removes it on failure. */
  async #writeAtomically<T>(path: string, write: (handle: FileHandle) => Promise<T>): Promise<T> {
    const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    const handle = await open(temporary, 'wx', 0o600);
    try {
      const result = await write(handle);
      if (this.#fsync) await handle.sync();
      await handle.close();
      await rename(temporary, path);
      return result;
    } catch (error) {
      await handle.close().catch(() => undefined);
      await rm(temporary, { force: true });
      throw error;
    }
  }
}

function itemPaths(directory: string, id: string): { readonly data: string; readonly sidecar: string } {
  return { data: join(directory, `${id}.bin`), sidecar: join(directory, `${id}.json`) };
}

async function writeBody(handle: FileHandle, body: MediaBody): Promise<number> {
  if (body instanceof Uint8Array) {
    await writeFully(handle, body);
    return body.byteLength;
  }
  const reader = body.getReader();
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return size;
      const chunk = checkChunk(value);
      await writeFully(handle, chunk);
      size += chunk.byteLength;
    }
  } catch (error) {
    reader.cancel(error).catch(() => undefined);
    throw error;
  }
}

async function writeFully(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.byteLength) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.byteLength - offset);
    offset += bytesWritten;
  }
}

function fileStream(handle: FileHandle, size: number, id: string): ReadableStream<Uint8Array> {
  let position = 0;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await handle.close();
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const length = Math.min(READ_CHUNK_BYTES, size - position);
          if (length <= 0) {
            await close();
            controller.close();
            return;
          }
          const buffer = new Uint8Array(length);
          const { bytesRead } = await handle.read(buffer, 0, length, position);
          if (bytesRead === 0)
            throw new RelayError('media_store_corrupt', `media ${id} ended after ${position} bytes`, {
              path: 'id',
            });
          position += bytesRead;
          controller.enqueue(bytesRead === length ? buffer : buffer.subarray(0, bytesRead));
        } catch (error) {
          await close().catch(() => undefined);
          throw error;
        }
      },
      cancel: close,
    },
    { highWaterMark: 0 },
  );
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

function parseSidecar(text: string, id: string): Sidecar {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new RelayError('media_store_corrupt', `the sidecar of media ${id} is not JSON`, {
      path: 'id',
      cause: error,
    });
  }
  const sidecar = value as Partial<Sidecar> | null;
  if (
    typeof sidecar !== 'object' ||
    sidecar === null ||
    sidecar.version !== SIDECAR_VERSION ||
    !isTenant(sidecar.tenant) ||
    !Number.isSafeInteger(sidecar.size) ||
    (sidecar.size as number) < 0 ||
    typeof sidecar.contentType !== 'string' ||
    (sidecar.filename !== undefined && typeof sidecar.filename !== 'string')
  ) {
    throw new RelayError(
      'media_store_corrupt',
      `the sidecar of media ${id} is not a version ${SIDECAR_VERSION} sidecar`,
      { path: 'id' },
    );
  }
  return sidecar as Sidecar;
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}
