import { describe, expect, it } from 'vitest';
import { AgentConnectorError } from '../contract/errors.js';
import {
  SkillNotFoundError,
  storageConflictError,
  storageValidationError,
  UnsupportedFilterError,
} from './errors.js';

describe('storage errors', () => {
  const cause = new Error('underlying');

  it('SkillNotFoundError names the skill and the store', () => {
    const error = new SkillNotFoundError('triage', 'FilesystemSkillStore', { cause });
    expect(error).toBeInstanceOf(AgentConnectorError);
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

  it('version_not_found and storage_conflict carry their details', () => {
    const missingVersion = new SkillNotFoundError('triage', 'SqliteSkillStore', { version: 'abc' });
    expect(missingVersion).toBeInstanceOf(SkillNotFoundError);
    expect(missingVersion).toMatchObject({
      code: 'version_not_found',
      connector_type: 'skill_store',
      skill_name: 'triage',
      implementation: 'SqliteSkillStore',
      details: { version: 'abc' },
      message: "Version 'abc' of skill 'triage' not found",
    });
    expect(storageConflictError('triage', 'author is locked', 'SqliteSkillStore')).toMatchObject({
      code: 'storage_conflict',
      details: { reason: 'author is locked' },
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

  it('storage_validation prefixes the path when there is one', () => {
    expect(storageValidationError('must be a string', 'body')).toMatchObject({
      code: 'storage_validation',
      path: 'body',
      message: 'body: must be a string',
    });
    expect(storageValidationError('bad').message).toBe('bad');
  });
});
