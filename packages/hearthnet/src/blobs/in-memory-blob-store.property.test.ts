// Random blobs through InMemoryBlobStore: the fixed samples of `blobStoreSuite` (@agentwire/conformance)
// pin the contract; this property keeps fresh inputs flowing through the store on every run.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkBlob } from '../hashing.js';
import { InMemoryBlobStore } from './backed-blob-store.js';
import type { BlobManifest } from './blob-store.js';

const bytesOf = (bytes: Uint8Array, index: number, size: number) =>
  bytes.subarray(index * size, (index + 1) * size);

describe('InMemoryBlobStore with random blobs', () => {
  it('gives back every chunk and the manifest it stored, and reports exactly the chunks it lacks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 300 }),
        fc.integer({ min: 1, max: 64 }),
        fc.array(fc.boolean(), { minLength: 0, maxLength: 300 }),
        async (bytes, chunkSizeBytes, keep) => {
          const store = new InMemoryBlobStore({ chunkSizeBytes });
          const blob = chunkBlob(bytes, { chunkSizeBytes });
          const manifest: BlobManifest = {
            cid: blob.cid,
            size_bytes: blob.size_bytes,
            chunk_size_bytes: chunkSizeBytes,
            chunks: blob.chunks.map((c) => ({ i: c.index, cid: c.cid, size_bytes: c.size_bytes })),
          };
          const kept = blob.chunks.filter((_, i) => keep[i] ?? true);
          for (const chunk of kept)
            await store.putChunk(chunk.cid, bytesOf(bytes, chunk.index, chunkSizeBytes));
          const keptCids = new Set(kept.map((c) => c.cid));
          const lacking = blob.chunks.filter((c) => !keptCids.has(c.cid)).map((c) => c.index);
          expect(await store.missingChunks(manifest)).toEqual(lacking);
          if (lacking.length > 0) {
            await expect(store.putManifest(manifest)).rejects.toMatchObject({ code: 'missing_chunks' });
            return;
          }
          await store.putManifest(manifest);
          expect(await store.getManifest(blob.cid)).toEqual(manifest);
          for (const chunk of blob.chunks) {
            expect(await store.getChunk(chunk.cid)).toEqual(bytesOf(bytes, chunk.index, chunkSizeBytes));
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
