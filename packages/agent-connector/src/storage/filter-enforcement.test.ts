import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BASE_QUERY_FILTER_KEYS, enforceSupportedFilters } from './data-store.js';
import { UnsupportedFilterError } from './errors.js';

const base = { query: 'deploy', limit: 10, mode: 'fts' };

/** The keys `enforceSupportedFilters` refused, or `[]` when it let the query through. */
function refused(filters: Record<string, unknown>, supported?: readonly string[]): readonly string[] {
  try {
    enforceSupportedFilters(filters, supported);
    return [];
  } catch (error) {
    if (error instanceof UnsupportedFilterError) return error.unsupported_keys;
    throw error;
  }
}

describe('enforceSupportedFilters', () => {
  it('lets the base keys through, even with nothing declared', () => {
    expect(BASE_QUERY_FILTER_KEYS).toEqual(['query', 'limit', 'mode', 'permissive_filters']);
    expect(refused({ ...base, permissive_filters: false })).toEqual([]);
    expect(refused({ ...base, permissive_filters: 'yes' }, [])).toEqual([]);
  });

  it('lets a declared key through and refuses an undeclared one', () => {
    expect(refused({ ...base, domain_tags: 'ops' }, ['domain_tags'])).toEqual([]);
    expect(refused({ ...base, vault: 'finance' }, ['domain_tags'])).toEqual(['vault']);
  });

  it('fails closed: nothing declared (absent or empty) refuses every extra key', () => {
    expect(refused({ ...base, domain_tags: 'ops' })).toEqual(['domain_tags']);
    expect(refused({ ...base, domain_tags: 'ops' }, [])).toEqual(['domain_tags']);
  });

  it('is presence-based: undefined, null and false values count', () => {
    expect(refused({ ...base, vault: undefined }, [])).toEqual(['vault']);
    expect(refused({ ...base, vault: null }, [])).toEqual(['vault']);
    expect(refused({ ...base, pinned: false }, [])).toEqual(['pinned']);
  });

  it('is case-sensitive for declared and base keys', () => {
    expect(refused({ ...base, Domain_Tags: 'ops' }, ['domain_tags'])).toEqual(['Domain_Tags']);
    expect(refused({ ...base, Query: 'x' })).toEqual(['Query']);
    expect(refused({ ...base, LIMIT: 3 }, ['limit'])).toEqual(['LIMIT']);
  });

  it('opts out only for the literal true', () => {
    expect(refused({ ...base, permissive_filters: true, vault: 'x', tenant: 't' })).toEqual([]);
    for (const flag of ['true', 1, 'TRUE', {}, [true], false, null]) {
      expect(refused({ ...base, permissive_filters: flag, vault: 'x' }), String(flag)).toEqual(['vault']);
    }
  });

  it('lists every offending key in the object key order and names both sets in the message', () => {
    const error = (() => {
      try {
        enforceSupportedFilters(
          { ...base, zeta: 1, domain_tags: 'x', alpha: 2 },
          ['domain_tags'],
          'MyBridge',
        );
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(UnsupportedFilterError);
    const filterError = error as UnsupportedFilterError;
    expect(filterError.unsupported_keys).toEqual(['zeta', 'alpha']);
    expect(filterError.supported_keys).toEqual(['domain_tags']);
    expect(filterError.substrate).toBe('MyBridge');
    // The reference runtime's wording, with the advice in `remediation` rather than the message.
    expect(filterError.message).toBe(
      "`data_read` query against MyBridge carried unsupported filter key(s): 'zeta', 'alpha'. " +
        "Substrate declares supported_filters: ['domain_tags'].",
    );
    expect(filterError.remediation).toContain('permissive_filters: true');
  });

  it('says "(none)" when nothing is declared', () => {
    expect(() => enforceSupportedFilters({ ...base, vault: 'x' }, undefined)).toThrow(/\[\(none\)\]/);
  });

  it('counts non-enumerable and symbol keys, which a substrate could still read', () => {
    const filters = { ...base };
    Object.defineProperty(filters, 'vault', { value: 'x', enumerable: false });
    expect(refused(filters, [])).toEqual(['vault']);
    expect(refused({ ...base, [Symbol('tenant')]: 't' }, [])).toEqual(['Symbol(tenant)']);
  });

  it('counts a "__proto__" own key as a filter key', () => {
    expect(refused(JSON.parse('{"query":"q","limit":1,"mode":"fts","__proto__":{"vault":"x"}}'), [])).toEqual(
      ['__proto__'],
    );
  });

  it('refuses filters that are not a plain object, so inherited keys cannot slip past', () => {
    const inherited = Object.assign(Object.create({ vault: 'finance' }) as object, base);
    for (const filters of [inherited, null, 'q', ['query'], new Map()]) {
      expect(() => enforceSupportedFilters(filters as Record<string, unknown>, [])).toThrow(
        expect.objectContaining({ code: 'storage_validation', path: 'filters' }),
      );
    }
    expect(refused(Object.assign(Object.create(null) as object, base, { vault: 1 }), [])).toEqual(['vault']);
  });

  it('refuses a declared list that is not an array of strings', () => {
    for (const supported of ['domain_tags', [1], {}, null]) {
      expect(() => enforceSupportedFilters(base, supported as unknown as string[])).toThrow(
        expect.objectContaining({ code: 'storage_validation' }),
      );
    }
  });

  it('never lets an undeclared non-base key through unless permissive_filters is true (property)', () => {
    const key = fc.oneof(
      fc.constantFrom(...BASE_QUERY_FILTER_KEYS, 'vault', 'Vault', 'domain_tags', 'tenant', '__proto__', ''),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(
        fc.dictionary(key, fc.oneof(fc.constant(true), fc.constant(undefined), fc.jsonValue()), {
          maxKeys: 8,
        }),
        fc.option(fc.array(key, { maxLength: 5 }), { nil: undefined }),
        (filters, supported) => {
          const declared = new Set(supported ?? []);
          const expected = Object.keys(filters).filter(
            (k) => !BASE_QUERY_FILTER_KEYS.includes(k) && !declared.has(k),
          );
          const result = refused(filters, supported);
          if (filters['permissive_filters'] === true) expect(result).toEqual([]);
          else expect(result).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
