import { describe, expect, it } from 'vitest';
import { CanonicalJsonError } from './errors.js';

describe('CanonicalJsonError', () => {
  it('carries its name, code, path and cause', () => {
    const cause = new Error('inner');
    const error = new CanonicalJsonError('cycle', '$.a[1]', 'the value contains itself', { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('CanonicalJsonError');
    expect(error.code).toBe('cycle');
    expect(error.path).toBe('$.a[1]');
    expect(error.message).toBe('the value contains itself at $.a[1]');
    expect(error.cause).toBe(cause);
  });
});
