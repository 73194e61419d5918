import { afterAll, describe, expect, it } from 'vitest';
import blobTransferFixture from '../../../fixtures/hearthnet/blob-transfer.json' with { type: 'json' };
import { runSuite } from '../../run-suite.js';
import { registerSuite } from '../../vitest/index.js';
import { agentwireBlobs } from './agentwire-blobs.js';
import { type BlobTransferImplementation, blobTransferSuite } from './blob-transfer.js';

async function failedCases(implementation: BlobTransferImplementation): Promise<string[]> {
  const report = await runSuite(blobTransferSuite(implementation));
  expect(report.errors).toEqual([]);
  return report.results
    .filter((r) => r.status === 'failed')
    .map((r) => r.id.replace('hearthnet.blob-transfer.', ''));
}

const idsWithTag = (tag: string) =>
  blobTransferFixture.cases.filter((c) => c.tags.includes(tag)).map((c) => c.id);

describe('blobTransferSuite', () => {
  it('passes every case against @agentwire/hearthnet/blobs', async () => {
    const report = await runSuite(blobTransferSuite(agentwireBlobs));
    expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
    expect(report.counts.passed).toBe(blobTransferFixture.cases.length);
  });

  it('covers manifests, valid, reordered and refused reads, ready lists and puts', () => {
    const operations = blobTransferFixture.cases.map((c) => c.operation);
    expect(new Set(operations)).toEqual(new Set(['manifest', 'read', 'put-ready', 'put', 'serve']));
    expect(idsWithTag('reordered').filter((id) => id.startsWith('read-')).length).toBeGreaterThanOrEqual(3);
    const readErrors = new Set(blobTransferFixture.cases.flatMap((c) => ('error' in c ? [c.error] : [])));
    expect(readErrors).toEqual(
      new Set(['chunk_mismatch', 'manifest_mismatch', 'incomplete', 'not_found', 'bad_request']),
    );
    expect(idsWithTag('empty')).toEqual([
      'manifest-empty',
      'ready-empty-blob',
      'put-empty-blob',
      'serve-empty-blob',
    ]);
  });

  it('skips the read and put cases for a manifest-only implementation', async () => {
    const report = await runSuite(blobTransferSuite({ manifest: agentwireBlobs.manifest }));
    expect(report.ok).toBe(true);
    const manifests = blobTransferFixture.cases.filter((c) => c.operation === 'manifest').length;
    expect(report.counts.passed).toBe(manifests);
    expect(report.counts.skipped).toBe(blobTransferFixture.cases.length - manifests);
  });

  it('fails a manifest builder that keeps chunk order in the blob CID', async () => {
    const failed = await failedCases({
      manifest: async (bytes, size) => {
        const manifest = await agentwireBlobs.manifest(bytes, size);
        return { ...manifest, cid: manifest.chunks.length > 1 ? 'blake3:unsorted' : manifest.cid };
      },
    });
    expect(failed).toContain('manifest-note');
    expect(failed).not.toContain('manifest-empty');
  });

  it('fails a client that trusts chunks without hashing them, in exactly the corrupted cases', async () => {
    const failed = await failedCases({
      ...agentwireBlobs,
      // Rewrites every chunk frame's data to what the manifest promises, as a client that does not verify would see it.
      read: async (cid, sse) => {
        try {
          return await agentwireBlobs.read!(cid, sse);
        } catch (error) {
          if ((error as { details?: { reason?: string } }).details?.reason === 'chunk_mismatch')
            return new Uint8Array(0);
          throw error;
        }
      },
    });
    expect(failed.sort()).toEqual(idsWithTag('corrupted').sort());
  });

  it('fails a client that needs chunks in manifest order', async () => {
    const failed = await failedCases({
      ...agentwireBlobs,
      read: async (cid, sse) => {
        const indexes = [...sse.matchAll(/event: chunk\ndata: \{"i":(\d+)/g)].map((m) => Number(m[1]));
        if (indexes.some((index, position) => position > 0 && index < indexes[position - 1]!)) {
          throw Object.assign(new Error('chunk out of order'), { code: 'incomplete' });
        }
        return agentwireBlobs.read!(cid, sse);
      },
    });
    expect(failed).toEqual(
      expect.arrayContaining(['read-reversed', 'read-interleaved', 'read-repeated-content-reordered']),
    );
    expect(failed).not.toContain('read-note');
  });

  it('fails a server that asks for every chunk and accepts any bytes', async () => {
    const failed = await failedCases({
      ...agentwireBlobs,
      putReady: async (manifest) => (manifest as { chunks: unknown[] }).chunks.map((_, i) => i),
    });
    expect(failed.sort()).toEqual(
      ['ready-some-held', 'ready-all-held', 'ready-repeated-content-held'].sort(),
    );
  });
});

describe('blobTransferSuite through registerSuite', () => {
  registerSuite(blobTransferSuite(agentwireBlobs), { describe, it, afterAll });
});
