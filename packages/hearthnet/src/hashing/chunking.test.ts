import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blake3Hex } from './blake3.js';
import { blobCid, CHUNK_SIZE_BYTES, chunkBlob } from './chunking.js';
import { contentId } from './content-id.js';
import { type Hasher, sha256Hasher } from './hasher.js';

function patternBytes(length: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => i % 251);
}

describe('chunkBlob', () => {
  it('uses 256 KiB chunks by default', () => {
    expect(CHUNK_SIZE_BYTES).toBe(262144);
  });

  it.each([
    [0, [0]],
    [1, [1]],
    [262143, [262143]],
    [262144, [262144]],
    [262145, [262144, 1]],
    [3 * 262144 + 7, [262144, 262144, 262144, 7]],
  ])('cuts %i bytes into chunks of sizes %j', (length, sizes) => {
    const data = patternBytes(length);
    const blob = chunkBlob(data);
    expect(blob.size_bytes).toBe(length);
    expect(blob.chunks.map((c) => c.size_bytes)).toEqual(sizes);
    expect(blob.chunks.map((c) => c.index)).toEqual(sizes.map((_, i) => i));
    blob.chunks.forEach((chunk, i) => {
      const start = i * CHUNK_SIZE_BYTES;
      expect(chunk.cid).toBe(`blake3:${blake3Hex(data.slice(start, start + chunk.size_bytes))}`);
    });
    expect(blob.cid).toBe(
      `blake3:${blake3Hex(
        blob.chunks
          .map((c) => c.cid)
          .sort()
          .join('\n'),
      )}`,
    );
  });

  it('turns an empty blob into exactly one empty chunk', () => {
    const emptyCid = contentId(new Uint8Array(0));
    expect(chunkBlob(new Uint8Array(0))).toEqual({
      chunks: [{ index: 0, cid: emptyCid, size_bytes: 0 }],
      cid: contentId(emptyCid),
      size_bytes: 0,
    });
  });

  it('honours a custom chunk size and hasher', () => {
    const data = patternBytes(10);
    const blob = chunkBlob(data, { chunkSizeBytes: 4, hasher: sha256Hasher });
    expect(blob.chunks).toEqual([
      { index: 0, cid: contentId(data.slice(0, 4), sha256Hasher), size_bytes: 4 },
      { index: 1, cid: contentId(data.slice(4, 8), sha256Hasher), size_bytes: 4 },
      { index: 2, cid: contentId(data.slice(8), sha256Hasher), size_bytes: 2 },
    ]);
    expect(blob.cid).toBe(
      blobCid(
        blob.chunks.map((c) => c.cid),
        sha256Hasher,
      ),
    );
    expect(blob.cid.startsWith('sha256:')).toBe(true);
  });

  it('hashes every chunk and the chunk list with an injected hasher', () => {
    const inputs: string[] = [];
    const recordingHasher: Hasher = {
      algorithm: 'recording',
      digest: (data) => {
        inputs.push(new TextDecoder().decode(data));
        return new Uint8Array(32).fill(inputs.length);
      },
    };
    const blob = chunkBlob(new TextEncoder().encode('abcde'), { chunkSizeBytes: 2, hasher: recordingHasher });
    expect(inputs.slice(0, 3)).toEqual(['ab', 'cd', 'e']);
    expect(inputs[3]).toBe(blob.chunks.map((c) => c.cid).join('\n'));
    expect(blob.cid).toBe(`recording:${'04'.repeat(32)}`);
  });

  it('keeps sizes and concatenated chunks equal to the blob for any size and chunk size', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 200 }),
        fc.integer({ min: 1, max: 64 }),
        (data, chunkSizeBytes) => {
          const { chunks, size_bytes } = chunkBlob(data, { chunkSizeBytes });
          expect(size_bytes).toBe(data.length);
          expect(chunks.reduce((sum, c) => sum + c.size_bytes, 0)).toBe(data.length);
          expect(chunks).toHaveLength(Math.max(1, Math.ceil(data.length / chunkSizeBytes)));
          expect(chunks.slice(0, -1).every((c) => c.size_bytes === chunkSizeBytes)).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '4'])(
    'rejects chunk size %p',
    (chunkSizeBytes) => {
      expect(() => chunkBlob(new Uint8Array(4), { chunkSizeBytes: chunkSizeBytes as number })).toThrow(
        expect.objectContaining({ code: 'invalid_chunk_size' }),
      );
    },
  );

  it('rejects a blob that is not bytes', () => {
    expect(() => chunkBlob('abc' as unknown as Uint8Array)).toThrow(
      expect.objectContaining({ code: 'invalid_hash_input' }),
    );
  });
});

describe('blobCid', () => {
  const cids = ['x', 'y', 'z', 'w'].map((s) => contentId(s));

  it('does not depend on chunk order', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(cids, { minLength: 4, maxLength: 4 }), (shuffled) => {
        expect(blobCid(shuffled)).toBe(blobCid(cids));
      }),
      { numRuns: 30 },
    );
  });

  it('hashes the sorted ids joined by newlines, without a trailing newline', () => {
    const sorted = [...cids].sort();
    expect(blobCid(cids)).toBe(contentId(sorted.join('\n')));
    expect(blobCid(cids)).not.toBe(contentId(`${sorted.join('\n')}\n`));
    expect(blobCid(cids, sha256Hasher)).toBe(contentId(sorted.join('\n'), sha256Hasher));
  });

  it('changes when a chunk id changes or repeats', () => {
    expect(blobCid([cids[0]!, cids[1]!])).not.toBe(blobCid([cids[0]!, cids[2]!]));
    expect(blobCid([cids[0]!, cids[0]!])).not.toBe(blobCid([cids[0]!]));
  });

  it('rejects entries that are not content ids', () => {
    expect(() => blobCid([cids[0]!, 'blake3:nope'])).toThrow(
      expect.objectContaining({ code: 'invalid_content_id' }),
    );
    expect(() => blobCid([cids[0]!, 7 as unknown as string])).toThrow(
      expect.objectContaining({ code: 'invalid_content_id' }),
    );
    expect(() => blobCid([cids[0]!.slice(7)])).toThrow(
      expect.objectContaining({ code: 'invalid_content_id' }),
    );
    expect(() => blobCid('blake3:abc' as unknown as string[])).toThrow(
      expect.objectContaining({ code: 'invalid_hash_input' }),
    );
  });
});
