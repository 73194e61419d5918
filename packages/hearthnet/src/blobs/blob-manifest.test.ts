import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asHearthNetError } from '../capabilities/error-body.js';
import { HearthNetLocalError } from '../errors.js';
import { blake3Hasher, blobCid, chunkBlob, contentId, type Hasher, sha256Hasher } from '../hashing.js';
import { parseBlobManifest, verifyChunkBytes } from './blob-manifest.js';
import type { BlobManifest } from './blob-store.js';

function text(value: string): Uint8Array {
  return new TextEncoder().encode(value);
}

/** The wire manifest the reference chunker makes of `bytes`. */
function manifestOf(bytes: Uint8Array, chunkSizeBytes: number, hasher: Hasher = blake3Hasher): BlobManifest {
  const blob = chunkBlob(bytes, { chunkSizeBytes, hasher });
  return {
    cid: blob.cid,
    size_bytes: blob.size_bytes,
    chunk_size_bytes: chunkSizeBytes,
    chunks: blob.chunks.map((c) => ({ i: c.index, cid: c.cid, size_bytes: c.size_bytes })),
  };
}

function fieldOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof HearthNetLocalError && error.code === 'invalid_blob_manifest') return error.path;
    throw error;
  }
  return undefined;
}

describe('parseBlobManifest', () => {
  it('accepts every manifest the reference chunker makes, and returns a frozen copy of its known fields', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 120 }),
        fc.integer({ min: 1, max: 32 }),
        fc.boolean(),
        (bytes, size, sha) => {
          const manifest = manifestOf(bytes, size, sha ? sha256Hasher : blake3Hasher);
          const parsed = parseBlobManifest({ ...manifest, filename: 'x.pdf', extra: 1 });
          expect(parsed).toEqual(manifest);
          expect(
            Object.isFrozen(parsed) && Object.isFrozen(parsed.chunks) && Object.isFrozen(parsed.chunks[0]),
          ).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('checks a sha256: manifest with SHA-256 whatever hasher it is given', () => {
    const manifest = manifestOf(text('abcdefgh'), 4, sha256Hasher);
    expect(parseBlobManifest(manifest, blake3Hasher)).toEqual(manifest);
  });

  it('names the field that is wrong', () => {
    const good = manifestOf(text('0123456789'), 4);
    const [c0, c1, c2] = good.chunks as [
      (typeof good.chunks)[0],
      (typeof good.chunks)[0],
      (typeof good.chunks)[0],
    ];
    const emptyTail = { i: 2, cid: contentId(''), size_bytes: 0 };
    const cases: [string, unknown][] = [
      ['$', 'manifest'],
      ['$', []],
      ['cid', { ...good, cid: 7 }],
      ['size_bytes', { ...good, size_bytes: -1 }],
      ['size_bytes', { ...good, size_bytes: 1.5 }],
      ['chunk_size_bytes', { ...good, chunk_size_bytes: '4' }],
      ['chunks', { ...good, chunks: 'none' }],
      ['chunks[1]', { ...good, chunks: [c0, null, c2] }],
      ['chunks[0].i', { ...good, chunks: [{ ...c0, i: '0' }, c1, c2] }],
      ['chunks[2].cid', { ...good, chunks: [c0, c1, { ...c2, cid: contentId('89', sha256Hasher) }] }],
      ['chunks[2].size_bytes', { ...good, chunks: [c0, c1, { ...c2, size_bytes: 5 }] }],
      ['chunks[2].size_bytes', { ...good, size_bytes: 8, chunks: [c0, c1, emptyTail] }],
      ['chunks[0].size_bytes', { ...good, chunks: [{ ...c0, size_bytes: 3 }, c1, c2] }],
      ['size_bytes', { ...good, size_bytes: 9 }],
      ['cid', { ...good, cid: blobCid([c0.cid, c1.cid]) }],
      ['chunks[0].cid', { ...good, cid: blobCid([c0.cid, c1.cid, c2.cid], sha256Hasher) }],
    ];
    for (const [field, manifest] of cases) {
      expect(
        fieldOf(() => parseBlobManifest(manifest)),
        JSON.stringify(manifest),
      ).toBe(field);
    }
  });

  it('reports errors as invalid_blob_manifest, answered as bad_request', () => {
    const error = (() => {
      try {
        parseBlobManifest({});
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toMatchObject({ code: 'invalid_blob_manifest' });
    expect(asHearthNetError(error)).toMatchObject({ code: 'bad_request', status: 400 });
  });
});

describe('verifyChunkBytes', () => {
  it('passes bytes that hash to the id, with the id’s algorithm', () => {
    expect(() => verifyChunkBytes(contentId('hi'), text('hi'))).not.toThrow();
    expect(() => verifyChunkBytes(contentId('hi', sha256Hasher), text('hi'))).not.toThrow();
    expect(() => verifyChunkBytes(contentId('hi', sha256Hasher), text('hi'), blake3Hasher)).not.toThrow();
  });

  it('throws typed errors for other bytes and malformed arguments', () => {
    expect(() => verifyChunkBytes(contentId('hi'), text('ho'))).toThrow(
      expect.objectContaining({ code: 'chunk_mismatch' }),
    );
    expect(() => verifyChunkBytes('hi', text('hi'))).toThrow(
      expect.objectContaining({ code: 'invalid_blob_store_input' }),
    );
    expect(() => verifyChunkBytes(contentId('hi'), 'hi' as unknown as Uint8Array)).toThrow(
      expect.objectContaining({ code: 'invalid_blob_store_input' }),
    );
  });
});
