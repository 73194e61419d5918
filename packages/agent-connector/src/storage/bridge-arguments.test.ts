import { describe, expect, it } from 'vitest';
import {
  DEFAULT_QUERY_LIMIT,
  DEFAULT_QUERY_MODE,
  dataWriteFromArgs,
  queryFiltersFromArgs,
} from './data-store.js';

describe('queryFiltersFromArgs', () => {
  it('fills mode "fts" and limit 10 by default', () => {
    expect(DEFAULT_QUERY_MODE).toBe('fts');
    expect(DEFAULT_QUERY_LIMIT).toBe(10);
    expect(queryFiltersFromArgs({ query: 'deploy' })).toStrictEqual({
      query: 'deploy',
      limit: 10,
      mode: 'fts',
    });
  });

  it('requires a non-empty string query', () => {
    for (const args of [{}, { query: '' }, { query: 3 }, { query: null }, { query: ['q'] }]) {
      expect(() => queryFiltersFromArgs(args)).toThrow(
        expect.objectContaining({ code: 'storage_validation', path: 'query' }),
      );
    }
  });

  it('refuses arguments that are not an object', () => {
    for (const args of [null, undefined, 'query', ['query']]) {
      expect(() => queryFiltersFromArgs(args as unknown as Record<string, unknown>)).toThrow(
        expect.objectContaining({ code: 'storage_validation' }),
      );
    }
  });

  it.each([
    [5, 5],
    [2.7, 2.7],
    [0, 10],
    [-3, 10],
    [Number.POSITIVE_INFINITY, 10],
    [Number.NaN, 10],
    ['25', 25],
    ['12abc', 12],
    ['1.9', 1],
    [' 7', 7],
    ['abc', 10],
    ['', 10],
    ['0', 10],
    ['-5', 10],
    [true, 10],
    [null, 10],
  ])('reads limit %o as %o', (limit, expected) => {
    expect(queryFiltersFromArgs({ query: 'q', limit }).limit).toBe(expected);
  });

  it('keeps a non-empty string mode and defaults anything else', () => {
    expect(queryFiltersFromArgs({ query: 'q', mode: 'semantic' }).mode).toBe('semantic');
    expect(queryFiltersFromArgs({ query: 'q', mode: '' }).mode).toBe('fts');
    expect(queryFiltersFromArgs({ query: 'q', mode: 5 }).mode).toBe('fts');
  });

  it('copies every other argument verbatim after query, limit and mode, in argument order', () => {
    const tags = ['a'];
    const filters = queryFiltersFromArgs({
      vault: 'ops',
      query: 'q',
      domain_tags: tags,
      permissive_filters: 'true',
    });
    expect(Object.keys(filters)).toEqual([
      'query',
      'limit',
      'mode',
      'vault',
      'domain_tags',
      'permissive_filters',
    ]);
    expect(filters['domain_tags']).toBe(tags);
    expect(filters['permissive_filters']).toBe('true');
  });

  it('keeps an argument with an undefined value as a present key', () => {
    expect(Object.hasOwn(queryFiltersFromArgs({ query: 'q', vault: undefined }), 'vault')).toBe(true);
  });

  it('copies a "__proto__" argument as an own key instead of changing the prototype', () => {
    const filters = queryFiltersFromArgs(JSON.parse('{"query":"q","__proto__":{"vault":"x"}}'));
    expect(Object.getPrototypeOf(filters)).toBe(Object.prototype);
    expect(Object.keys(filters)).toContain('__proto__');
    expect((filters as Record<string, unknown>)['vault']).toBeUndefined();
  });
});

describe('dataWriteFromArgs', () => {
  it('forwards content and the well-typed optional fields', () => {
    const metadata = { vault: 'ops' };
    expect(
      dataWriteFromArgs({
        content: 'Deploy done\nall green',
        tags: ['ops'],
        recipients: ['perry'],
        expires_at: 1767225600,
        metadata,
        vault: 'dropped',
      }),
    ).toStrictEqual({
      content: 'Deploy done\nall green',
      tags: ['ops'],
      recipients: ['perry'],
      expires_at: 1767225600,
      metadata,
    });
  });

  it('drops optional fields of the wrong type, and a null expires_at', () => {
    expect(
      dataWriteFromArgs({
        content: 'x',
        tags: ['ops', 3],
        recipients: 'perry',
        expires_at: null,
        metadata: ['a'],
      }),
    ).toStrictEqual({ content: 'x' });
    expect(dataWriteFromArgs({ content: 'x', expires_at: Number.NaN, metadata: null })).toStrictEqual({
      content: 'x',
    });
  });

  it('requires non-empty string content', () => {
    for (const args of [{}, { content: '' }, { content: ['x'] }]) {
      expect(() => dataWriteFromArgs(args)).toThrow(expect.objectContaining({ path: 'content' }));
    }
    expect(() => dataWriteFromArgs(null as unknown as Record<string, unknown>)).toThrow(
      expect.objectContaining({ code: 'storage_validation' }),
    );
  });
});
