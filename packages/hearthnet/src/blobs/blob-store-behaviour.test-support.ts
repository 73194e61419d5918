// Test support only (imported by *.test.ts, never by the package entries): the behaviour every
// BlobStore must show, run against each store.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asHearthNetError } from '../capabilities/error-body.js';
import { CapacityExceededError } from '../capabilities/hearthnet-errors.js';
import { blake3Hasher, blobCid, chunkBlob, contentId, type Hasher, sha256Hasher } from '../hashing.js';
import type { BlobStoreOptions } from './backed-blob-store.js';
import type { BlobManifest, BlobStore, BlobStoreEvent } from './blob-store.js';

/** Makes a new, empty store with these options (the caller cleans up what it made). */
export type CreateBlobStore = (options?: BlobStoreOptions) => Promise<BlobStore>;

const CHUNK = 4;

export function text(value: string): Uint8Array {
  return new TextEncoder().encode(value);
}

/** The wire manifest of `bytes` cut into `chunkSizeBytes` chunks. */
export function manifestOf(
  bytes: Uint8Array,
  chunkSizeBytes = CHUNK,
  hasher: Hasher = blake3Hasher,
): BlobManifest {
  const blob = chunkBlob(bytes, { chunkSizeBytes, hasher });
  return {
    cid: blob.cid,
    size_bytes: blob.size_bytes,
    chunk_size_bytes: chunkSizeBytes,
    chunks: blob.chunks.map((c) => ({ i: c.index, cid: c.cid, size_bytes: c.size_bytes })),
  };
}

/** Chunk `i` of `bytes` as `manifest` cuts it. */
export function chunkOf(bytes: Uint8Array, manifest: BlobManifest, i: number): Uint8Array {
  const start = i * manifest.chunk_size_bytes;
  return bytes.slice(start, start + (manifest.chunks[i]?.size_bytes ?? 0));
}

async function putChunksOf(store: BlobStore, bytes: Uint8Array, manifest: BlobManifest, indexes?: number[]) {
  for (const chunk of manifest.chunks) {
    if (indexes === undefined || indexes.includes(chunk.i))
      await store.putChunk(chunk.cid, chunkOf(bytes, manifest, chunk.i));
  }
}

/**
 * Registers the shared BlobStore behaviour tests. `propertyRuns` bounds the fast-check runs (a store on
 * disk is slower).
 */
