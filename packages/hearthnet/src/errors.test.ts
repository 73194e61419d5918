import { describe, expect, it } from 'vitest';
import { canonicalJsonString } from './canonical-json/canonical-json.js';
import { asHearthNetError } from './capabilities/error-body.js';
import { HearthNetError } from './capabilities/hearthnet-errors.js';
import { parseNodeId } from './crypto/key-pair.js';
import { HearthNetLocalError } from './errors.js';

describe('HearthNetLocalError', () => {
  it('carries its name, code, message, path, retryable, details and cause', () => {
    const cause = new Error('inner');
    const error = new HearthNetLocalError('cycle', 'the value contains itself at $.a[1]', {
      cause,
      path: '$.a[1]',
      retryable: true,
      details: { value: 1 },
    });
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(HearthNetLocalError);
    expect(error).not.toBeInstanceOf(HearthNetError);
    expect(error.name).toBe('HearthNetLocalError');
    expect(error.code).toBe('cycle');
    expect(error.message).toBe('the value contains itself at $.a[1]');
    expect(error.path).toBe('$.a[1]');
    expect(error.retryable).toBe(true);
    expect(error.details).toEqual({ value: 1 });
    expect(error.cause).toBe(cause);
    expect(String(error)).toBe('HearthNetLocalError: the value contains itself at $.a[1]');
  });

  it('defaults to the value as a whole, not retryable, no details and no cause', () => {
    const error = new HearthNetLocalError('invalid_wire_options', 'options are required');
    expect(error.path).toBe('');
    expect(error.retryable).toBe(false);
    expect(error.details).toEqual({});
    expect('cause' in error).toBe(false);
    expect(error.stack).toContain('options are required');
  });

  it('keeps the options it was given out of its own fields', () => {
    const error = new HearthNetLocalError('sync_protocol', '/sync/heads: bad', {
      details: { requestPath: '/sync/heads' },
    });
    expect(Object.keys(error).sort()).toEqual(['code', 'details', 'name', 'path', 'retryable']);
    expect(error.details?.requestPath).toBe('/sync/heads');
  });

  it('is what the package throws, with the code and details callers switch on', () => {
    expect(() => canonicalJsonString({ a: [Number.NaN] })).toThrow(
      expect.objectContaining({ name: 'HearthNetLocalError', code: 'non_finite_number', path: '$.a[0]' }),
    );
    expect(() => parseNodeId('ed25519:ABCD-EFGH')).toThrow(
      expect.objectContaining({
        code: 'invalid_node_id',
        details: { reason: 'short_form', value: 'ed25519:ABCD-EFGH' },
      }),
    );
  });

  it('is answered as internal_error by a server unless its code maps to a §9 code', () => {
    const local = new HearthNetLocalError('invalid_node_id', 'node id "x" does not start with ed25519:');
    const answered = asHearthNetError(local);
    expect(answered.code).toBe('internal_error');
    expect(answered.message).not.toContain('node id');
    expect(answered.cause).toBe(local);
    const store = new HearthNetLocalError('invalid_blob_store_input', 'invalid cid: not a string', {
      path: 'cid',
    });
    expect(asHearthNetError(store)).toMatchObject({
      code: 'bad_request',
      message: 'invalid cid: not a string',
    });
  });
});
