import { describe, expect, it } from 'vitest';
import {
  SkillNotFoundError,
  SkillStoreError,
  StorageConflictError,
  StorageValidationError,
  UnsupportedFilterError,
  VersionNotFoundError,
} from './errors.js';

describe('storage errors', () => {
  const cause = new Error('underlying');

  it('SkillNotFoundError names the skill and the store', () => {
    const error = new SkillNotFoundError('triage', 'FilesystemSkillStore', { cause });
    expect(error).toBeInstanceOf(SkillStoreError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'SkillNotFoundError',
      code: 'skill_not_found',
      connector_type: 'skill_store',
      skill_name: 'triage',
      implementation: 'FilesystemSkillStore',
      message: "Skill not found: 'triage'",
      cause,
    });
  });

  it('VersionNotFoundError and StorageConflictError carry their details', () => {
    expect(new VersionNotFoundError('triage', 'abc', 'SqliteSkillStore')).toMatchObject({
      name: 'VersionNotFoundError',
      code: 'version_not_found',
      version: 'abc',
      message: "Version 'abc' of skill 'triage' not found",
    });
    expect(new StorageConflictError('triage', 'author is locked', 'SqliteSkillStore')).toMatchObject({
      name: 'StorageConflictError',
      code: 'storage_conflict',
      reason: 'author is locked',
      message: "Storage conflict on 'triage': author is locked",
    });
  });

  it('UnsupportedFilterError keeps frozen copies of both key lists', () => {
    const keys = ['vault'];
    const error = new UnsupportedFilterError(keys, [], 'data_read', { cause });
    keys.push('tenant');
    expect(error).toMatchObject({ name: 'UnsupportedFilterError', code: 'unsupported_filter', cause });
    expect(error.unsupported_keys).toEqual(['vault']);
    expect(Object.isFrozen(error.unsupported_keys)).toBe(true);
    expect(error.message).toContain("query against data_read carried unsupported filter key(s): 'vault'.");
    expect(error.message).toContain('supported_filters: [(none)]');
  });

  it('StorageValidationError prefixes the path when there is one', () => {
    expect(new StorageValidationError('must be a string', 'body')).toMatchObject({
      name: 'StorageValidationError',
      code: 'storage_validation',
      path: 'body',
      message: 'body: must be a string',
    });
    expect(new StorageValidationError('bad').message).toBe('bad');
  });
});
