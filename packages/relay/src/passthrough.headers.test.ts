import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  passthroughHeadersFromEntries,
  passthroughHeadersFromRawHeaders,
  passthroughHeadersFromWire,
} from './passthrough.js';

describe('passthroughHeadersFromEntries', () => {
  it('keeps the order of Headers entries and record entries', () => {
    const headers = new Headers([
      ['X-Signature-Ed25519', 'abc'],
      ['Content-Type', 'application/json'],
    ]);
    expect(passthroughHeadersFromEntries(headers)).toEqual([
      ['content-type', 'application/json'],
      ['x-signature-ed25519', 'abc'],
    ]);
    expect(passthroughHeadersFromEntries(Object.entries({ B: '1', A: '2' }))).toEqual([
      ['B', '1'],
      ['A', '2'],
    ]);
  });

  it('refuses entries that are not pairs of strings', () => {
    const bad: unknown[] = [null, 'ab', 5, [['a']], [['a', 1]], [[1, 'b']], [['a', 'b', 'c']]];
    for (const entries of bad) {
      expect(() => passthroughHeadersFromEntries(entries as [string, string][])).toThrow(
        expect.objectContaining({ code: 'passthrough_invalid_argument' }),
      );
    }
    expect(() =>
      passthroughHeadersFromEntries([
        ['a', 'b'],
        ['c', 2 as unknown as string],
      ]),
    ).toThrow(expect.objectContaining({ path: 'entries[1][1]' }));
  });
});

describe('passthroughHeadersFromRawHeaders', () => {
  it('pairs a flat rawHeaders list, keeping spelling, order and repeats', () => {
    expect(passthroughHeadersFromRawHeaders(['Host', 'x', 'Set-Cookie', 'a', 'set-cookie', 'b'])).toEqual([
      ['Host', 'x'],
      ['Set-Cookie', 'a'],
      ['set-cookie', 'b'],
    ]);
    expect(passthroughHeadersFromRawHeaders([])).toEqual([]);
  });

  it('refuses an odd-length list or non-strings', () => {
    expect(() => passthroughHeadersFromRawHeaders(['Host'])).toThrow(
      expect.objectContaining({ code: 'passthrough_invalid_argument' }),
    );
    expect(() => passthroughHeadersFromRawHeaders(['Host', 5 as unknown as string])).toThrow(
      expect.objectContaining({ path: 'rawHeaders[1]' }),
    );
    expect(() => passthroughHeadersFromRawHeaders('ab' as unknown as string[])).toThrow(
      expect.objectContaining({ code: 'passthrough_invalid_argument' }),
    );
  });
});

describe('passthroughHeadersFromWire', () => {
  it('keeps 2-element arrays in order and skips every other entry', () => {
    expect(
      passthroughHeadersFromWire([['a', '1'], ['b'], 'c', ['d', '2', 'x'], { 0: 'e', 1: '3' }, ['f', '4']]),
    ).toEqual([
      ['a', '1'],
      ['f', '4'],
    ]);
  });

  it('applies Python str() to null, booleans and integers', () => {
    expect(
      passthroughHeadersFromWire([
        [null, true],
        [false, 42],
        [-7, 0],
      ]),
    ).toEqual([
      ['None', 'True'],
      ['False', '42'],
      ['-7', '0'],
    ]);
  });

  it('gives no headers for missing, falsy, string and object values', () => {
    for (const value of [undefined, null, false, 0, '', [], 'abc', { a: 'b' }]) {
      expect(passthroughHeadersFromWire(value)).toEqual([]);
    }
  });

  it('throws for values the gateway’s reader crashes on', () => {
    for (const value of [true, 5, -1.5]) {
      expect(() => passthroughHeadersFromWire(value)).toThrow(
        expect.objectContaining({ code: 'passthrough_headers_invalid' }),
      );
      expect(() => passthroughHeadersFromWire(value)).toThrow(expect.objectContaining({ path: 'headers' }));
    }
  });

  it('throws for parts whose Python str() depends on the JSON spelling', () => {
    for (const part of [1.5, 2 ** 60, -0, ['x'], { a: 1 }]) {
      expect(() =>
        passthroughHeadersFromWire([
          ['ok', 'ok'],
          ['k', part],
        ]),
      ).toThrow(expect.objectContaining({ code: 'passthrough_headers_invalid', path: 'headers[1][1]' }));
    }
  });

  it('throws nothing but passthrough_headers_invalid for arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.array(fc.array(fc.jsonValue(), { maxLength: 3 }))), (value) => {
        try {
          for (const [name, text] of passthroughHeadersFromWire(value)) {
            expect(typeof name).toBe('string');
            expect(typeof text).toBe('string');
          }
        } catch (error) {
          expect(error).toMatchObject({ name: 'RelayError', code: 'passthrough_headers_invalid' });
        }
      }),
      { numRuns: 400 },
    );
  });
});
