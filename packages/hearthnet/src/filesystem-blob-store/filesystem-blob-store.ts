import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  BackedBlobStore,
  type BlobStoreOptions,
  checkBlobStoreOptions,
} from '../blobs/store/backed-blob-store.js';
import type { StoredBlobState } from '../blobs/store/blob-store-backend.js';
import { HearthNetLocalError } from '../errors.js';
import { FilesystemBackend } from './filesystem-backend.js';

/** Options of {@link FilesystemBlobStore.open}. */
export interface FilesystemBlobStoreOptions extends BlobStoreOptions {
  /** The store's folder; made when missing. */
  readonly root: string;
  /** Flush every file, and its folder, to disk before a write counts as done. Default `false`. */
  readonly fsync?: boolean;
}

/**
 * A `BlobStore` in a folder, in the reference `BlobStore` layout: `<root>/<aa>/<rest>.bin` per
 * chunk and `<root>/<aa>/<rest>.manifest.json` per blob (`aa` the first two hex digits of the CID,
 * `rest` the other 62), and `<root>/pinned.txt`. Every file is written to a temporary file in the same
 * folder and renamed into place; every chunk read is hashed again, so a damaged file reads as
 * `corrupt_chunk`, counts as missing and is rewritten by the next put of that chunk. Opening
 * the folder again finds all blobs, pins and usage. One store (one process) should own a folder.
 *
 * @example
 * ```ts
 * import { FilesystemBlobStore } from '@agentwire/hearthnet/filesystem-blob-store';
 *
 * const store = await FilesystemBlobStore.open({ root: './blobs', capacityBytes: 2 ** 30 });
 * const { cid } = await store.putBlob(await readFile('plan.pdf'), { pin: true });
 * ```
 */
export class FilesystemBlobStore extends BackedBlobStore {
  /** The store's folder, absolute. */
  readonly root: string;

  private constructor(
    root: string,
    backend: FilesystemBackend,
    state: StoredBlobState,
    options: BlobStoreOptions,
  ) {
    super(backend, state, options);
    this.root = root;
  }

  /**
   * Opens (or makes) the store in `options.root` and reads what it holds.
   *
   * @throws {HearthNetLocalError} `invalid_blob_store_options` when an option is unusable.
   */
  static async open(options: FilesystemBlobStoreOptions): Promise<FilesystemBlobStore> {
    const { root, fsync = false, ...storeOptions } = options ?? ({} as FilesystemBlobStoreOptions);
    if (typeof root !== 'string' || root === '') {
      throw new HearthNetLocalError('invalid_blob_store_options', 'root must be a non-empty folder path');
    }
    if (typeof fsync !== 'boolean')
      throw new HearthNetLocalError('invalid_blob_store_options', 'fsync must be a boolean');
    const { hasher } = checkBlobStoreOptions(storeOptions);
    const absoluteRoot = resolve(root);
    await mkdir(absoluteRoot, { recursive: true });
    const backend = new FilesystemBackend(absoluteRoot, fsync);
    return new FilesystemBlobStore(absoluteRoot, backend, await backend.load(hasher), storeOptions);
  }
}
