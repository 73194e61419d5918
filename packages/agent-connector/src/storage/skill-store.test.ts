import { describe, expect, it } from 'vitest';
import { parseStorageValue } from './conventions.js';
import {
  SKILL_STATUSES,
  type SkillMeta,
  skillFilterSchema,
  skillMetaInputSchema,
  skillMetaSchema,
  skillSourceSchema,
  skillStatusSchema,
  skillStoreCapabilitiesSchema,
  skillStoreManifestInfoSchema,
  versionInfoSchema,
} from './skill-store.js';

const meta: SkillMeta = {
  name: 'triage',
  version: 'ba7816bf8f01',
  content_hash: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
  status: 'Approved',
  created_at: 1_767_225_600,
  updated_at: 1_767_225_660,
};

describe('skillStatusSchema', () => {
  it('accepts exactly Draft, Approved and Disabled, case-sensitively', () => {
    expect(SKILL_STATUSES).toEqual(['Draft', 'Approved', 'Disabled']);
    for (const status of SKILL_STATUSES) expect(parseStorageValue(skillStatusSchema, status)).toBe(status);
    for (const status of ['approved', 'DRAFT', 'Archived', '', undefined, null, 1]) {
      expect(() => parseStorageValue(skillStatusSchema, status, 'status')).toThrow(
        expect.objectContaining({ code: 'storage_validation', path: 'status' }),
      );
    }
  });
});

describe('skillMetaSchema', () => {
  it('accepts a minimal record and the optional projections', () => {
    expect(parseStorageValue(skillMetaSchema, meta)).toEqual(meta);
    const full = {
      ...meta,
      description: 'Sort the inbox',
      tags: ['ops'],
      vars: ['INBOX'],
      returns: ['COUNT'],
      requires: ['data_store.supports_writes'],
      triggers: [{ source: 'cron', name: '0 9 * * *', agent_id: 'perry' }],
      outputs: ['agent'],
      type: 'procedural',
      status_changed_at: 1_767_225_660,
      author: 'perry',
      metadata_bag: { origin: 'import' },
    };
    expect(parseStorageValue(skillMetaSchema, full)).toEqual(full);
  });

  it('refuses timestamps in milliseconds: storage timestamps are unix seconds', () => {
    expect(() => parseStorageValue(skillMetaSchema, { ...meta, updated_at: 1_767_225_660_000 })).toThrow(
      expect.objectContaining({ path: 'updated_at' }),
    );
    expect(() => parseStorageValue(skillMetaSchema, { ...meta, created_at: -1 })).toThrow(
      expect.objectContaining({ code: 'storage_validation' }),
    );
  });

  it('refuses an optional field present as undefined or null (absent, never null)', () => {
    expect(() => parseStorageValue(skillMetaSchema, { ...meta, author: undefined })).toThrow(
      expect.objectContaining({ path: 'author' }),
    );
    expect(() => parseStorageValue(skillMetaSchema, { ...meta, description: null })).toThrow(
      expect.objectContaining({ code: 'storage_validation' }),
    );
  });

  it('refuses an upper-case or non-hex content hash and an empty version', () => {
    expect(() => parseStorageValue(skillMetaSchema, { ...meta, content_hash: 'ABC' })).toThrow(
      expect.objectContaining({ path: 'content_hash' }),
    );
    expect(() => parseStorageValue(skillMetaSchema, { ...meta, version: '' })).toThrow(
      expect.objectContaining({ path: 'version' }),
    );
  });
});

describe('skillMetaInputSchema', () => {
  it('accepts store() metadata with no field required', () => {
    expect(parseStorageValue(skillMetaInputSchema, {})).toEqual({});
    expect(parseStorageValue(skillMetaInputSchema, { author: 'perry', status: 'Draft' })).toEqual({
      author: 'perry',
      status: 'Draft',
    });
    expect(() => parseStorageValue(skillMetaInputSchema, { status: 'draft' }, 'metadata')).toThrow(
      expect.objectContaining({ path: 'metadata.status' }),
    );
  });
});

describe('skillSourceSchema and versionInfoSchema', () => {
  it('accept the records load(), store() and update_status() return', () => {
    const source = {
      name: 'triage',
      version: meta.version,
      content_hash: meta.content_hash,
      source: 'abc',
      metadata: meta,
    };
    expect(parseStorageValue(skillSourceSchema, source)).toEqual(source);
    const info = {
      name: 'triage',
      version: meta.version,
      content_hash: meta.content_hash,
      status: 'Disabled',
      previous_status: 'Approved',
      changed_at: 1_767_225_700,
      changed_by: 'perry',
    };
    expect(parseStorageValue(versionInfoSchema, info)).toEqual(info);
    expect(() => parseStorageValue(versionInfoSchema, { ...info, previous_status: 'Gone' })).toThrow(
      expect.objectContaining({ path: 'previous_status' }),
    );
  });
});

describe('skillFilterSchema', () => {
  it('accepts one status or several, one tag or several, and unknown keys (honour what you support)', () => {
    const filter = {
      status: ['Draft', 'Approved'],
      tag: 'ops',
      author: 'perry',
      since: 1_767_225_600,
      vault: 'x',
    };
    expect(parseStorageValue(skillFilterSchema, filter)).toEqual(filter);
    expect(
      parseStorageValue(skillFilterSchema, { status: 'Draft', tag: ['a', 'b'], limit: 0, offset: 5 }),
    ).toEqual({ status: 'Draft', tag: ['a', 'b'], limit: 0, offset: 5 });
  });

  it('refuses a wrong status, a negative or fractional limit, and a since in milliseconds', () => {
    for (const filter of [{ status: ['Draft', 'gone'] }, { limit: -1 }, { offset: 1.5 }, { since: 1.7e12 }]) {
      expect(() => parseStorageValue(skillFilterSchema, filter)).toThrow(
        expect.objectContaining({ code: 'storage_validation' }),
      );
    }
  });
});

describe('SkillStore manifest and capabilities', () => {
  it('accept the shapes a store declares', () => {
    const manifest = {
      capabilities_version: '1',
      manifest: { kind: 'filesystem', root_dir: '/skills', extra: 1 },
    };
    expect(parseStorageValue(skillStoreManifestInfoSchema, manifest)).toEqual(manifest);
    const capabilities = {
      connector_type: 'skill_store',
      implementation: 'FilesystemSkillStore',
      contract_version: '1.0.0',
      features: { supports_writes: true, supports_versioning: false },
    };
    expect(parseStorageValue(skillStoreCapabilitiesSchema, capabilities)).toEqual(capabilities);
  });

  it('refuse an unknown feature, a non-boolean flag, a loose contract_version and the wrong kind', () => {
    const capabilities = {
      connector_type: 'skill_store',
      implementation: 'X',
      contract_version: '1.0.0',
      features: {},
    };
    for (const bad of [
      { ...capabilities, features: { supports_time_travel: true } },
      { ...capabilities, features: { supports_writes: 'yes' } },
      { ...capabilities, contract_version: '1.0' },
      { ...capabilities, implementation: '' },
      { ...capabilities, connector_type: 'data_store' },
    ]) {
      expect(() => parseStorageValue(skillStoreCapabilitiesSchema, bad)).toThrow(
        expect.objectContaining({ code: 'storage_validation' }),
      );
    }
  });
});
