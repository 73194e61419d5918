import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FilesystemMediaStore } from './media.js';
import { InMemoryMediaStore, isMediaId, type MediaBody, type MediaStore } from './media-store.js';

const directories: string[] = [];

afterEach(async () => {
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
});

async function temporaryRoot(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'media-store-'));
  directories.push(directory);
  return directory;
}

/** Every file under `root`, as absolute paths. */
async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

async function bytesOf(body: MediaBody): Promise<Uint8Array> {
  return body instanceof Uint8Array ? body : new Uint8Array(await new Response(body).arrayBuffer());
}

function chunked(chunks: readonly Uint8Array[], failWith?: Error): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[index++];
      if (chunk !== undefined) controller.enqueue(chunk);
      else if (failWith !== undefined) controller.error(failWith);
      else controller.close();
    },
  });
}

const stores: [string, () => Promise<MediaStore>][] = [
  ['InMemoryMediaStore', async () => new InMemoryMediaStore()],
  [
    'FilesystemMediaStore',
    async () => new FilesystemMediaStore({ root: await temporaryRoot(), fsync: false }),
  ],
];

describe.each(stores)('%s', (_name, makeStore) => {
  it('stores bytes and streams, and reads them back with their metadata', async () => {
    const store = await makeStore();
    const fromBytes = await store.put(new Uint8Array([1, 2, 3]), {
      tenant: 't1',
      contentType: 'image/png',
      filename: 'a.png',
    });
    const fromStream = await store.put(chunked([new Uint8Array([4]), new Uint8Array([5, 6])]), {
      tenant: 't1',
      contentType: 'text/plain',
    });
    expect(fromBytes.size).toBe(3);
    expect(fromStream.size).toBe(3);
    expect(isMediaId(fromBytes.id)).toBe(true);
    expect(fromBytes.id).not.toBe(fromStream.id);
    const first = await store.get(fromBytes.id, 't1');
    expect(first).toMatchObject({ size: 3, contentType: 'image/png', filename: 'a.png' });
    expect(await bytesOf(first!.body)).toEqual(new Uint8Array([1, 2, 3]));
    const second = await store.get(fromStream.id, 't1');
    expect(second).toMatchObject({ size: 3, contentType: 'text/plain', filename: undefined });
    expect(await bytesOf(second!.body)).toEqual(new Uint8Array([4, 5, 6]));
  });

  it('never shows one tenant the media of another', async () => {
    const store = await makeStore();
    const { id } = await store.put(new Uint8Array([9]), { tenant: 'owner', contentType: 'image/png' });
    expect(await store.get(id, 'intruder')).toBeNull();
    expect(await store.delete(id, 'intruder')).toBe(false);
    expect(await store.get(id, 'owner')).not.toBeNull();
  });

  it('answers unknown and malformed ids as missing, never throwing', async () => {
    const store = await makeStore();
    for (const id of ['0'.repeat(32), '../../etc/passwd', '', 'A'.repeat(32), `${'0'.repeat(31)}/`]) {
      expect(await store.get(id, 't1')).toBeNull();
      expect(await store.delete(id, 't1')).toBe(false);
    }
    expect(await store.get('0'.repeat(32), '')).toBeNull();
  });

  it('deletes', async () => {
    const store = await makeStore();
    const { id } = await store.put(new Uint8Array([1]), { tenant: 't1', contentType: 'image/png' });
    expect(await store.delete(id, 't1')).toBe(true);
    expect(await store.get(id, 't1')).toBeNull();
    expect(await store.delete(id, 't1')).toBe(false);
  });

  it('rejects with the stream error and keeps nothing of a failed upload', async () => {
    const store = await makeStore();
    const failure = new Error('client went away');
    await expect(
      store.put(chunked([new Uint8Array(10)], failure), { tenant: 't1', contentType: 'image/png' }),
    ).rejects.toBe(failure);
  });

  it('refuses unusable arguments with a typed error', async () => {
    const store = await makeStore();
    const ok = { tenant: 't1', contentType: 'image/png' };
    await expect(store.put('text' as unknown as Uint8Array, ok)).rejects.toThrow(
      expect.objectContaining({ code: 'media_invalid_argument' }),
    );
    await expect(store.put(new Uint8Array(1), { ...ok, tenant: '' })).rejects.toThrow(
      expect.objectContaining({ code: 'media_invalid_argument' }),
    );
    await expect(
      store.put(new Uint8Array(1), { ...ok, contentType: 3 as unknown as string }),
    ).rejects.toThrow(expect.objectContaining({ code: 'media_invalid_argument' }));
    await expect(store.put(chunked(['x' as unknown as Uint8Array]), ok)).rejects.toThrow(
      expect.objectContaining({ code: 'media_invalid_argument' }),
    );
  });
});

describe('FilesystemMediaStore on disk', () => {
  it('keeps an item as <id>.bin and a sidecar under a hashed tenant directory, and no temporary files', async () => {
    const root = await temporaryRoot();
    const store = new FilesystemMediaStore({ root });
    const { id } = await store.put(new Uint8Array([1, 2]), {
      tenant: '../../escape',
      contentType: 'image/png',
    });
    const files = (await filesUnder(root)).map((file) => file.slice(root.length + 1));
    expect(files.sort()).toEqual([
      expect.stringMatching(new RegExp(`^[0-9a-f]{64}/${id}\\.bin$`)),
      expect.stringMatching(new RegExp(`^[0-9a-f]{64}/${id}\\.json$`)),
    ]);
  });

  it('leaves no file behind when the upload fails part-way', async () => {
    const root = await temporaryRoot();
    const store = new FilesystemMediaStore({ root });
    const chunks = Array.from({ length: 20 }, () => new Uint8Array(64 * 1024));
    await expect(
      store.put(chunked(chunks, new Error('cut')), { tenant: 't1', contentType: 'image/png' }),
    ).rejects.toThrow('cut');
    expect(await filesUnder(root)).toEqual([]);
  });

  it('reports a broken sidecar as corrupt', async () => {
    const root = await temporaryRoot();
    const store = new FilesystemMediaStore({ root });
    const { id } = await store.put(new Uint8Array([1]), { tenant: 't1', contentType: 'image/png' });
    const sidecar = (await filesUnder(root)).find((file) => file.endsWith('.json'))!;
    await writeFile(sidecar, '{"version":1}');
    await expect(store.get(id, 't1')).rejects.toThrow(
      expect.objectContaining({ code: 'media_store_corrupt' }),
    );
  });

  it('refuses unusable options', () => {
    expect(() => new FilesystemMediaStore({ root: '' })).toThrow(
      expect.objectContaining({ code: 'media_invalid_argument' }),
    );
    expect(() => new FilesystemMediaStore(null as unknown as { root: string })).toThrow(
      expect.objectContaining({ code: 'media_invalid_argument' }),
    );
  });
});
