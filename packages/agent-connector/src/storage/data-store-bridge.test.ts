import { describe, expect, it, vi } from 'vitest';
import type { ManifestInfo } from './conventions.js';
import type { DataStore, DataStoreManifest, PortableData } from './data-store.js';
import { DATA_WRITE_TOOL, DataStoreQueryBridge } from './data-store.js';
import { UnsupportedFilterError } from './errors.js';

const item: PortableData = { id: 'm1', summary: 'Deploy done', detail: 'Deploy done\nall green' };

function fakeStore(manifest: () => Promise<ManifestInfo<DataStoreManifest>>) {
  return {
    query: vi.fn(async () => [item]),
    write: vi.fn(async () => ({ id: 'm2', created_at: 1_767_225_600 })),
    get: vi.fn(async () => null),
    manifest: vi.fn(manifest),
  } satisfies DataStore;
}

const declaring = (supported_filters?: string[]) => async () => ({
  capabilities_version: '1',
  manifest: supported_filters === undefined ? { kind: 'test' } : { kind: 'test', supported_filters },
});

describe('DataStoreQueryBridge', () => {
  it('queries with the built filters and wraps the answer as { items }', async () => {
    const store = fakeStore(declaring(['domain_tags']));
    const bridge = new DataStoreQueryBridge(store);
    await expect(bridge.query({ query: 'deploy', domain_tags: 'ops', limit: '3' })).resolves.toEqual({
      items: [item],
    });
    expect(store.query).toHaveBeenCalledWith({ query: 'deploy', limit: 3, mode: 'fts', domain_tags: 'ops' });
  });

  it('refuses an undeclared filter before the store is queried', async () => {
    const store = fakeStore(declaring(['domain_tags']));
    const bridge = new DataStoreQueryBridge(store, { substrate: 'data_read' });
    const error = await bridge.query({ query: 'q', vault: 'finance' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnsupportedFilterError);
    expect(error).toMatchObject({ unsupported_keys: ['vault'], substrate: 'data_read' });
    expect(store.query).not.toHaveBeenCalled();
  });

  it('fails closed when the manifest declares no supported_filters', async () => {
    const store = fakeStore(declaring());
    await expect(new DataStoreQueryBridge(store).query({ query: 'q', domain_tags: 'ops' })).rejects.toThrow(
      UnsupportedFilterError,
    );
    expect(store.query).not.toHaveBeenCalled();
  });

  it('reads a manifest without manifest or with null supported_filters as declaring none, as the reference', async () => {
    for (const info of [
      { name: 'x' },
      { name: 'x', manifest: null },
      { name: 'x', manifest: { supported_filters: null } },
    ]) {
      const store = fakeStore(async () => info as unknown as ManifestInfo<DataStoreManifest>);
      await expect(new DataStoreQueryBridge(store).query({ query: 'q', vault: 'x' })).rejects.toBeInstanceOf(
        UnsupportedFilterError,
      );
      await expect(new DataStoreQueryBridge(store).query({ query: 'q' })).resolves.toBeDefined();
    }
  });

  it('passes undeclared filters through when permissive_filters is true', async () => {
    const store = fakeStore(declaring([]));
    await new DataStoreQueryBridge(store).query({ query: 'q', permissive_filters: true, vault: 'x' });
    expect(store.query).toHaveBeenCalledWith({
      query: 'q',
      limit: 10,
      mode: 'fts',
      permissive_filters: true,
      vault: 'x',
    });
  });

  it('reads the manifest once, on the first query, and keeps it', async () => {
    const store = fakeStore(declaring(['domain_tags']));
    const bridge = new DataStoreQueryBridge(store);
    expect(store.manifest).not.toHaveBeenCalled();
    await Promise.all([bridge.query({ query: 'a' }), bridge.query({ query: 'b' })]);
    await bridge.query({ query: 'c', domain_tags: 'x' });
    expect(store.manifest).toHaveBeenCalledTimes(1);
  });

  it('checks a missing query before reading the manifest', async () => {
    const store = fakeStore(declaring([]));
    await expect(new DataStoreQueryBridge(store).query({ limit: 3 })).rejects.toMatchObject({
      code: 'storage_validation',
    });
    expect(store.manifest).not.toHaveBeenCalled();
  });

  it('does not keep a failed manifest read: the next query asks again', async () => {
    const store = fakeStore(declaring(['vault']));
    store.manifest.mockRejectedValueOnce(new Error('offline'));
    const bridge = new DataStoreQueryBridge(store);
    await expect(bridge.query({ query: 'q' })).rejects.toThrow('offline');
    await expect(bridge.query({ query: 'q', vault: 'x' })).resolves.toEqual({ items: [item] });
    expect(store.manifest).toHaveBeenCalledTimes(2);
  });

  it('refuses a manifest whose supported_filters is not a list of strings', async () => {
    const store = fakeStore(async () => ({
      capabilities_version: '1',
      manifest: { kind: 'test', supported_filters: 'vault' as unknown as string[] },
    }));
    await expect(new DataStoreQueryBridge(store).query({ query: 'q', v: 1 })).rejects.toThrow(
      expect.objectContaining({
        code: 'storage_validation',
        path: 'manifest.manifest.supported_filters',
      }),
    );
    expect(store.query).not.toHaveBeenCalled();
  });

  it('refuses a store answer that is not an array', async () => {
    const store = fakeStore(declaring([]));
    store.query.mockResolvedValueOnce(null as unknown as PortableData[]);
    await expect(new DataStoreQueryBridge(store).query({ query: 'q' })).rejects.toThrow(
      expect.objectContaining({ path: 'items' }),
    );
  });

  it('writes the built entry without any filter check', async () => {
    const store = fakeStore(declaring());
    const bridge = new DataStoreQueryBridge(store);
    await expect(bridge.write({ content: 'note', vault: 'ignored', expires_at: null })).resolves.toEqual({
      id: 'm2',
      created_at: 1_767_225_600,
    });
    expect(store.write).toHaveBeenCalledWith({ content: 'note' });
    expect(store.manifest).not.toHaveBeenCalled();
  });

  it('routes data_write to write and any other tool name to query', async () => {
    const store = fakeStore(declaring([]));
    const bridge = new DataStoreQueryBridge(store);
    expect(DATA_WRITE_TOOL).toBe('data_write');
    await expect(bridge.call('data_write', { content: 'note' })).resolves.toMatchObject({ id: 'm2' });
    await expect(bridge.call('query', { query: 'q' })).resolves.toEqual({ items: [item] });
    await expect(bridge.call('anything', { query: 'q' })).resolves.toEqual({ items: [item] });
    expect(store.write).toHaveBeenCalledTimes(1);
    expect(store.query).toHaveBeenCalledTimes(2);
  });
});
