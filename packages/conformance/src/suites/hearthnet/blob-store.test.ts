import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blake3Hasher, contentId, sha256Hasher } from '@agentwire/hearthnet';
import {
  type BlobManifest,
  type BlobStore,
  type BlobStoreOptions,
  InMemoryBlobStore,
} from '@agentwire/hearthnet/blobs';
import { asHearthNetError } from '@agentwire/hearthnet/capabilities';
import { FilesystemBlobStore } from '@agentwire/hearthnet/filesystem-blob-store';
import { afterAll, describe, expect, it } from 'vitest';
import { runSuite } from '../../run-suite.js';
import { registerSuite } from '../../vitest/index.js';
import { blobStoreSuite } from './blob-store.js';

const inMemory = (options: BlobStoreOptions) => new InMemoryBlobStore(options);

/** Filesystem stores, each in its own temp folder, all removed by `dispose`. */
function onDisk() {
  const roots: string[] = [];
  return {
    create: async (options: BlobStoreOptions) => {
      const root = await mkdtemp(join(tmpdir(), 'conformance-blob-store-'));
      roots.push(root);
      return FilesystemBlobStore.open({ ...options, root });
    },
    dispose: async () => {
      await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
    },
  };
}

/** Forwards every call to a real store; each broken double below overrides one method with a small mistake. */
class ForwardingStore implements BlobStore {
  constructor(protected readonly inner: BlobStore) {}
  hasChunk(cid: string) {
    return this.inner.hasChunk(cid);
  }
  getChunk(cid: string) {
    return this.inner.getChunk(cid);
  }
  putChunk(cid: string, bytes: Uint8Array) {
    return this.inner.putChunk(cid, bytes);
  }
  missingChunks(manifest: BlobManifest) {
    return this.inner.missingChunks(manifest);
  }
  getManifest(cid: string) {
    return this.inner.getManifest(cid);
  }
  putManifest(manifest: BlobManifest) {
    return this.inner.putManifest(manifest);
  }
  readBlob(cid: string) {
    return this.inner.readBlob(cid);
  }
  putBlob(bytes: Uint8Array, options?: Parameters<BlobStore['putBlob']>[1]) {
    return this.inner.putBlob(bytes, options);
  }
  list(prefix?: string) {
    return this.inner.list(prefix);
  }
  pin(cid: string) {
    return this.inner.pin(cid);
  }
  unpin(cid: string) {
    return this.inner.unpin(cid);
  }
  isPinned(cid: string) {
    return this.inner.isPinned(cid);
  }
  usage() {
    return this.inner.usage();
  }
  collectGarbage(targetBytes?: number) {
    return this.inner.collectGarbage(targetBytes);
  }
}

/** Keeps chunk bytes that do not hash to their CID instead of refusing them. */
class TrustingStore extends ForwardingStore {
  readonly #unverified = new Map<string, Uint8Array>();
  override async putChunk(cid: string, bytes: Uint8Array) {
    // Malformed CIDs still go to the real store, which refuses them: the double skips only the hash.
    const wellFormed = typeof cid === 'string' && /^(blake3|sha256):[0-9a-f]{64}$/.test(cid);
    const hasher = wellFormed && cid.startsWith('sha256:') ? sha256Hasher : blake3Hasher;
    if (wellFormed && contentId(bytes, hasher) !== cid) this.#unverified.set(cid, bytes.slice());
    else await super.putChunk(cid, bytes);
  }
  override async hasChunk(cid: string) {
    return this.#unverified.has(cid) || super.hasChunk(cid);
  }
  override async getChunk(cid: string) {
    return this.#unverified.get(cid)?.slice() ?? super.getChunk(cid);
  }
}

/** Loses the last chunk of every blob it reads (an off-by-one loop). */
class LastChunkLosingStore extends ForwardingStore {
  override async readBlob(cid: string) {
    const manifest = await this.getManifest(cid);
    if (manifest === undefined) return undefined;
    const parts: Uint8Array[] = [];
    for (let i = 0; i < manifest.chunks.length - 1; i++)
      parts.push((await this.getChunk(manifest.chunks[i]!.cid))!);
    return Uint8Array.from(parts.flatMap((part) => [...part]));
  }
}

/** Reports a chunk repeated in a manifest as missing once, at its first index. */
class MissingByCidStore extends ForwardingStore {
  override async missingChunks(manifest: BlobManifest) {
    const seen = new Set<string>();
    return (await super.missingChunks(manifest)).filter((i) => {
      const cid = manifest.chunks[i]!.cid;
      if (seen.has(cid)) return false;
      seen.add(cid);
      return true;
    });
  }
}

