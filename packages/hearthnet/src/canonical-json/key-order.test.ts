import { compareCodePoints } from '@agentwire/internal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortKeysByCodePoint, sortSurrogateFreeKeys } from './canonical-json.js';

const byCodePoints = (a: string, b: string): number => {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
};

const utf8Order = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe('compareCodePoints', () => {
  it('puts U+FF5E "～" before U+1F600 "😀" (code unit order says the opposite)', () => {
    expect(compareCodePoints('～', '😀')).toBeLessThan(0);
    expect(['😀', '～'].sort()).toEqual(['😀', '～']);
    expect(sortKeysByCodePoint(['😀', '～'])).toEqual(['～', '😀']);
  });

  it('orders U+E000 and U+FFFF below every astral character', () => {
    expect(sortKeysByCodePoint(['\u{10000}', '\uffff', '\ue000', '\ud7ff'])).toEqual([
      '\ud7ff',
      '\ue000',
      '\uffff',
      '\u{10000}',
    ]);
  });

  it('agrees with code point order and UTF-8 byte order on random well-formed strings', () => {
    const char = fc.oneof(
      fc.constantFrom('a', 'b', 'A', '', '～', '\ue000', '\uffff', '😀', '\u{10000}', '\u{10ffff}', 'é'),
      fc.string({ unit: 'grapheme', maxLength: 2 }),
    );
    const key = fc.array(char, { maxLength: 4 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(key, key, (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(byCodePoints(a, b)));
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(utf8Order(a, b)));
      }),
      { numRuns: 500 },
    );
  });

  it('orders lone surrogates by their own code point, as Python sorts str (B-form keys may hold them)', () => {
    // Python: sorted(['\udfffz', '\U00010000', '\ue000', '\ud800A']) == ['\ud800A', '\udfffz', '\ue000', '\U00010000']
    expect(sortKeysByCodePoint(['\udfffz', '\u{10000}', '\ue000', '\ud800A'])).toEqual([
      '\ud800A',
      '\udfffz',
      '\ue000',
      '\u{10000}',
    ]);
    // A shared high surrogate is an astral character in one key and a lone surrogate in the other.
    expect(compareCodePoints('\ud800\udc00', '\ud800\ue000')).toBeGreaterThan(0);
    expect(compareCodePoints('\ud800\ud800', '\ud800\udc00')).toBeLessThan(0);
  });

  it('agrees with code point order on random strings with lone surrogates', () => {
    const unit = fc.constantFrom(0x41, 0x7f, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xff5e, 0xffff);
    const key = fc.array(unit, { maxLength: 5 }).map((units) => String.fromCharCode(...units));
    fc.assert(
      fc.property(key, key, (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(byCodePoints(a, b)));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('sortKeysByCodePoint', () => {
  it('sorts the way the reference does: case, prefixes, digits, empty key', () => {
    expect(sortKeysByCodePoint(['b', 'B', 'a', 'A', 'ab', '', '10', '9', '_', 'é', 'z'])).toEqual([
      '',
      '10',
      '9',
      'A',
      'B',
      '_',
      'a',
      'ab',
      'b',
      'z',
      'é',
    ]);
  });

  it('gives the same order on its fast and slow paths, small and large', () => {
    // Code points from every range that matters; fromCodePoint writes astral ones as surrogate pairs.
    const codePoint = fc.oneof(
      fc.integer({ min: 0x20, max: 0x7e }),
      fc.integer({ min: 0xe000, max: 0xffff }),
      fc.integer({ min: 0x10000, max: 0x10ffff }),
    );
    const key = fc.array(codePoint, { maxLength: 4 }).map((points) => String.fromCodePoint(...points));
    fc.assert(
      fc.property(fc.uniqueArray(key, { maxLength: 24 }), (list) => {
        const expected = [...list].sort(byCodePoints);
        expect(sortKeysByCodePoint([...list])).toEqual(expected);
        expect([...list].sort(compareCodePoints)).toEqual(expected);
      }),
      { numRuns: 150 },
    );
    const ascii = fc.uniqueArray(fc.string({ unit: 'grapheme-ascii', maxLength: 6 }), { maxLength: 24 });
    fc.assert(
      fc.property(ascii, (list) => {
        expect(sortSurrogateFreeKeys([...list])).toEqual([...list].sort());
      }),
      { numRuns: 150 },
    );
  });
});
