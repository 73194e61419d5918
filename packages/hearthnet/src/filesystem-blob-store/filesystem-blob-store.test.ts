import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { toErrorBody } from '../capabilities/error-body.js';
import { chunkBlob, contentId, sha256Hasher } from '../hashing.js';
import { FilesystemBlobStore } from './filesystem-blob-store.js';

const roots: string[] = [];

async function newRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'hearthnet-blobs-'));
  roots.push(root);
  return root;
}

afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

/** Every file under `root`, as `relative path → bytes`. */
async function filesUnder(root: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(root, path).split('\\').join('/'), await readFile(path));
  }
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}

function text(value: string): Uint8Array {
  return new TextEncoder().encode(value);
}

function patternBytes(length: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => i % 251);
}

function sha256Prefix(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 16);
}

// The BlobStore behaviour every store shares is @agentwire/conformance's blobStoreSuite, run against
// this store in packages/conformance/src/suites/hearthnet/blob-store.test.ts; these tests cover what
// only a store on disk has: the reference layout, reopening, damaged and leftover files, options.

// What the reference `BlobStore` (Ckal/HearthNet 6e28872, hearthnet/blobs/store.py, run without the
// Python blake3 module, so with its sha256: ids) wrote for `put(600000 pattern bytes)`, `put(b'hello')`,
// then `pin` of both: file → [size, first 16 hex of its SHA-256], and the full text of the small files.
const referenceFiles: Record<string, [number, string]> = {
  '2c/f24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824.bin': [5, '2cf24dba5fb0a30e'],
  '31/a1f9dea0169551092d05e8bf4a446228c8c3eb4c9b713c66adcb7fd53c89be.bin': [262144, '31a1f9dea0169551'],
  '71/5940ba44f0da94c937bbb4026a0d3ae420acac51b18833da156e9f825ca5b0.manifest.json': [
    314,
    '35c439829bc268c4',
  ],
  'af/826a5d9b025eb5dfe0f2d655ab88b95ebbe74a4ea70e11ee81b63b5fc1f6c1.bin': [75712, 'af826a5d9b025eb5'],
  'e3/1bdc63577fe76f6441014aaaa2226d9ffce11b44d0d510cade132b79fd7d76.bin': [262144, 'e31bdc63577fe76f'],
  'fd/4bfe85b56397027ee1fcca931b24933a97ba74190f0935616ffe8904e572ff.manifest.json': [
    615,
    '5c4715ade20efae5',
  ],
  'pinned.txt': [143, '349896a2e479971f'],
};
const referenceHelloManifest =
  '{\n  "chunk_size_bytes": 262144,\n  "chunks": [\n    {\n      "cid": "sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",\n      "index": 0,\n      "size_bytes": 5\n    }\n  ],\n  "cid": "sha256:715940ba44f0da94c937bbb4026a0d3ae420acac51b18833da156e9f825ca5b0",\n  "filename": null,\n  "size_bytes": 5\n}';
const referencePinned =
  'sha256:715940ba44f0da94c937bbb4026a0d3ae420acac51b18833da156e9f825ca5b0\nsha256:fd4bfe85b56397027ee1fcca931b24933a97ba74190f0935616ffe8904e572ff';