/** Keeps a manifest whose chunks are not all held, instead of refusing it. */
class EagerManifestStore extends ForwardingStore {
  readonly #early = new Map<string, BlobManifest>();
  override async putManifest(manifest: BlobManifest) {
    try {
      await super.putManifest(manifest);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'missing_chunks') throw error;
      this.#early.set(manifest.cid, manifest);
    }
  }
  override async getManifest(cid: string) {
    return this.#early.get(cid) ?? super.getManifest(cid);
  }
}

/** Collects pinned blobs too. */
class PinIgnoringStore extends ForwardingStore {
  override async collectGarbage(targetBytes?: number) {
    for (const cid of await this.list()) if (await this.isPinned(cid)) await this.unpin(cid);
    return super.collectGarbage(targetBytes);
  }
}

async function failedCases(options: Parameters<typeof blobStoreSuite>[0]): Promise<Set<string>> {
  const report = await runSuite(blobStoreSuite(options));
  expect(report.errors).toEqual([]);
  return new Set(
    report.results.filter((r) => r.status === 'failed').map((r) => r.id.replace('hearthnet.blob-store.', '')),
  );
}

describe('blobStoreSuite', () => {
  it('passes every case against InMemoryBlobStore, wire answers included', async () => {
    const report = await runSuite(blobStoreSuite({ create: inMemory, wireError: asHearthNetError }));
    expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
    expect(report.counts.passed).toBe(blobStoreSuite({ create: inMemory }).cases.length);
  });

  it('passes every case against FilesystemBlobStore, and removes its folders on dispose', async () => {
    const disk = onDisk();
    const report = await runSuite(blobStoreSuite({ ...disk, wireError: asHearthNetError }));
    expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
  });

  it('has stable ids and grades the hasher injection and the throwing hook as recommended', () => {
    const cases = blobStoreSuite({ create: inMemory }).cases;
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    expect(cases.filter((c) => c.level === 'recommended').map((c) => c.id)).toEqual([
      'hearthnet.blob-store.injected-hasher',
      'hearthnet.blob-store.event-hook-throws',
    ]);
  });

  const broken: [string, (inner: BlobStore) => BlobStore, string[]][] = [
    [
      'keeps chunks without checking their hash',
      (s) => new TrustingStore(s),
      ['chunk-verified', 'chunk-algorithm-by-prefix'],
    ],
    [
      'loses the last chunk when reading a blob',
      (s) => new LastChunkLosingStore(s),
      [
        'blob-round-trip',
        'capacity-keeps-a-chunk-another-blob-uses',
        'gc-oldest-first',
        'manifest-needs-every-chunk',
        'manifest-reordered',
        'manifest-reordered-in-part',
        'named-with-hasher',
        'no-aliasing',
        'sweep-round-trip',
      ],
    ],
    [
      'reports a repeated missing chunk once',
      (s) => new MissingByCidStore(s),
      ['missing-chunks', 'sweep-missing'],
    ],
    ['keeps a manifest before its chunks', (s) => new EagerManifestStore(s), ['manifest-needs-every-chunk']],
    ['collects pinned blobs', (s) => new PinIgnoringStore(s), ['gc-oldest-first', 'gc-keeps-covered-blob']],
  ];
  for (const [what, wrap, expected] of broken) {
    it(`fails a store that ${what}, in the cases that rely on it and no others`, async () => {
      const failed = await failedCases({ create: (options) => wrap(new InMemoryBlobStore(options)) });
      expect([...failed].sort()).toEqual([...expected].sort());
    });
  }

  it('fails a store that drops its capacity option', async () => {
    const failed = await failedCases({
      create: ({ capacityBytes: _dropped, ...options }) => new InMemoryBlobStore(options),
    });
    expect([...failed].sort()).toEqual([
      'capacity-collects-to-fit-exactly',
      'capacity-exceeded',
      'capacity-keeps-a-chunk-another-blob-uses',
      'capacity-makes-room',
      'capacity-shared-chunk-not-collectable',
      'invalid-options',
    ]);
  });

  it('fails refusals answered on the wire as anything but bad_request', async () => {
    const failed = await failedCases({
      create: inMemory,
      wireError: () => ({ code: 'internal_error', status: 500 }),
    });
    expect([...failed].sort()).toEqual(
      ['chunk-verified', 'malformed-cids', 'manifest-inconsistent', 'manifest-needs-every-chunk'].sort(),
    );
  });
});

describe('blobStoreSuite through registerSuite', () => {
  const disk = onDisk();
  registerSuite(blobStoreSuite({ ...disk, wireError: asHearthNetError }), { describe, it, afterAll });
});
