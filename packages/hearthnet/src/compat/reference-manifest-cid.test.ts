import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkBlob, contentId, sha256Hasher } from '../hashing.js';
import { type ReferenceManifestCidInput, referenceManifestCid } from './reference-manifests.js';

const manifestOf = (data: Uint8Array, chunkSizeBytes: number): ReferenceManifestCidInput => ({
  ...chunkBlob(data, { chunkSizeBytes }),
  chunk_size_bytes: chunkSizeBytes,
});

describe('referenceManifestCid', () => {
  it('hashes the sorted compact JSON of the three fields, whatever else the manifest carries', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.integer({ min: 1, max: 16 }), (data, chunkSize) => {
        const manifest = manifestOf(data, chunkSize);
        const json = JSON.stringify({
          chunk_size_bytes: chunkSize,
          chunks: manifest.chunks.map(({ cid, size_bytes }) => ({ cid, size_bytes })),
          size_bytes: data.length,
        });
        expect(referenceManifestCid(manifest)).toBe(contentId(json));
        expect(
          referenceManifestCid({ ...manifest, cid: 'ignored', filename: null } as ReferenceManifestCidInput),
        ).toBe(contentId(json));
      }),
      { numRuns: 100 },
    );
  });

  it('depends on chunk order, unlike the blob CID, and names the hasher', () => {
    const manifest = manifestOf(new TextEncoder().encode('emergency plan'), 4);
    const reversed = { ...manifest, chunks: [...manifest.chunks].reverse() };
    expect(referenceManifestCid(reversed)).not.toBe(referenceManifestCid(manifest));
    expect(referenceManifestCid(manifest, sha256Hasher)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('throws only its typed error for anything that is not a manifest', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        expect(() => referenceManifestCid(value as ReferenceManifestCidInput)).toThrow(
          expect.objectContaining({ code: 'malformed_reference_blob_manifest' }),
        );
      }),
      { numRuns: 200 },
    );
    const manifest = manifestOf(new Uint8Array([1, 2, 3]), 2);
    expect(() =>
      referenceManifestCid({ ...manifest, chunks: [{ cid: 'blake3:ABC', size_bytes: 2 }] }),
    ).toThrow(expect.objectContaining({ path: '$.chunks[0].cid' }));
    expect(() => referenceManifestCid({ ...manifest, size_bytes: 1.5 })).toThrow(
      expect.objectContaining({ code: 'malformed_reference_blob_manifest', path: '$.size_bytes' }),
    );
  });
});