describe('FilesystemBlobStore layout', () => {
  it('writes exactly the files, bytes and manifest text the reference store writes', async () => {
    const root = await newRoot();
    const store = await FilesystemBlobStore.open({ root, hasher: sha256Hasher });
    const big = await store.putBlob(patternBytes(600_000), { pin: true });
    const hello = await store.putBlob(text('hello'), { pin: true });
    expect(big.cid).toBe('sha256:fd4bfe85b56397027ee1fcca931b24933a97ba74190f0935616ffe8904e572ff');
    expect(hello.cid).toBe('sha256:715940ba44f0da94c937bbb4026a0d3ae420acac51b18833da156e9f825ca5b0');
    const files = await filesUnder(root);
    expect(
      Object.fromEntries([...files].map(([path, bytes]) => [path, [bytes.length, sha256Prefix(bytes)]])),
    ).toEqual(referenceFiles);
    expect(
      files
        .get('71/5940ba44f0da94c937bbb4026a0d3ae420acac51b18833da156e9f825ca5b0.manifest.json')
        ?.toString(),
    ).toBe(referenceHelloManifest);
    expect(files.get('pinned.txt')?.toString()).toBe(referencePinned);
  });

  it('files blake3: blobs the same way', async () => {
    const root = await newRoot();
    const store = await FilesystemBlobStore.open({ root, chunkSizeBytes: 4 });
    const manifest = await store.putBlob(text('hello'));
    const [c0, c1] = manifest.chunks.map((c) => c.cid.slice('blake3:'.length)) as [string, string];
    const blobHex = manifest.cid.slice('blake3:'.length);
    const files = await filesUnder(root);
    expect([...files.keys()].sort()).toEqual(
      [
        `${c0.slice(0, 2)}/${c0.slice(2)}.bin`,
        `${c1.slice(0, 2)}/${c1.slice(2)}.bin`,
        `${blobHex.slice(0, 2)}/${blobHex.slice(2)}.manifest.json`,
      ].sort(),
    );
    expect(files.get(`${c1.slice(0, 2)}/${c1.slice(2)}.bin`)?.toString()).toBe('o');
    expect(files.get(`${blobHex.slice(0, 2)}/${blobHex.slice(2)}.manifest.json`)?.toString()).toBe(
      [
        '{',
        '  "chunk_size_bytes": 4,',
        '  "chunks": [',
        '    {',
        `      "cid": "blake3:${c0}",`,
        '      "index": 0,',
        '      "size_bytes": 4',
        '    },',
        '    {',
        `      "cid": "blake3:${c1}",`,
        '      "index": 1,',
        '      "size_bytes": 1',
        '    }',
        '  ],',
        `  "cid": "${manifest.cid}",`,
        '  "filename": null,',
        '  "size_bytes": 5',
        '}',
      ].join('\n'),
    );
  });

  it('opens a store the reference wrote, filename and all', async () => {
    const root = await newRoot();
    const big = patternBytes(600_000);
    for (const [offset, hex] of [
      [0, '31a1f9dea0169551092d05e8bf4a446228c8c3eb4c9b713c66adcb7fd53c89be'],
      [262144, 'e31bdc63577fe76f6441014aaaa2226d9ffce11b44d0d510cade132b79fd7d76'],
      [524288, 'af826a5d9b025eb5dfe0f2d655ab88b95ebbe74a4ea70e11ee81b63b5fc1f6c1'],
    ] as const) {
      await mkdir(join(root, hex.slice(0, 2)), { recursive: true });
      await writeFile(
        join(root, hex.slice(0, 2), `${hex.slice(2)}.bin`),
        big.subarray(offset, offset + 262144),
      );
    }
    await mkdir(join(root, '71'), { recursive: true });
    await writeFile(
      join(root, '71', '5940ba44f0da94c937bbb4026a0d3ae420acac51b18833da156e9f825ca5b0.manifest.json'),
      referenceHelloManifest.replace('"filename": null', '"filename": "hello.txt"'),
    );
    await mkdir(join(root, '2c'), { recursive: true });
    await writeFile(
      join(root, '2c', 'f24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824.bin'),
      'hello',
    );
    const bigManifest = chunkBlob(big, { chunkSizeBytes: 262144, hasher: sha256Hasher });
    await mkdir(join(root, 'fd'), { recursive: true });
    await writeFile(
      join(root, 'fd', '4bfe85b56397027ee1fcca931b24933a97ba74190f0935616ffe8904e572ff.manifest.json'),
      JSON.stringify({
        chunk_size_bytes: 262144,
        chunks: bigManifest.chunks.map((c) => ({ cid: c.cid, index: c.index, size_bytes: c.size_bytes })),
        cid: bigManifest.cid,
        filename: null,
        size_bytes: 600000,
      }),
    );
    await writeFile(join(root, 'pinned.txt'), referencePinned);

    const store = await FilesystemBlobStore.open({ root });
    expect(await store.list()).toEqual([
      'sha256:715940ba44f0da94c937bbb4026a0d3ae420acac51b18833da156e9f825ca5b0',
      bigManifest.cid,
    ]);
    // (toEqual walks 600 000 elements slowly; compare digests.)
    expect(sha256Prefix((await store.readBlob(bigManifest.cid)) ?? new Uint8Array(0))).toBe(
      sha256Prefix(big),
    );
    expect(
      await store.readBlob('sha256:715940ba44f0da94c937bbb4026a0d3ae420acac51b18833da156e9f825ca5b0'),
    ).toEqual(text('hello'));
    expect(await store.isPinned(bigManifest.cid)).toBe(true);
    expect(await store.usage()).toEqual({ bytes: 600_005, chunks: 4, blobs: 2 });
  });
});

