import type { Dirent } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isJsonObject } from '@agentwire/internal';
import { type AtomicWriteOptions, TEMP_FILE_PATTERN, writeFileAtomic } from '@agentwire/internal/node';
import { BackedBlobStore, type BlobStoreOptions, checkBlobStoreOptions } from '../blobs/backed-blob-store.js';
import { digestHexOf, parseBlobManifest, parseStoreContentId } from '../blobs/blob-manifest.js';
import type { BlobManifest, BlobStoreBackend, StoredBlobState, StoredChunk } from '../blobs/blob-store.js';
import { HearthNetLocalError } from '../errors.js';
import type { Hasher } from '../hashing.js';

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

/** Files in the reference `BlobStore` layout under one root folder. */
export class FilesystemBackend implements BlobStoreBackend {
  /** Files can change behind the store: every chunk read is hashed again. */
  readonly rehashReads = true;
  readonly #root: string;
  /** With `fsync`, each file is flushed before its rename and its folder after it. */
  readonly #writeOptions: AtomicWriteOptions;

  constructor(root: string, fsync: boolean) {
    this.#root = root;
    this.#writeOptions = { fsync, syncFolder: fsync, createFolder: true };
  }

  async readChunk(hex: string): Promise<Uint8Array | undefined> {
    try {
      const data = await readFile(chunkPath(this.#root, hex));
      return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    } catch (error) {
      if (isMissingFile(error)) return undefined;
      throw error;
    }
  }

  async writeChunk(hex: string, bytes: Uint8Array): Promise<void> {
    await writeFileAtomic(chunkPath(this.#root, hex), bytes, this.#writeOptions);
  }

  async deleteChunk(hex: string): Promise<void> {
    await rm(chunkPath(this.#root, hex), { force: true });
  }

  async writeManifest(manifest: BlobManifest): Promise<void> {
    await writeFileAtomic(
      manifestPath(this.#root, digestHexOf(manifest.cid)),
      manifestFileText(manifest),
      this.#writeOptions,
    );
  }

  async deleteManifest(blobCid: string): Promise<void> {
    await rm(manifestPath(this.#root, digestHexOf(blobCid)), { force: true });
  }

  async writePins(pins: readonly string[]): Promise<void> {
    await writeFileAtomic(join(this.#root, PINNED_FILE), pinnedFileText(pins), this.#writeOptions);
  }

  /**
   * Reads what the root holds: chunk files and their sizes, the manifests that are valid and filed
   * under their own CID (oldest file first), and the valid CIDs of `pinned.txt`. Temporary files left by
   * an interrupted write are deleted; other files are left alone.
   */
  async load(hasher: Hasher): Promise<StoredBlobState> {
    const chunks: StoredChunk[] = [];
    const manifests: { readonly manifest: BlobManifest; readonly mtimeMs: number }[] = [];
    const rootEntries = await readdir(this.#root, { withFileTypes: true });
    const leftovers = rootEntries.filter((entry) => entry.isFile() && TEMP_FILE_PATTERN.test(entry.name));
    await Promise.all(leftovers.map((entry) => rm(join(this.#root, entry.name), { force: true })));
    const shards = rootEntries.filter(
      (entry) => entry.isDirectory() && SHARD_FOLDER_PATTERN.test(entry.name),
    );
    await Promise.all(
      shards.map(async (shard) => {
        const folder = join(this.#root, shard.name);
        const files = await readdir(folder, { withFileTypes: true });
        await Promise.all(
          files.map(async (file) => {
            const found = await this.#loadShardFile(folder, shard.name, file, hasher);
            if (found?.kind === 'chunk') chunks.push(found.chunk);
            else if (found?.kind === 'manifest') manifests.push(found);
          }),
        );
      }),
    );
    manifests.sort((a, b) => a.mtimeMs - b.mtimeMs || compareStrings(a.manifest.cid, b.manifest.cid));
    chunks.sort((a, b) => compareStrings(a.hex, b.hex));
    return { chunks, manifests: manifests.map((m) => m.manifest), pins: await this.#loadPins() };
  }

  async #loadShardFile(
    folder: string,
    shard: string,
    file: Dirent,
    hasher: Hasher,
  ): Promise<
    | { readonly kind: 'chunk'; readonly chunk: StoredChunk }
    | { readonly kind: 'manifest'; readonly manifest: BlobManifest; readonly mtimeMs: number }
    | undefined
  > {
    if (!file.isFile()) return undefined;
    const path = join(folder, file.name);
    if (TEMP_FILE_PATTERN.test(file.name)) {
      await rm(path, { force: true });
      return undefined;
    }
    const chunkName = CHUNK_FILE_PATTERN.exec(file.name);
    if (chunkName !== null) {
      return {
        kind: 'chunk',
        chunk: { hex: `${shard}${chunkName[1]}`, size_bytes: (await stat(path)).size },
      };
    }
    const manifestName = MANIFEST_FILE_PATTERN.exec(file.name);
    if (manifestName === null) return undefined;
    const [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    let manifest: BlobManifest;
    try {
      manifest = manifestFromFileJson(JSON.parse(text), hasher);
    } catch {
      return undefined; // Not a manifest this store can use; left as it is.
    }
    if (digestHexOf(manifest.cid) !== `${shard}${manifestName[1]}`) return undefined;
    return { kind: 'manifest', manifest, mtimeMs: info.mtimeMs };
  }

  async #loadPins(): Promise<string[]> {
    let text: string;
    try {
      text = await readFile(join(this.#root, PINNED_FILE), 'utf8');
    } catch (error) {
      if (isMissingFile(error)) return [];
      throw error;
    }
    return pinsFromFileText(text).filter((cid) => {
      try {
        parseStoreContentId(cid, 'pin');
        return true;
      } catch {
        return false;
      }
    });
  }
}

function isMissingFile(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The file of pinned blob CIDs, in the store's root. */
export const PINNED_FILE = 'pinned.txt';

/** A shard folder of the layout: the first two hex digits of the CIDs filed in it. */
export const SHARD_FOLDER_PATTERN = /^[0-9a-f]{2}$/;
/** A chunk file in a shard folder: the other 62 hex digits, then `.bin`. */
export const CHUNK_FILE_PATTERN = /^([0-9a-f]{62})\.bin$/;
/** A manifest file in a shard folder: the other 62 hex digits of the blob CID, then `.manifest.json`. */
export const MANIFEST_FILE_PATTERN = /^([0-9a-f]{62})\.manifest\.json$/;

const digestHex = /^[0-9a-f]{64}$/;

/** `<root>/<first 2 hex>/<other 62 hex>.bin`, the reference store's chunk path. */
export function chunkPath(root: string, hex: string): string {
  return shardedPath(root, hex, '.bin');
}

/** `<root>/<first 2 hex>/<other 62 hex>.manifest.json`, the reference store's manifest path. */
export function manifestPath(root: string, hex: string): string {
  return shardedPath(root, hex, '.manifest.json');
}

/**
 * A manifest as the reference store writes it: keys sorted, two-space indent, no final newline, chunk
 * positions under `index`, and `filename` (advisory in the reference) as `null`.
 */
export function manifestFileText(manifest: BlobManifest): string {
  const sortedForm = {
    chunk_size_bytes: manifest.chunk_size_bytes,
    chunks: manifest.chunks.map((c) => ({ cid: c.cid, index: c.i, size_bytes: c.size_bytes })),
    cid: manifest.cid,
    filename: null,
    size_bytes: manifest.size_bytes,
  };
  return JSON.stringify(sortedForm, null, 2);
}

/**
 * A manifest file's parsed JSON (reference form, `index` for the chunk position) as a checked
 * manifest; the `filename` the reference may have written is not kept.
 *
 * @throws {HearthNetLocalError} `invalid_blob_manifest` when it is not a valid manifest.
 */
export function manifestFromFileJson(value: unknown, hasher: Hasher): BlobManifest {
  const record = isJsonObject(value) ? value : {};
  const chunks = Array.isArray(record['chunks'])
    ? record['chunks'].map((c: unknown) =>
        isJsonObject(c) ? { i: c['index'], cid: c['cid'], size_bytes: c['size_bytes'] } : c,
      )
    : record['chunks'];
  return parseBlobManifest(isJsonObject(value) ? { ...record, chunks } : value, hasher);
}

/** `pinned.txt` as the reference writes it: the CIDs sorted, one a line, no final newline. */
export function pinnedFileText(pins: readonly string[]): string {
  return pins.join('\n');
}

/** The CIDs of a `pinned.txt`, one a line; blank lines and surrounding spaces are ignored. */
export function pinsFromFileText(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function shardedPath(root: string, hex: string, suffix: string): string {
  // Only 64 lowercase hex digits ever become a path: no separators, no `..`.
  if (!digestHex.test(hex))
    throw new HearthNetLocalError(
      'invalid_blob_store_input',
      `invalid cid: its digest is not 64 lowercase hex`,
      { path: 'cid' },
    );
  return join(root, hex.slice(0, 2), `${hex.slice(2)}${suffix}`);
}
