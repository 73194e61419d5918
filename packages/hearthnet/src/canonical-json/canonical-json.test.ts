import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HearthNetLocalError, type HearthNetLocalErrorCode } from '../errors.js';
import {
  canonicalJson,
  canonicalJsonString,
  formatCanonicalNumber,
  MAX_CANONICAL_DEPTH,
} from './canonical-json.js';

function errorOf(value: unknown): HearthNetLocalError {
  try {
    canonicalJsonString(value);
  } catch (error) {
    if (error instanceof HearthNetLocalError) return error;
    throw error;
  }
  throw new Error('expected a HearthNetLocalError');
}

function expectError(value: unknown, code: HearthNetLocalErrorCode, path: string): void {
  const error = errorOf(value);
  expect({ code: error.code, path: error.path }).toEqual({ code, path });
}

function nested(depth: number, leaf: unknown = 0): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

/**
 * JSON.stringify with object keys sorted (code unit order, equal to code point order for ASCII). Built
 * by hand because JavaScript lists integer-like keys ("0", "7") first whatever their insertion order.
 */
function sortedStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedStringify).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const record = value as Record<string, unknown>;
  const members = Object.keys(record)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${sortedStringify(record[key])}`);
  return `{${members.join(',')}}`;
}

describe('canonicalJsonString', () => {
  describe('structure', () => {
    it('sorts keys at every level, keeps array order and writes no whitespace', () => {
      expect(canonicalJsonString({ b: 1, a: { d: [3, 1, 2], c: null }, c: [{ z: true, y: false }] })).toBe(
        '{"a":{"c":null,"d":[3,1,2]},"b":1,"c":[{"y":false,"z":true}]}',
      );
    });

    it('writes empty containers and top-level primitives', () => {
      expect(canonicalJsonString({})).toBe('{}');
      expect(canonicalJsonString([])).toBe('[]');
      expect(canonicalJsonString([{}, []])).toBe('[{},[]]');
      expect(canonicalJsonString(null)).toBe('null');
      expect(canonicalJsonString(true)).toBe('true');
      expect(canonicalJsonString(false)).toBe('false');
      expect(canonicalJsonString('x')).toBe('"x"');
      expect(canonicalJsonString(1.5)).toBe('1.5');
    });

    it('orders keys by code point: "～" (U+FF5E) before "😀" (U+1F600)', () => {
      expect(canonicalJsonString({ '😀': 1, '～': 2 })).toBe('{"～":2,"😀":1}');
      expect(canonicalJsonString({ z: 1, '😀': 2, '～': 3, '\ue000': 4, é: 5 })).toBe(
        '{"z":1,"é":5,"\ue000":4,"～":3,"😀":2}',
      );
    });

    it('orders the empty key first, upper case before lower case, numeric-looking keys as strings', () => {
      expect(canonicalJsonString({ b: 1, B: 2, a: 3, A: 4, '': 5, '10': 6, '9': 7, '-1': 8, '1.5': 9 })).toBe(
        '{"":5,"-1":8,"1.5":9,"10":6,"9":7,"A":4,"B":2,"a":3,"b":1}',
      );
    });

    it('sorts objects with many keys and many objects the same way (memoised key path)', () => {
      const keys = ['😀', '～', 'q"x', 'tab\t', 'b', 'a', 'Z', '10', '9', 'é', '\u0000', ...'mnopqrstuvwxyz'];
      const record = Object.fromEntries(keys.map((key, i) => [key, i]));
      const expected = `{${[...keys]
        .sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)))
        .map((key) => `${JSON.stringify(key)}:${record[key]}`)
        .join(',')}}`;
      expect(canonicalJsonString(record)).toBe(expected);
      const many = Array.from({ length: 30 }, () => record);
      expect(canonicalJsonString(many)).toBe(`[${Array(30).fill(expected).join(',')}]`);
    });

    it('keeps an own "__proto__" key as data and accepts null-prototype objects', () => {
      expect(canonicalJsonString(JSON.parse('{"__proto__":{"x":1},"a":2}'))).toBe(
        '{"__proto__":{"x":1},"a":2}',
      );
      const bare = Object.create(null) as Record<string, unknown>;
      bare['b'] = 1;
      bare['a'] = [bare['b']];
      expect(canonicalJsonString(bare)).toBe('{"a":[1],"b":1}');
    });

    it('serialises a shared (acyclic) reference wherever it appears', () => {
      const shared = { x: 1 };
      expect(canonicalJsonString({ a: shared, b: [shared, shared] })).toBe(
        '{"a":{"x":1},"b":[{"x":1},{"x":1}]}',
      );
    });

    it('ignores symbol-keyed and non-enumerable properties and does not call toJSON-like data', () => {
      const value = { a: 1, [Symbol('s')]: 2 };
      Object.defineProperty(value, 'hidden', { value: 3, enumerable: false });
      expect(canonicalJsonString(value)).toBe('{"a":1}');
    });
  });

  describe('strings', () => {
    it('escapes every control character U+0000–U+001F, short forms where JSON has them', () => {
      const short: Record<number, string> = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' };
      for (let code = 0; code < 0x20; code++) {
        const expected = short[code] ?? `\\u00${code.toString(16).padStart(2, '0')}`;
        expect(canonicalJsonString(String.fromCharCode(code))).toBe(`"${expected}"`);
      }
      expect(canonicalJsonString('\u001f')).toBe('"\\u001f"');
    });

    it('escapes " and \\ and nothing else: DEL, U+2028/2029, "/", BOM, non-ASCII stay raw', () => {
      expect(canonicalJsonString('"\\')).toBe('"\\"\\\\"');
      expect(canonicalJsonString('\u007f\u2028\u2029/\ufeffé€')).toBe('"\u007f\u2028\u2029/\ufeffé€"');
      expect(canonicalJsonString({ 'k"\n': 'v' })).toBe('{"k\\"\\n":"v"}');
    });

    it('keeps emoji and combining characters as they are (no normalisation)', () => {
      expect(canonicalJsonString(['😀', '👩‍👩‍👧', 'e\u0301', 'é'])).toBe('["😀","👩‍👩‍👧","e\u0301","é"]');
      expect(canonicalJsonString({ 'e\u0301': 1, é: 2 })).toBe('{"e\u0301":1,"é":2}');
    });

    it('returns UTF-8 bytes', () => {
      expect(Array.from(canonicalJson({ é: '😀' }))).toEqual([
        0x7b, 0x22, 0xc3, 0xa9, 0x22, 0x3a, 0x22, 0xf0, 0x9f, 0x98, 0x80, 0x22, 0x7d,
      ]);
      expect(canonicalJson('x')).toBeInstanceOf(Uint8Array);
    });
  });

  describe('numbers', () => {
    it('writes integers as digits and floats as %g with 6 significant digits', () => {
      expect(canonicalJsonString([0, -0, 1.0, -7, 2 ** 53, 1e15, Math.PI, 123456.789, 999999.5, 1e16])).toBe(
        '[0,0,1,-7,9007199254740992,1000000000000000,3.14159,123457,1e+06,1e+16]',
      );
      expect(canonicalJsonString({ a: 5e-324, b: 1.7976931348623157e308, c: 1e-7, d: 0.000123456789 })).toBe(
        '{"a":4.94066e-324,"b":1.79769e+308,"c":1e-07,"d":0.000123457}',
      );
    });

    it('rounds exact ties half to even', () => {
      expect(canonicalJsonString([100000.5, 123456.5, 123457.5, 10000.25, 1000.125, 100.0625])).toBe(
        '[100000,123456,123458,10000.2,1000.12,100.062]',
      );
    });

    it('writes bigints as digits', () => {
      expect(canonicalJsonString({ big: 2n ** 64n, neg: -(10n ** 21n), small: 5n })).toBe(
        '{"big":18446744073709551616,"neg":-1000000000000000000000,"small":5}',
      );
    });

    it('gives two different floats the same bytes when they agree to 6 digits (float_collision)', () => {
      expect(canonicalJsonString({ x: 1.2345678 })).toBe(canonicalJsonString({ x: 1.2345681 }));
      expect(canonicalJsonString({ x: 123456.789 })).toBe(canonicalJsonString({ x: 123457 }));
      expect(canonicalJsonString({ x: 0.30000000000000004 })).toBe(canonicalJsonString({ x: 0.3 }));
    });
  });

  describe('errors', () => {
    it.each([
      [Number.NaN, '$'],
      [{ a: [1, Number.POSITIVE_INFINITY] }, '$.a[1]'],
      [{ 'x-y': Number.NEGATIVE_INFINITY }, '$["x-y"]'],
    ])('non_finite_number: %s at %s', (value, path) => {
      expectError(value, 'non_finite_number', path);
    });

    it('lone_surrogate in values and keys, with the path', () => {
      expectError('\ud800', 'lone_surrogate', '$');
      expectError({ a: ['ok', 'x\udc00'] }, 'lone_surrogate', '$.a[1]');
      expectError({ a: { '\ud83d': 1 } }, 'lone_surrogate', '$.a["\\ud83d"]');
      expectError({ '\ude00\ud83d': 1 }, 'lone_surrogate', '$["\\ude00\\ud83d"]');
      const many = Array.from({ length: 20 }, (_, i) => (i === 15 ? { ok: 1, '\udbff': 2 } : { ok: 1 }));
      expectError(many, 'lone_surrogate', '$[15]["\\udbff"]');
    });

    it('unsupported_type for values JSON cannot carry, instead of dropping them', () => {
      expectError(undefined, 'unsupported_type', '$');
      expectError({ a: undefined }, 'unsupported_type', '$.a');
      expectError([1, undefined], 'unsupported_type', '$[1]');
      expectError({ f: () => 1 }, 'unsupported_type', '$.f');
      expectError({ toJSON: () => 1 }, 'unsupported_type', '$.toJSON');
      expectError([Symbol('s')], 'unsupported_type', '$[0]');
      // biome-ignore lint/suspicious/noSparseArray: the hole is the point
      expectError({ list: [1, , 3] }, 'unsupported_type', '$.list[1]');
    });

    it.each([
      ['Date', new Date(0)],
      ['Map', new Map([[1, 2]])],
      ['Set', new Set([1])],
      ['RegExp', /x/],
      ['Uint8Array', new Uint8Array([1])],
      ['boxed number', Object(1)],
      ['boxed string', Object('s')],
      ['class instance', new (class Point {})()],
      ['array subclass', new (class List extends Array {})()],
      ['Error', new Error('x')],
    ])('unsupported_type for a %s', (_name, value) => {
      expectError({ v: [value] }, 'unsupported_type', '$.v[0]');
    });

    it('cycle for an object or array that contains itself', () => {
      const object: Record<string, unknown> = { a: 1 };
      object['self'] = object;
      expectError(object, 'cycle', '$.self');
      const array: unknown[] = [1];
      array.push({ back: array });
      expectError({ list: array }, 'cycle', '$.list[1].back');
    });

    it(`max_depth: ${MAX_CANONICAL_DEPTH} nested containers pass, one more fails`, () => {
      expect(canonicalJsonString(nested(MAX_CANONICAL_DEPTH))).toBe(
        `${'['.repeat(MAX_CANONICAL_DEPTH)}0${']'.repeat(MAX_CANONICAL_DEPTH)}`,
      );
      expectError(nested(MAX_CANONICAL_DEPTH + 1), 'max_depth', `$${'[0]'.repeat(MAX_CANONICAL_DEPTH)}`);
      expectError(nested(MAX_CANONICAL_DEPTH, {}), 'max_depth', `$${'[0]'.repeat(MAX_CANONICAL_DEPTH)}`);
    });

    it('errors are HearthNetLocalError instances with a message naming the path', () => {
      const error = errorOf({ a: { b: Number.NaN } });
      expect(error).toMatchObject({ code: 'non_finite_number', path: '$.a.b' });
      expect(error.name).toBe('HearthNetLocalError');
      expect(error.message).toBe('NaN has no JSON form at $.a.b');
    });
  });

  describe('properties', () => {
    const asciiKey = fc.string({ unit: 'grapheme-ascii', maxLength: 8 });
    const text = fc.string({ unit: 'grapheme', maxLength: 12 });
    const integer = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });

    it('equals JSON.stringify with sorted keys for values without floats and with ASCII keys', () => {
      const { value } = fc.letrec((tie) => ({
        value: fc.oneof(
          { depthSize: 'small' },
          integer,
          text,
          fc.boolean(),
          fc.constant(null),
          fc.array(tie('value'), { maxLength: 5 }),
          fc.dictionary(asciiKey, tie('value'), { maxKeys: 6 }),
        ),
      }));
      fc.assert(
        fc.property(value, (v) => {
          expect(canonicalJsonString(v)).toBe(sortedStringify(v));
        }),
        { numRuns: 500 },
      );
    });

    const float = fc.double({ noNaN: true, noDefaultInfinity: true });
    const anyValue = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        integer,
        float,
        text,
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 5 }),
        fc.dictionary(text, tie('value'), { maxKeys: 6 }),
      ),
    })).value;

    it('is a fixed point after one trip through JSON.parse', () => {
      fc.assert(
        fc.property(anyValue, (v) => {
          const once = canonicalJsonString(JSON.parse(canonicalJsonString(v)));
          expect(canonicalJsonString(JSON.parse(once))).toBe(once);
        }),
        { numRuns: 500 },
      );
    });

    it('is idempotent (canonical → JSON.parse → canonical) when every %g form reads back as itself', () => {
      const stable = (x: number) => {
        const text = formatCanonicalNumber(x);
        return formatCanonicalNumber(Number(text)) === text;
      };
      const stableValue = fc.letrec((tie) => ({
        value: fc.oneof(
          { depthSize: 'small' },
          integer,
          float.filter(stable),
          text,
          fc.boolean(),
          fc.constant(null),
          fc.array(tie('value'), { maxLength: 5 }),
          fc.dictionary(text, tie('value'), { maxKeys: 6 }),
        ),
      })).value;
      fc.assert(
        fc.property(stableValue, (v) => {
          const bytes = canonicalJsonString(v);
          expect(canonicalJsonString(JSON.parse(bytes))).toBe(bytes);
        }),
        { numRuns: 500 },
      );
    });

    it('is not idempotent for %g exponent forms of numbers below 1e16, like the reference', () => {
      // 1.23457e+06 reads back as the integer 1234570, which canonical JSON writes as digits.
      expect(canonicalJsonString(1234567.5)).toBe('1.23457e+06');
      expect(canonicalJsonString(JSON.parse('1.23457e+06'))).toBe('1234570');
      expect(canonicalJsonString(JSON.parse('1.23457e+16'))).toBe('1.23457e+16');
    });
  });
});

describe('canonicalJson of strings of any length', () => {
  it('writes what JSON.stringify writes for a well-formed string, as value and key, and refuses a lone surrogate', () => {
    const pieces = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.string({ unit: 'grapheme', maxLength: 60 }),
      fc.constantFrom('"', '\\', '\n', '\u0000', '\u001f', '\u007f', 'é', '水', '😀', '\ud800', '\udfff'),
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 8 }), (parts) => {
        const text = parts.join('');
        if (!(text as unknown as { isWellFormed(): boolean }).isWellFormed()) {
          expect(() => canonicalJson(text)).toThrow(expect.objectContaining({ code: 'lone_surrogate' }));
          expect(() => canonicalJson({ [text]: 1 })).toThrow(
            expect.objectContaining({ code: 'lone_surrogate' }),
          );
          return;
        }
        expect(Buffer.from(canonicalJson(text)).toString('hex')).toBe(
          Buffer.from(JSON.stringify(text)).toString('hex'),
        );
        expect(Buffer.from(canonicalJson({ [text]: text })).toString('hex')).toBe(
          Buffer.from(JSON.stringify({ [text]: text })).toString('hex'),
        );
      }),
      { numRuns: 500 },
    );
  });
});
