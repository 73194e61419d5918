import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HearthNetLocalError } from '../errors.js';
import {
  canonicalJson,
  canonicalJsonString,
  findLossyNumbers,
  formatCanonicalNumber,
  normalizedCanonicalJson,
  normalizeNumbers,
} from './canonical-json.js';

const text = fc.string({ unit: 'grapheme', maxLength: 10 });
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.bigInt(),
    text,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(text, tie('value'), { maxKeys: 6 }),
  ),
})).value;

const withoutBigints = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? Number(item) : item)),
  );

describe('normalizeNumbers', () => {
  it('replaces every number by what its canonical form reads back as, keeping bigints', () => {
    const input = {
      a: 1.2345678,
      b: [-0, 1.5, 123456.5, 1.2345678901234568e16],
      c: 2n ** 64n,
      d: 'x',
      e: null,
    };
    const normalized = normalizeNumbers(input);
    expect(normalized).toEqual({
      a: 1.23457,
      b: [0, 1.5, 123456, 1.23457e16],
      c: 2n ** 64n,
      d: 'x',
      e: null,
    });
    expect(Object.is(normalized.b[0], 0)).toBe(true);
    expect(input.a).toBe(1.2345678);
  });

  it('returns a deep copy that keeps prototypes and own "__proto__" keys', () => {
    const shared = { x: 0.1 + 0.2 };
    const input = { p: shared, q: [shared] };
    const normalized = normalizeNumbers(input);
    expect(normalized.p).not.toBe(shared);
    expect(normalized.q).not.toBe(input.q);
    const bare = Object.create(null) as Record<string, unknown>;
    bare['k'] = 1;
    expect(Object.getPrototypeOf(normalizeNumbers(bare))).toBeNull();
    const parsed = normalizeNumbers(JSON.parse('{"__proto__":{"y":0.30000000000000004}}') as object);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(['__proto__']);
    expect(canonicalJsonString(parsed)).toBe('{"__proto__":{"y":0.3}}');
  });

  it('throws what canonicalJson throws', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['me'] = cyclic;
    for (const bad of [{ a: [Number.NaN] }, { 'b\ud800': 1 }, { c: undefined }, { d: new Date(0) }, cyclic]) {
      let expected: unknown;
      try {
        canonicalJsonString(bad);
      } catch (error) {
        expected = error;
      }
      expect(expected).toBeInstanceOf(HearthNetLocalError);
      const { code, path } = expected as HearthNetLocalError;
      expect(() => normalizeNumbers(bad)).toThrow(expect.objectContaining({ code, path }));
    }
  });

  it('is idempotent, leaves nothing lossy, and canonicalises like the parsed canonical bytes', () => {
    fc.assert(
      fc.property(jsonValue, (v) => {
        const normalized = normalizeNumbers(v);
        expect(normalizeNumbers(normalized)).toEqual(normalized);
        expect(findLossyNumbers(normalized)).toEqual([]);
        const plain = withoutBigints(v);
        expect(canonicalJsonString(normalizeNumbers(plain))).toBe(
          canonicalJsonString(JSON.parse(canonicalJsonString(plain))),
        );
      }),
      { numRuns: 400 },
    );
  });

  it('canonicalises identically to the original whenever the original has no lossy number', () => {
    fc.assert(
      fc.property(jsonValue, (v) => {
        if (findLossyNumbers(v).length === 0) {
          expect(canonicalJsonString(normalizeNumbers(v))).toBe(canonicalJsonString(v));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('may change the canonical bytes of a %g exponent form below 1e16 (it reads back as an integer)', () => {
    expect(canonicalJsonString(1234567.5)).toBe('1.23457e+06');
    expect(normalizeNumbers(1234567.5)).toBe(1234570);
    expect(canonicalJsonString(normalizeNumbers(1234567.5))).toBe('1234570');
  });
});

/** What a call throws, as code and message (or the value it returns). */
function outcome(run: () => unknown): unknown {
  try {
    return { value: run() };
  } catch (error) {
    if (error instanceof HearthNetLocalError) return { code: error.code, message: error.message };
    throw error;
  }
}

describe('normalizedCanonicalJson', () => {
  it('property: the copy with every number as its canonical form reads back, and the canonical JSON of it, in one walk', () => {
    // The rule, written plainly: each number becomes Number(formatCanonicalNumber(n)); the rest is copied.
    const reference = (value: unknown): unknown => {
      if (typeof value === 'number') return Number(formatCanonicalNumber(value));
      if (Array.isArray(value)) return value.map(reference);
      if (value !== null && typeof value === 'object') {
        const copy: Record<string, unknown> =
          Object.getPrototypeOf(value) === null ? Object.create(null) : {};
        for (const [key, item] of Object.entries(value)) {
          // An own "__proto__" key stays data.
          Object.defineProperty(copy, key, {
            value: reference(item),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        return copy;
      }
      return value;
    };
    fc.assert(
      fc.property(jsonValue, (value) => {
        const fused = normalizedCanonicalJson(value);
        expect(fused.copy).toStrictEqual(reference(value));
        expect(fused.bytes).toEqual(canonicalJson(fused.copy));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps own __proto__ keys and null prototypes, and fails first where canonicalJson fails first', () => {
    const parsed = JSON.parse('{"__proto__":{"x":1.23456789},"b":-0,"a":1234567.5}');
    const fused = normalizedCanonicalJson(Object.assign(Object.create(null), { inner: parsed }));
    expect(Object.getPrototypeOf(fused.copy)).toBeNull();
    expect(fused.copy).toStrictEqual(normalizeNumbers(Object.assign(Object.create(null), { inner: parsed })));
    expect(new TextDecoder().decode(fused.bytes)).toBe(
      '{"inner":{"__proto__":{"x":1.23457},"a":1234570,"b":0}}',
    );
    const holey = new Array<number>(3);
    holey[0] = 1;
    holey[2] = 3;
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    for (const bad of [
      { b: Number.NaN, a: '\ud800' },
      { z: holey, y: undefined },
      { a: new Date(0) },
      cyclic,
      { k: () => 1 },
      { ['\udc00']: 1 },
    ]) {
      const written = outcome(() => canonicalJson(bad));
      expect(outcome(() => normalizedCanonicalJson(bad))).toEqual(written);
      expect(written).toHaveProperty('code');
    }
  });
});
