import { describe, expect, it } from 'vitest';
import { HearthNetLocalError } from '../errors.js';
import { asHearthNetError, errorFromBody, toErrorBody } from './error-body.js';
import {
  BadRequestError,
  CapacityExceededError,
  createHearthNetError,
  HEARTHNET_ERROR_CODES,
  HearthNetError,
  InternalError,
  SchemaMismatchError,
} from './hearthnet-errors.js';

describe('HearthNet errors', () => {
  it('has one class per code, each with its own name, and a default message', () => {
    const names = new Set<string>();
    for (const code of HEARTHNET_ERROR_CODES) {
      const error = createHearthNetError(code);
      expect(error).toBeInstanceOf(HearthNetError);
      expect(error.code).toBe(code);
      expect(error.message.startsWith(`${code}: `)).toBe(true);
      names.add(error.name);
    }
    expect(names.size).toBe(13);
  });

  it('keeps the §5.4 options and the cause', () => {
    const cause = new Error('disk full');
    const error = new CapacityExceededError('busy', {
      retryAfterMs: 2000,
      altCapabilities: ['llm.chat@1.1'],
      altNodes: ['ed25519:x'],
      cause,
    });
    expect(error.cause).toBe(cause);
    expect(error.retryAfterMs).toBe(2000);
    expect(error.status).toBe(429);
    expect(error.retryable).toBe(true);
    expect(Object.isFrozen(error.altCapabilities)).toBe(true);
  });

  it('refuses options the wire body cannot carry, with a typed error', () => {
    expect(() => new BadRequestError('x', { retryAfterMs: -1 })).toThrow(
      expect.objectContaining({ code: 'invalid_error_options' }),
    );
    expect(() => new BadRequestError('x', { altNodes: [1] as unknown as string[] })).toThrow(
      expect.objectContaining({ code: 'invalid_error_options' }),
    );
    expect(() => createHearthNetError('nope' as 'timeout')).toThrow(
      expect.objectContaining({ code: 'invalid_error_options' }),
    );
  });

  it('retries internal_error only for idempotent capabilities', () => {
    const error = new InternalError();
    expect(error.retryable).toBe(false);
    expect(error.shouldRetry(true)).toBe(true);
    expect(error.shouldRetry(false)).toBe(false);
  });

  it('round-trips every code and option through toErrorBody and errorFromBody', () => {
    for (const code of HEARTHNET_ERROR_CODES) {
      const original = createHearthNetError(code, 'm', {
        retryAfterMs: 5,
        altNodes: ['n'],
        ...(code === 'schema_mismatch' ? { schemaHashExpected: 'blake3:00' } : {}),
      });
      const body = toErrorBody(original);
      const decoded = errorFromBody(JSON.parse(JSON.stringify(body)), original.status);
      expect(decoded.constructor).toBe(original.constructor);
      expect(toErrorBody(decoded)).toEqual(body);
    }
  });

  it('turns anything thrown into a HearthNet error without leaking its message', () => {
    const request = new HearthNetLocalError('schema_validation', 'rag.query@1.0 request does not match', {
      details: {
        capability: 'rag.query@1.0',
        part: 'request',
        issues: [{ path: '$.input.k', message: 'too big' }],
      },
    });
    expect(asHearthNetError(request)).toBeInstanceOf(BadRequestError);
    const response = new HearthNetLocalError('schema_validation', 'rag.query@1.0 response does not match', {
      details: { capability: 'rag.query@1.0', part: 'response', issues: [] },
    });
    expect(asHearthNetError(response)).toBeInstanceOf(InternalError);
    const secret = new Error('password=hunter2');
    const wrapped = asHearthNetError(secret);
    expect(wrapped.cause).toBe(secret);
    expect(toErrorBody(secret)).toEqual({ error: 'internal_error', message: wrapped.message });
    expect(wrapped.message).not.toContain('hunter2');
    const mismatch = new SchemaMismatchError();
    expect(asHearthNetError(mismatch)).toBe(mismatch);
  });

  it('answers the blob store codes with their §9 code and message, other local codes as internal_error', () => {
    for (const code of [
      'invalid_blob_store_input',
      'chunk_mismatch',
      'invalid_blob_manifest',
      'missing_chunks',
    ] as const) {
      const local = new HearthNetLocalError(code, `refused: ${code}`);
      const answered = asHearthNetError(local);
      expect(answered).toBeInstanceOf(BadRequestError);
      expect(answered).toMatchObject({ message: `refused: ${code}`, cause: local });
      expect(toErrorBody(local)).toEqual({ error: 'bad_request', message: `refused: ${code}` });
    }
    const corrupt = new HearthNetLocalError('corrupt_chunk', 'stored chunk x is corrupt');
    expect(toErrorBody(corrupt)).toEqual({ error: 'internal_error', message: 'stored chunk x is corrupt' });
    const other = new HearthNetLocalError('invalid_node_id', 'secret-ish detail');
    expect(asHearthNetError(other)).toBeInstanceOf(InternalError);
    expect(asHearthNetError(other).message).not.toContain('secret-ish');
  });

  it('decodes any body without throwing', () => {
    for (const body of [undefined, null, 1, 'x', [], {}, { error: 5 }, { error: '' }, { error: ':' }]) {
      expect(errorFromBody(body)).toBeInstanceOf(HearthNetError);
    }
  });
});
