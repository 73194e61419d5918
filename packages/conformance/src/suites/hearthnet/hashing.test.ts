import { blake3Hex, blobCid, chunkBlob, contentId, parseContentId } from '@agentwire/hearthnet';
import { afterAll, describe, expect, it } from 'vitest';
import hashingFixture from '../../../fixtures/hearthnet/hashing.json' with { type: 'json' };
import { runSuite } from '../../run-suite.js';
import { registerSuite } from '../../vitest/index.js';
import { type HashingImplementation, hashingSuite } from './hashing.js';

const hearthnet: HashingImplementation = {
  blake3Hex,
  contentId: (bytes) => contentId(bytes),
  blobCid: (chunkCids) => blobCid(chunkCids),
  chunkBlob: (bytes, chunkSizeBytes) => chunkBlob(bytes, { chunkSizeBytes }),
  parseContentId: (cid) => parseContentId(cid),
};

describe('hashingSuite', () => {
  it('passes every case against @agentwire/hearthnet', async () => {
    const report = await runSuite(hashingSuite(hearthnet));
    expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.counts.passed).toBe(hashingSuite(hearthnet).cases.length);
  });

  it('skips the cases of a function left out, and the reason names the function to add', async () => {
    const report = await runSuite(hashingSuite({ blake3Hex }));
    const skipped = report.results.filter((r) => r.status === 'skipped');
    expect(report.ok).toBe(true);
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.find((r) => r.id === 'hearthnet.hashing.parse-uppercase-digest')?.reason).toBe(
      'the implementation lacks capability "parse-content-id": provide `parseContentId` in the HashingImplementation',
    );
  });

  it('has cases for every fixture entry and each optional function', () => {
    const ids = hashingSuite(hearthnet).cases.map((c) => c.id);
    expect(ids).toContain('hearthnet.hashing.blake3-utf8-hello');
    expect(ids).toContain('hearthnet.hashing.blake3-utf8-hello.content-id');
    expect(ids).toContain('hearthnet.hashing.chunk-default-size-four-chunks.chunks');
    expect(ids).toContain('hearthnet.hashing.chunk-default-size-four-chunks.blob-cid');
    expect(ids).toContain('hearthnet.hashing.chunk-default-size-four-chunks.chunk-blob');
    expect(ids).toContain('hearthnet.hashing.blob-cid-reversed-order');
    expect(new Set(hashingFixture.cases.map((c) => c.operation))).toEqual(
      new Set(['blake3', 'chunk-blob', 'blob-cid', 'parse-content-id']),
    );
  });

  it('fails a reader that takes any case of hex or algorithm, a blob CID that checks no id, and chunk sizes it rounds', async () => {
    const report = await runSuite(
      hashingSuite({
        ...hearthnet,
        parseContentId: (cid) => parseContentId(cid.toLowerCase()),
        blobCid: (chunkCids) => contentId([...chunkCids].sort().join('\n')),
        chunkBlob: (bytes, size) => chunkBlob(bytes, { chunkSizeBytes: Math.max(1, Math.round(size)) }),
      }),
    );
    const failed = report.results.filter((r) => r.status === 'failed').map((r) => r.id);
    expect(failed).toEqual([
      'hearthnet.hashing.parse-uppercase-digest',
      'hearthnet.hashing.parse-bare-uppercase',
      // 42.toLowerCase() throws a TypeError, not a typed refusal.
      'hearthnet.hashing.parse-not-a-string',
      'hearthnet.hashing.blob-cid-malformed-chunk-id',
      'hearthnet.hashing.blob-cid-bare-chunk-id',
      'hearthnet.hashing.blob-cid-uppercase-algorithm',
      'hearthnet.hashing.chunk-blob-size-zero',
      'hearthnet.hashing.chunk-blob-size-negative',
      'hearthnet.hashing.chunk-blob-size-fraction',
      'hearthnet.hashing.blob-cid-long-chunk-id',
    ]);
  });

  it('skips the content-id, blob-cid and chunk-blob cases for a digest-only implementation', async () => {
    const report = await runSuite(hashingSuite({ blake3Hex }));
    const skipped = report.results.filter((r) => r.status === 'skipped').map((r) => r.id);
    expect(skipped).toContain('hearthnet.hashing.blake3-utf8-abc.content-id');
    expect(skipped).toContain('hearthnet.hashing.blob-cid-mixed-order');
    expect(
      report.results.filter((r) => r.status === 'passed').every((r) => !r.id.endsWith('.content-id')),
    ).toBe(true);
    expect(report.ok).toBe(true);
  });

  it('fails the cases a wrong implementation gets wrong', async () => {
    const report = await runSuite(
      hashingSuite({
        ...hearthnet,
        // Uppercase hex, a blob CID that keeps chunk order, and chunking that drops the empty chunk.
        blake3Hex: (bytes) => blake3Hex(bytes).toUpperCase(),
        blobCid: (chunkCids) => contentId(chunkCids.join('\n')),
        chunkBlob: (bytes, size) => {
          const blob = chunkBlob(bytes, { chunkSizeBytes: size });
          return bytes.length === 0 ? { ...blob, chunks: [] } : blob;
        },
      }),
    );
    const failed = new Set(report.results.filter((r) => r.status === 'failed').map((r) => r.id));
    expect(failed.has('hearthnet.hashing.blake3-utf8-abc')).toBe(true);
    expect(failed.has('hearthnet.hashing.blake3-utf8-abc.content-id')).toBe(false);
    expect(failed.has('hearthnet.hashing.blob-cid-reversed-order')).toBe(true);
    expect(failed.has('hearthnet.hashing.chunk-empty-blob.chunk-blob')).toBe(true);
    expect(failed.has('hearthnet.hashing.chunk-three-chunks.chunk-blob')).toBe(false);
  });
});

describe('hashingSuite through registerSuite', () => {
  registerSuite(hashingSuite(hearthnet), { describe, it, afterAll });
});
