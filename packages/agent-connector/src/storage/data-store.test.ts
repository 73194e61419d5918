import { describe, expect, it } from 'vitest';
import { parseStorageValue } from './conventions.js';
import {
  CURATED_DATA_FIELDS,
  dataStoreCapabilitiesSchema,
  dataStoreManifestInfoSchema,
  dataWriteRecordSchema,
  dataWriteSchema,
  portableDataSchema,
  queryFiltersSchema,
} from './data-store.js';

describe('portableDataSchema', () => {
  it('accepts the core and curated fields at the top level', () => {
    const item = {
      id: 'm1',
      summary: 'Deploy done',
      detail: 'Deploy done\nall green',
      score: -2.5,
      thread_status: 'open',
      pinned: true,
      confidence: 0.9,
      domain_tags: ['ops'],
      payload_type: 'note',
      knowledge_type: 'episodic',
      recipients: ['perry'],
      expires_at: 1_767_225_600,
      created_at: 1_767_225_000,
      agent_id: 'perry',
      vault: 'ops',
      metadata: { source: 'amp' },
    };
    expect(CURATED_DATA_FIELDS).toHaveLength(11);
    expect(parseStorageValue(portableDataSchema, item)).toEqual(item);
  });

  it('refuses a curated field repeated inside metadata', () => {
    for (const field of CURATED_DATA_FIELDS) {
      expect(() =>
        parseStorageValue(portableDataSchema, { id: 'm1', summary: 's', metadata: { [field]: 1 } }, 'item'),
      ).toThrow(expect.objectContaining({ path: `item.metadata.${field}` }));
    }
  });

  it('refuses a missing summary and a created_at in milliseconds', () => {
    expect(() => parseStorageValue(portableDataSchema, { id: 'm1' })).toThrow(
      expect.objectContaining({ code: 'storage_validation' }),
    );
    expect(() =>
      parseStorageValue(portableDataSchema, { id: 'm1', summary: 's', created_at: 1.7e12 }),
    ).toThrow(expect.objectContaining({ path: 'created_at' }));
  });
});

describe('queryFiltersSchema', () => {
  it('needs query, a positive limit and a mode, and keeps filter keys', () => {
    const filters = {
      query: 'q',
      limit: 2.5,
      mode: 'semantic',
      domain_tags: ['ops'],
      permissive_filters: true,
    };
    expect(parseStorageValue(queryFiltersSchema, filters)).toEqual(filters);
    for (const bad of [
      { limit: 1, mode: 'fts' },
      { query: 'q', limit: 0, mode: 'fts' },
      { query: 'q', limit: 1 },
      { query: 'q', limit: 1, mode: 'fts', permissive_filters: 'true' },
    ]) {
      expect(() => parseStorageValue(queryFiltersSchema, bad)).toThrow(
        expect.objectContaining({ code: 'storage_validation' }),
      );
    }
  });
});

describe('dataWriteSchema and dataWriteRecordSchema', () => {
  it('accept null expires_at as "durable forever" and seconds otherwise', () => {
    expect(parseStorageValue(dataWriteSchema, { content: 'x', expires_at: null })).toEqual({
      content: 'x',
      expires_at: null,
    });
    expect(() => parseStorageValue(dataWriteSchema, { content: 'x', expires_at: 1.7e12 })).toThrow(
      expect.objectContaining({ path: 'expires_at' }),
    );
    expect(() => parseStorageValue(dataWriteSchema, { content: 'x', tags: 'ops' })).toThrow(
      expect.objectContaining({ code: 'storage_validation' }),
    );
    expect(parseStorageValue(dataWriteRecordSchema, { id: 'm1', created_at: 1_767_225_600 })).toEqual({
      id: 'm1',
      created_at: 1_767_225_600,
    });
    expect(() => parseStorageValue(dataWriteRecordSchema, { id: 'm1', created_at: Date.now() })).toThrow(
      expect.objectContaining({ path: 'created_at' }),
    );
  });
});

describe('DataStore manifest and capabilities', () => {
  it('accept the declared shapes and refuse a non-list supported_filters', () => {
    const manifest = {
      capabilities_version: '1',
      manifest: {
        kind: 'sqlite',
        supported_modes: ['fts'],
        supported_filters: ['domain_tags'],
        db_path: 'x',
      },
    };
    expect(parseStorageValue(dataStoreManifestInfoSchema, manifest)).toEqual(manifest);
    expect(() =>
      parseStorageValue(dataStoreManifestInfoSchema, {
        capabilities_version: '1',
        manifest: { kind: 'sqlite', supported_filters: 'domain_tags' },
      }),
    ).toThrow(expect.objectContaining({ path: 'manifest.supported_filters' }));
    const capabilities = {
      connector_type: 'data_store',
      implementation: 'SqliteDataStore',
      contract_version: '1.0.0',
      features: { supports_writes: true, supports_semantic: false },
    };
    expect(parseStorageValue(dataStoreCapabilitiesSchema, capabilities)).toEqual(capabilities);
    expect(() =>
      parseStorageValue(dataStoreCapabilitiesSchema, {
        ...capabilities,
        features: { supports_versioning: true },
      }),
    ).toThrow(expect.objectContaining({ code: 'storage_validation' }));
  });
});