export function describeBlobStoreBehaviour(
  name: string,
  createStore: CreateBlobStore,
  propertyRuns = 40,
): void {
  const create = (options: BlobStoreOptions = {}) => createStore({ chunkSizeBytes: CHUNK, ...options });

  describe(`${name}: BlobStore behaviour`, () => {
    describe('blobs', () => {
      it('stores a blob whole and reads it back, with the manifest of the reference chunker', async () => {
        const store = await create();
        const bytes = text('hello, hearth!');
        const manifest = await store.putBlob(bytes);
        expect(manifest).toEqual(manifestOf(bytes));
        expect(manifest.chunks.map((c) => c.size_bytes)).toEqual([4, 4, 4, 2]);
        expect(await store.readBlob(manifest.cid)).toEqual(bytes);
        expect(await store.getManifest(manifest.cid)).toEqual(manifest);
        expect(await store.list()).toEqual([manifest.cid]);
        expect(await store.usage()).toEqual({ bytes: 14, chunks: 4, blobs: 1 });
      });

      it('stores an empty blob as one empty chunk', async () => {
        const store = await create();
        const manifest = await store.putBlob(new Uint8Array(0));
        expect(manifest.chunks).toEqual([{ i: 0, cid: contentId(new Uint8Array(0)), size_bytes: 0 }]);
        expect(await store.readBlob(manifest.cid)).toEqual(new Uint8Array(0));
        expect(await store.usage()).toEqual({ bytes: 0, chunks: 1, blobs: 1 });
      });

      it('counts a chunk shared by blobs, or repeated in one, once', async () => {
        const store = await create();
        await store.putBlob(text('aaaaaaaabbbb'));
        await store.putBlob(text('aaaacccc'));
        expect(await store.usage()).toEqual({ bytes: 12, chunks: 3, blobs: 2 });
        await store.putBlob(text('aaaacccc'));
        expect(await store.usage()).toEqual({ bytes: 12, chunks: 3, blobs: 2 });
      });

      it('reads nothing for blobs it does not hold', async () => {
        const store = await create();
        const cid = contentId('nothing here');
        expect(await store.readBlob(cid)).toBeUndefined();
        expect(await store.getManifest(cid)).toBeUndefined();
        expect(await store.getChunk(cid)).toBeUndefined();
        expect(await store.hasChunk(cid)).toBe(false);
      });

      it('lists blob CIDs sorted, filtered by prefix', async () => {
        const store = await create();
        const cids = await Promise.all(
          ['one', 'two', 'three', 'four'].map(async (t) => (await store.putBlob(text(t))).cid),
        );
        const sorted = [...cids].sort();
        expect(await store.list()).toEqual(sorted);
        const prefix = sorted[2]!.slice(0, 9);
        expect(await store.list(prefix)).toEqual(sorted.filter((cid) => cid.startsWith(prefix)));
        expect(await store.list('sha256:')).toEqual([]);
        expect(await store.list('')).toEqual(sorted);
      });

      it('names new blobs with its hasher, and hands out bytes that do not alias what it keeps', async () => {
        const store = await create({ hasher: sha256Hasher });
        const bytes = text('sha-named blob');
        const manifest = await store.putBlob(bytes);
        expect(manifest).toEqual(manifestOf(bytes, CHUNK, sha256Hasher));
        bytes.fill(0);
        const chunk = await store.getChunk(manifest.chunks[0]!.cid);
        chunk?.fill(0);
        expect(await store.readBlob(manifest.cid)).toEqual(text('sha-named blob'));
      });
    });

    describe('chunks', () => {
      it('verifies chunk bytes against the CID before storing them', async () => {
        const store = await create();
        const cid = contentId('right');
        const error = await store.putChunk(cid, text('wrong')).catch((e: unknown) => e);
        expect(error).toMatchObject({
          code: 'chunk_mismatch',
          details: { expectedCid: cid, actualCid: contentId('wrong') },
        });
        expect(asHearthNetError(error)).toMatchObject({ code: 'bad_request', status: 400 });
        expect(await store.hasChunk(cid)).toBe(false);
        expect(await store.usage()).toEqual({ bytes: 0, chunks: 0, blobs: 0 });
        await store.putChunk(cid, text('right'));
        expect(await store.getChunk(cid)).toEqual(text('right'));
        expect(await store.hasChunk(cid)).toBe(true);
      });

      it('checks a sha256: chunk with SHA-256 and a blake3: chunk with BLAKE3, whatever its hasher', async () => {
        for (const hasher of [blake3Hasher, sha256Hasher]) {
          const store = await create({ hasher });
          await store.putChunk(contentId('x', sha256Hasher), text('x'));
          await store.putChunk(contentId('y', blake3Hasher), text('y'));
          await expect(store.putChunk(`sha256:${contentId('z').slice(7)}`, text('z'))).rejects.toThrow(
            expect.objectContaining({ code: 'chunk_mismatch' }),
          );
          expect(await store.getChunk(contentId('x', sha256Hasher))).toEqual(text('x'));
          expect(await store.hasChunk(`blake3:${contentId('x', sha256Hasher).slice(7)}`)).toBe(false);
        }
      });

      it('checks with an injected hasher of the same algorithm', async () => {
        let calls = 0;
        const countingBlake3: Hasher = {
          algorithm: 'blake3',
          digest: (data) => {
            calls += 1;
            return blake3Hasher.digest(data);
          },
        };
        const store = await create({ hasher: countingBlake3 });
        await store.putChunk(contentId('counted'), text('counted'));
        expect(calls).toBe(1);
        await store.putChunk(contentId('not counted', sha256Hasher), text('not counted'));
        expect(calls).toBe(1);
      });

      it('takes the same chunk again, also many times at once, as one chunk', async () => {
        const store = await create();
        const cid = contentId('same');
        await Promise.all(Array.from({ length: 8 }, () => store.putChunk(cid, text('same'))));
        await store.putChunk(cid, text('same'));
        expect(await store.usage()).toEqual({ bytes: 4, chunks: 1, blobs: 0 });
        expect(await store.getChunk(cid)).toEqual(text('same'));
      });
    });

    describe('manifests', () => {
      it('lists the chunks a manifest still needs, ascending', async () => {
        const store = await create();
        const bytes = text('0123456789abcdefghij');
        const manifest = manifestOf(bytes);
        expect(await store.missingChunks(manifest)).toEqual([0, 1, 2, 3, 4]);
        await putChunksOf(store, bytes, manifest, [1, 3]);
        expect(await store.missingChunks(manifest)).toEqual([0, 2, 4]);
        await putChunksOf(store, bytes, manifest);
        expect(await store.missingChunks(manifest)).toEqual([]);
      });

      it('stores a manifest only once every chunk is held, then advertises it once', async () => {
        const events: BlobStoreEvent[] = [];
        const store = await create({ onEvent: (event) => events.push(event) });
        const bytes = text('0123456789');
        const manifest = manifestOf(bytes);
        await putChunksOf(store, bytes, manifest, [0]);
        const error = await store.putManifest(manifest).catch((e: unknown) => e);
        expect(error).toMatchObject({
          code: 'missing_chunks',
          details: { cid: manifest.cid, missing: [1, 2] },
        });
        expect(asHearthNetError(error)).toMatchObject({ code: 'bad_request', status: 400 });
        expect(await store.getManifest(manifest.cid)).toBeUndefined();
        expect(events).toEqual([]);
        await putChunksOf(store, bytes, manifest);
        await store.putManifest(manifest);
        await store.putManifest(manifest);
        expect(events).toEqual([{ type: 'file.cid.advertised', cid: manifest.cid, size_bytes: 10 }]);
        expect(await store.readBlob(manifest.cid)).toEqual(bytes);
      });

      it('keeps only the known fields of a manifest', async () => {
        const store = await create();
        const bytes = text('abc');
        const manifest = { ...manifestOf(bytes), filename: 'abc.txt' } as BlobManifest;
        await putChunksOf(store, bytes, manifest);
        await store.putManifest(manifest);
        expect(await store.getManifest(manifest.cid)).toEqual(manifestOf(bytes));
      });

      it('refuses manifests that do not add up', async () => {
        const store = await create();
        const bytes = text('0123456789');
        const good = manifestOf(bytes);
        await putChunksOf(store, bytes, good);
        const [c0, c1, c2] = good.chunks as [
          BlobManifest['chunks'][0],
          BlobManifest['chunks'][0],
          BlobManifest['chunks'][0],
        ];
        const bad: [string, unknown][] = [
          ['cid', { ...good, cid: contentId('other') }],
          ['size_bytes', { ...good, size_bytes: 11 }],
          ['chunks[1].i', { ...good, chunks: [c0, { ...c1, i: 2 }, c2] }],
          ['chunks[1].size_bytes', { ...good, chunks: [c0, { ...c1, size_bytes: 3 }, c2] }],
          ['chunks', { ...good, chunks: [] }],
          ['chunk_size_bytes', { ...good, chunk_size_bytes: 0 }],
          ['chunks[0].cid', { ...good, chunks: [{ ...c0, cid: c0.cid.slice(7) }, c1, c2] }],
          ['$', null],
        ];
        for (const [field, manifest] of bad) {
          for (const call of [
            store.putManifest(manifest as BlobManifest),
            store.missingChunks(manifest as BlobManifest),
          ]) {
            const error = await call.catch((e: unknown) => e);
            expect(error, field).toMatchObject({ code: 'invalid_blob_manifest', path: field });
            expect(asHearthNetError(error), field).toMatchObject({ code: 'bad_request' });
          }
        }
        expect(await store.list()).toEqual([]);
      });

      it('refuses a manifest that reorders the chunks of a stored blob (the blob CID ignores order)', async () => {
        const store = await create();
        const bytes = text('aaaabbbb');
        const manifest = await store.putBlob(bytes);
        const swapped = {
          ...manifest,
          chunks: [manifest.chunks[1]!, manifest.chunks[0]!].map((c, i) => ({ ...c, i })),
        };
        expect(swapped.cid).toBe(blobCid(swapped.chunks.map((c) => c.cid)));
        await expect(store.putManifest(swapped)).rejects.toThrow(
          expect.objectContaining({ code: 'invalid_blob_manifest' }),
        );
        await expect(store.putBlob(text('bbbbaaaa'))).rejects.toThrow(
          expect.objectContaining({ code: 'invalid_blob_manifest' }),
        );
        expect(await store.readBlob(manifest.cid)).toEqual(bytes);
      });

      it('refuses a manifest whose chunk size differs from the chunk held under that CID', async () => {
        const store = await create();
        await store.putChunk(contentId('abc'), text('abc'));
        const lying = {
          cid: blobCid([contentId('abc')]),
          size_bytes: 2,
          chunk_size_bytes: 4,
          chunks: [{ i: 0, cid: contentId('abc'), size_bytes: 2 }],
        };
        await expect(store.missingChunks(lying)).rejects.toMatchObject({
          code: 'invalid_blob_manifest',
          path: 'chunks[0].size_bytes',
        });
        await expect(store.putManifest(lying)).rejects.toMatchObject({
          code: 'invalid_blob_manifest',
          path: 'chunks[0].size_bytes',
        });
      });
    });

    describe('pins and garbage collection', () => {
      it('pins and unpins, reporting unpins', async () => {
        const events: BlobStoreEvent[] = [];
        const store = await create({ onEvent: (event) => events.push(event) });
        const { cid } = await store.putBlob(text('keep me'), { pin: true });
        expect(await store.isPinned(cid)).toBe(true);
        await store.pin(cid);
        expect(await store.unpin(cid)).toBe(true);
        expect(await store.unpin(cid)).toBe(false);
        expect(await store.isPinned(cid)).toBe(false);
        const notHeld = contentId('later');
        await store.pin(notHeld);
        expect(await store.isPinned(notHeld)).toBe(true);
        expect(events.filter((e) => e.type === 'file.cid.unpinned')).toEqual([
          { type: 'file.cid.unpinned', cid },
        ]);
      });

      it('collects unpinned blobs oldest first down to the target, keeping pinned ones and shared chunks', async () => {
        const events: BlobStoreEvent[] = [];
        const store = await create({ onEvent: (event) => events.push(event) });
        const oldest = await store.putBlob(text('aaaabbbb'));
        const pinned = await store.putBlob(text('bbbbcccc'), { pin: true });
        const middle = await store.putBlob(text('dddd'));
        const newest = await store.putBlob(text('eeee'));
        events.length = 0;
        expect(await store.usage()).toMatchObject({ bytes: 20, chunks: 5 });
        const result = await store.collectGarbage(12);
        expect(result).toEqual({ removedBlobs: [oldest.cid, middle.cid], freedBytes: 8 });
        expect(events).toEqual([
          { type: 'file.cid.unpinned', cid: oldest.cid },
          { type: 'file.cid.unpinned', cid: middle.cid },
        ]);
        expect(await store.list()).toEqual([pinned.cid, newest.cid].sort());
        expect(await store.readBlob(pinned.cid)).toEqual(text('bbbbcccc'));
        expect(await store.usage()).toEqual({ bytes: 12, chunks: 3, blobs: 2 });
        expect(await store.collectGarbage()).toEqual({ removedBlobs: [newest.cid], freedBytes: 4 });
        expect(await store.collectGarbage()).toEqual({ removedBlobs: [], freedBytes: 0 });
        expect(await store.list()).toEqual([pinned.cid]);
      });

      it('keeps an unpinned blob whose chunks all belong to a pinned one', async () => {
        const store = await create();
        const pinned = await store.putBlob(text('aaaabbbb'), { pin: true });
        const copy = await store.putBlob(text('bbbb'));
        expect(await store.collectGarbage()).toEqual({ removedBlobs: [], freedBytes: 0 });
        expect(await store.list()).toEqual([pinned.cid, copy.cid].sort());
      });

      it('never collects chunks that belong to no blob yet (an upload in progress)', async () => {
        const store = await create();
        await store.putChunk(contentId('part'), text('part'));
        expect(await store.collectGarbage()).toEqual({ removedBlobs: [], freedBytes: 0 });
        expect(await store.hasChunk(contentId('part'))).toBe(true);
      });

      it('makes room for a chunk by collecting unpinned blobs when it would pass the capacity', async () => {
        const events: BlobStoreEvent[] = [];
        const store = await create({ capacityBytes: 12, onEvent: (event) => events.push(event) });
        const old = await store.putBlob(text('aaaa'));
        const pinned = await store.putBlob(text('bbbb'), { pin: true });
        const recent = await store.putBlob(text('cccc'));
        await store.putChunk(contentId('dddd'), text('dddd'));
        expect(await store.list()).toEqual([pinned.cid, recent.cid].sort());
        expect(events.at(-1)).toEqual({ type: 'file.cid.unpinned', cid: old.cid });
        expect(await store.usage()).toEqual({ bytes: 12, chunks: 3, blobs: 2 });
      });

      it('refuses a chunk that cannot fit with capacity_exceeded, storing and collecting nothing', async () => {
        const store = await create({ capacityBytes: 10 });
        const pinned = await store.putBlob(text('aaaabbbb'), { pin: true });
        const unpinned = await store.putBlob(text('cc'));
        const error = await store.putChunk(contentId('dddd'), text('dddd')).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(CapacityExceededError);
        expect(error).toMatchObject({ code: 'capacity_exceeded', status: 429 });
        expect(await store.hasChunk(contentId('dddd'))).toBe(false);
        expect(await store.list()).toEqual([pinned.cid, unpinned.cid].sort());
        await expect(store.putBlob(text('0123456789ab'))).rejects.toThrow(CapacityExceededError);
        expect(await store.usage()).toEqual({ bytes: 10, chunks: 3, blobs: 2 });
        await store.unpin(pinned.cid);
        await store.putChunk(contentId('dddd'), text('dddd'));
        expect(await store.hasChunk(contentId('dddd'))).toBe(true);
      });

      it('still applies a change when the event hook throws, then rejects with its error', async () => {
        const store = await create({
          onEvent: () => {
            throw new Error('hook failed');
          },
        });
        await expect(store.putBlob(text('abc'))).rejects.toThrow('hook failed');
        expect(await store.list()).toHaveLength(1);
      });
    });

    describe('input checks', () => {
      it('refuses malformed CIDs with a typed error, before touching storage', async () => {
        const store = await create();
        const bad = [
          'blake3:../../../etc/passwd',
          `../${'a'.repeat(62)}`,
          'a'.repeat(64),
          `BLAKE3:${'a'.repeat(64)}`,
          `blake3:${'A'.repeat(64)}`,
          `md5:${'a'.repeat(64)}`,
          `blake3:${'a'.repeat(63)}/`,
          '',
          42,
          undefined,
        ] as unknown as string[];
        for (const cid of bad) {
          for (const call of [
            () => store.hasChunk(cid),
            () => store.getChunk(cid),
            () => store.putChunk(cid, text('x')),
            () => store.getManifest(cid),
            () => store.readBlob(cid),
            () => store.pin(cid),
            () => store.unpin(cid),
            () => store.isPinned(cid),
          ]) {
            const error = await call().catch((e: unknown) => e);
            expect(error, String(cid)).toMatchObject({ code: 'invalid_blob_store_input' });
            expect(asHearthNetError(error)).toMatchObject({ code: 'bad_request', status: 400 });
          }
        }
      });

      it('refuses other malformed arguments with a typed error', async () => {
        const store = await create();
        const cid = contentId('x');
        await expect(store.putChunk(cid, 'x' as unknown as Uint8Array)).rejects.toMatchObject({
          code: 'invalid_blob_store_input',
          path: 'bytes',
        });
        await expect(store.putBlob([1, 2] as unknown as Uint8Array)).rejects.toMatchObject({
          code: 'invalid_blob_store_input',
          path: 'bytes',
        });
        await expect(store.putBlob(text('x'), { pin: 'yes' as unknown as boolean })).rejects.toThrow(
          expect.objectContaining({ code: 'invalid_blob_store_input' }),
        );
        await expect(store.list(7 as unknown as string)).rejects.toMatchObject({
          code: 'invalid_blob_store_input',
          path: 'prefix',
        });
        for (const target of [-1, 1.5, Number.NaN, '3']) {
          await expect(store.collectGarbage(target as number)).rejects.toMatchObject({
            code: 'invalid_blob_store_input',
            path: 'targetBytes',
          });
        }
      });

      it('refuses unusable options', async () => {
        const bad: BlobStoreOptions[] = [
          { capacityBytes: -1 },
          { capacityBytes: 1.5 },
          { chunkSizeBytes: 0 },
          { hasher: { algorithm: 'md5', digest: blake3Hasher.digest } },
          { onEvent: 'log' as unknown as () => void },
        ];
        for (const options of bad) {
          await expect(create(options)).rejects.toThrow(
            expect.objectContaining({ code: 'invalid_blob_store_options' }),
          );
        }
      });
    });

    describe('properties', () => {
      it('reads back any blob it stored, for any chunk size', async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.uint8Array({ maxLength: 300 }),
            fc.integer({ min: 1, max: 64 }),
            async (bytes, size) => {
              const store = await create({ chunkSizeBytes: size });
              const manifest = await store.putBlob(bytes);
              expect(manifest).toEqual(manifestOf(bytes, size));
              expect(await store.readBlob(manifest.cid)).toEqual(bytes);
              expect(await store.missingChunks(manifest)).toEqual([]);
            },
          ),
          { numRuns: propertyRuns },
        );
      });

      it('finds missing exactly the chunks not put', async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.uint8Array({ minLength: 1, maxLength: 200 }),
            fc.integer({ min: 1, max: 16 }),
            fc.infiniteStream(fc.boolean()),
            async (bytes, size, picks) => {
              const store = await create();
              const manifest = manifestOf(bytes, size);
              const put = manifest.chunks.map((c) => c.i).filter(() => picks.next().value as boolean);
              await putChunksOf(store, bytes, manifest, put);
              const heldCids = new Set(manifest.chunks.filter((c) => put.includes(c.i)).map((c) => c.cid));
              const expected = manifest.chunks.filter((c) => !heldCids.has(c.cid)).map((c) => c.i);
              expect(await store.missingChunks(manifest)).toEqual(expected);
            },
          ),
          { numRuns: propertyRuns },
        );
      });
    });
  });
}
