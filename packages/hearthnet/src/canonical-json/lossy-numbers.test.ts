import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalJsonWithLossyNumbers, findLossyNumbers } from './canonical-json.js';

describe('findLossyNumbers', () => {
  it('lists the paths of numbers canonical JSON changes, in canonical key order', () => {
    const value = {
      z: 0.1 + 0.2,
      a: [1, 2.5, Math.PI, { 'b-c': -0, ok: 1e16 }],
      big: 2n ** 70n,
      s: 'Math.PI',
    };
    expect(findLossyNumbers(value)).toEqual(['$.a[2]', '$.a[3]["b-c"]', '$.z']);
  });

  it('is empty for canonical numbers', () => {
    expect(findLossyNumbers([0, 1, -5, 0.5, 1.23456, 1.23457e16, 9007199254740992, 4.94066e-324])).toEqual(
      [],
    );
  });

  it('names the root for a bare number', () => {
    expect(findLossyNumbers(1234567.5)).toEqual(['$']);
  });

  it('throws what canonicalJson throws', () => {
    expect(() => findLossyNumbers({ a: { b: Number.POSITIVE_INFINITY } })).toThrow(
      expect.objectContaining({ code: 'non_finite_number', path: '$.a.b' }),
    );
    expect(() => findLossyNumbers(['\udfff'])).toThrow(expect.objectContaining({ code: 'lone_surrogate' }));
    expect(() => findLossyNumbers({ m: new Map() })).toThrow(
      expect.objectContaining({ code: 'unsupported_type', path: '$.m' }),
    );
  });
});

describe('canonicalJsonWithLossyNumbers', () => {
  it('gives the canonical bytes and the lossy paths of one walk, as the two separate calls do', () => {
    const value = { b: [-0, 1, 2.5, Math.E], a: { x: 1e16, y: 'é' }, c: 123456.5 };
    const both = canonicalJsonWithLossyNumbers(value);
    expect(both.bytes).toEqual(canonicalJson(value));
    expect(both.lossyNumbers).toEqual(['$.b[0]', '$.b[3]', '$.c']);
    expect(both.lossyNumbers).toEqual(findLossyNumbers(value));
  });
});
