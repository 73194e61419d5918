import type { Dirent } from 'node:fs';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { BlobManifest } from '../blobs/store/blob-store.js';
import type { BlobStoreBackend, StoredBlobState, StoredChunk } from '../blobs/store/blob-store-backend.js';
import { digestHexOf, parseStoreContentId } from '../blobs/store/content-ids.js';
import type { Hasher } from '../hashing/hasher.js';
import { TEMP_FILE_PATTERN, writeFileAtomic } from './atomic-file.js';
import {
  CHUNK_FILE_PATTERN,
  chunkPath,
  MANIFEST_FILE_PATTERN,
  manifestFileText,
  manifestFromFileJson,
  manifestPath,
  PINNED_FILE,
  pinnedFileText,
  pinsFromFileText,
  SHARD_FOLDER_PATTERN,
} from './blob-layout.js';

/** Files in the reference `BlobStore` layout under one root folder. */
export class FilesystemBackend implements BlobStoreBackend {
  /** Files can change behind the store: every chunk read is hashed again. */
  readonly rehashReads = true;
  readonly #root: string;
  readonly #fsync: boolean;

  constructor(root: string, fsync: boolean) {
    this.#root = root;
    this.#fsync = fsync;
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
    await writeFileAtomic(chunkPath(this.#root, hex), bytes, this.#fsync);
  }

  async deleteChunk(hex: string): Promise<void> {
    await rm(chunkPath(this.#root, hex), { force: true });
  }

  async writeManifest(manifest: BlobManifest): Promise<void> {
    await writeFileAtomic(
      manifestPath(this.#root, digestHexOf(manifest.cid)),
      manifestFileText(manifest),
      this.#fsync,
    );
  }

  async deleteManifest(blobCid: string): Promise<void> {
    await rm(manifestPath(this.#root, digestHexOf(blobCid)), { force: true });
  }

  async writePins(pins: readonly string[]): Promise<void> {
    await writeFileAtomic(join(this.#root, PINNED_FILE), pinnedFileText(pins), this.#fsync);
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