describe('FilesystemBlobStore on disk', () => {
  it('sees blobs, pins, usage and age order again when reopened', async () => {
    const root = await newRoot();
    const first = await FilesystemBlobStore.open({ root, chunkSizeBytes: 4 });
    const older = await first.putBlob(text('older blob'));
    const pinned = await first.putBlob(text('pinned blob'), { pin: true });
    const newer = await first.putBlob(text('newer blob'));
    await first.putChunk(contentId('loose'), text('loose'));
    // File times decide the age order after a reopen; make them distinct.
    const manifestFile = (cid: string) => {
      const hex = cid.slice(cid.indexOf(':') + 1);
      return join(root, hex.slice(0, 2), `${hex.slice(2)}.manifest.json`);
    };
    await utimes(manifestFile(older.cid), 1000, 1000);
    await utimes(manifestFile(pinned.cid), 2000, 2000);
    await utimes(manifestFile(newer.cid), 3000, 3000);

    const again = await FilesystemBlobStore.open({ root, chunkSizeBytes: 4 });
    expect(await again.list()).toEqual(await first.list());
    expect(await again.usage()).toEqual(await first.usage());
    expect(await again.isPinned(pinned.cid)).toBe(true);
    expect(await again.getManifest(newer.cid)).toEqual(newer);
    expect(await again.readBlob(older.cid)).toEqual(text('older blob'));
    expect(await again.hasChunk(contentId('loose'))).toBe(true);
    const usage = await again.usage();
    const result = await again.collectGarbage(usage.bytes - 1);
    expect(result.removedBlobs).toEqual([older.cid]);
    expect(await again.hasChunk(contentId('loose'))).toBe(true);
  });

  it('reports a damaged chunk file as corrupt, counts it missing, and heals it on the next put', async () => {
    const root = await newRoot();
    const store = await FilesystemBlobStore.open({ root, chunkSizeBytes: 4 });
    const manifest = await store.putBlob(text('abcdefgh'));
    const damaged = manifest.chunks[1]!;
    const hex = damaged.cid.slice('blake3:'.length);
    await writeFile(join(root, hex.slice(0, 2), `${hex.slice(2)}.bin`), 'EFGH');

    const error = await store.getChunk(damaged.cid).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'corrupt_chunk' });
    expect(error).toMatchObject({
      code: 'corrupt_chunk',
      details: { cid: damaged.cid, actualCid: contentId('EFGH') },
    });
    expect(toErrorBody(error)).toMatchObject({ error: 'internal_error' });
    await expect(store.readBlob(manifest.cid)).rejects.toThrow(
      expect.objectContaining({ code: 'corrupt_chunk' }),
    );
    expect(await store.hasChunk(damaged.cid)).toBe(false);
    expect(await store.missingChunks(manifest)).toEqual([1]);

    await store.putChunk(damaged.cid, text('efgh'));
    expect(await store.missingChunks(manifest)).toEqual([]);
    expect(await store.readBlob(manifest.cid)).toEqual(text('abcdefgh'));
    expect(await store.usage()).toEqual({ bytes: 8, chunks: 2, blobs: 1 });
  });

  it('treats a chunk file deleted behind its back as missing', async () => {
    const root = await newRoot();
    const store = await FilesystemBlobStore.open({ root, chunkSizeBytes: 4 });
    const manifest = await store.putBlob(text('abcdefgh'));
    const hex = manifest.chunks[0]!.cid.slice('blake3:'.length);
    await rm(join(root, hex.slice(0, 2), `${hex.slice(2)}.bin`));
    expect(await store.getChunk(manifest.chunks[0]!.cid)).toBeUndefined();
    expect(await store.readBlob(manifest.cid)).toBeUndefined();
    expect(await store.missingChunks(manifest)).toEqual([0]);
    await store.putChunk(manifest.chunks[0]!.cid, text('abcd'));
    expect(await store.readBlob(manifest.cid)).toEqual(text('abcdefgh'));
  });

  it('deletes the files of collected blobs and leaves no temporary files', async () => {
    const root = await newRoot();
    const store = await FilesystemBlobStore.open({ root, chunkSizeBytes: 4, fsync: true });
    const kept = await store.putBlob(text('keep'), { pin: true });
    await Promise.all([store.putBlob(text('drop this')), store.putChunk(contentId('keep'), text('keep'))]);
    await store.collectGarbage();
    const hex = kept.cid.slice('blake3:'.length);
    const chunkHex = kept.chunks[0]!.cid.slice('blake3:'.length);
    expect([...(await filesUnder(root)).keys()]).toEqual(
      [
        `${chunkHex.slice(0, 2)}/${chunkHex.slice(2)}.bin`,
        `${hex.slice(0, 2)}/${hex.slice(2)}.manifest.json`,
        'pinned.txt',
      ].sort(),
    );
  });

  it('cleans up temporary files an interrupted write left, and ignores files it does not know', async () => {
    const root = await newRoot();
    await mkdir(join(root, 'ab'), { recursive: true });
    const leftover = join(root, 'ab', `.${'c'.repeat(62)}.bin.0123456789abcdef.tmp`);
    await writeFile(leftover, 'half a chunk');
    const leftoverPins = join(root, '.pinned.txt.fedcba9876543210.tmp');
    await writeFile(leftoverPins, 'half a pin list');
    await writeFile(join(root, 'ab', `${'d'.repeat(62)}.manifest.json`), '{"not": "a manifest"}');
    await writeFile(join(root, 'ab', 'notes.txt'), 'mine');
    await writeFile(join(root, 'pinned.txt'), `not a cid\n\n  ${contentId('x')}  \n`);
    const store = await FilesystemBlobStore.open({ root });
    await expect(stat(leftover)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(stat(leftoverPins)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readFile(join(root, 'ab', 'notes.txt'), 'utf8')).toBe('mine');
    expect(await store.list()).toEqual([]);
    expect(await store.isPinned(contentId('x'))).toBe(true);
    expect(await store.usage()).toEqual({ bytes: 0, chunks: 0, blobs: 0 });
  });

  it('ignores a manifest filed under another CID', async () => {
    const root = await newRoot();
    const store = await FilesystemBlobStore.open({ root });
    const manifest = await store.putBlob(text('misfiled'));
    const hex = manifest.cid.slice('blake3:'.length);
    const manifestText = await readFile(join(root, hex.slice(0, 2), `${hex.slice(2)}.manifest.json`));
    await rm(join(root, hex.slice(0, 2), `${hex.slice(2)}.manifest.json`));
    await mkdir(join(root, '00'), { recursive: true });
    await writeFile(join(root, '00', `${'0'.repeat(62)}.manifest.json`), manifestText);
    const again = await FilesystemBlobStore.open({ root });
    expect(await again.list()).toEqual([]);
  });

  it('refuses unusable options', async () => {
    for (const options of [{}, { root: '' }, { root: 7 }, { root: tmpdir(), fsync: 'yes' }]) {
      await expect(FilesystemBlobStore.open(options as never)).rejects.toThrow(
        expect.objectContaining({ code: 'invalid_blob_store_options' }),
      );
    }
    await expect(FilesystemBlobStore.open(undefined as never)).rejects.toThrow(
      expect.objectContaining({ code: 'invalid_blob_store_options' }),
    );
  });

  it('makes its folder, and reports it absolute', async () => {
    const root = join(await newRoot(), 'nested', 'store');
    const store = await FilesystemBlobStore.open({ root });
    expect(store.root).toBe(root);
    expect((await stat(root)).isDirectory()).toBe(true);
  });
});
