import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createUlidFactory, decodeUlid, encodeUlid, isUlid, MAX_ULID_TIME } from './ulid.js';

const time = fc.integer({ min: 0, max: MAX_ULID_TIME });
const randomness = fc.uint8Array({ minLength: 10, maxLength: 10 });

describe('ULIDs', () => {
  it('encodes the ULID spec example', () => {
    expect(encodeUlid(1469918176385, new Uint8Array(10))).toBe('01ARYZ6S410000000000000000');
  });

  it('round-trips time and randomness (property)', () => {
    fc.assert(
      fc.property(time, randomness, (t, r) => {
        const id = encodeUlid(t, r);
        expect(id).toMatch(/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/);
        expect(isUlid(id)).toBe(true);
        expect(decodeUlid(id)).toEqual({ timeMs: t, randomness: r });
      }),
      { numRuns: 300 },
    );
  });

  it('sorts as strings in time order, then randomness order (property)', () => {
    fc.assert(
      fc.property(time, randomness, time, randomness, (t1, r1, t2, r2) => {
        const a = encodeUlid(t1, r1);
        const b = encodeUlid(t2, r2);
        const byValue = t1 !== t2 ? Math.sign(t1 - t2) : Math.sign(Buffer.compare(r1, r2));
        expect(Math.sign(a < b ? -1 : a > b ? 1 : 0)).toBe(byValue);
      }),
      { numRuns: 300 },
    );
  });

  it.each([-1, 1.5, MAX_ULID_TIME + 1, Number.NaN])('refuses time %s', (t) => {
    expect(() => encodeUlid(t, new Uint8Array(10))).toThrow(expect.objectContaining({ code: 'ulid_input' }));
  });

  it('refuses randomness that is not 10 bytes', () => {
    expect(() => encodeUlid(0, new Uint8Array(9))).toThrow(expect.objectContaining({ code: 'ulid_input' }));
    expect(() => encodeUlid(0, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0] as unknown as Uint8Array)).toThrow(
      expect.objectContaining({ code: 'ulid_input' }),
    );
  });

  it('refuses non-strings and aliases with typed errors', () => {
    expect(() => decodeUlid(42 as unknown as string)).toThrow(
      expect.objectContaining({ code: 'invalid_ulid' }),
    );
    expect(isUlid(42)).toBe(false);
    expect(isUlid('01ARYZ6S41000000000000000é')).toBe(false);
    expect(isUlid('81ARYZ6S410000000000000000')).toBe(false);
  });
});

describe('createUlidFactory', () => {
  it('is strictly increasing for any clock, also when it stands still or goes back (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 2 ** 40 }), { minLength: 1, maxLength: 50 }),
        (times) => {
          const clock = [...times];
          const ulid = createUlidFactory({ clock: () => clock.shift()! });
          const ids = times.map(() => ulid());
          for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('uses the time it is given instead of its clock', () => {
    const ulid = createUlidFactory({ clock: () => 5, random: () => new Uint8Array(10) });
    expect(decodeUlid(ulid(1000)).timeMs).toBe(1000);
    expect(decodeUlid(ulid()).timeMs).toBe(1000);
  });

  it('throws ulid_overflow when a millisecond is used up', () => {
    const ulid = createUlidFactory({ clock: () => 1, random: () => new Uint8Array(10).fill(255) });
    ulid();
    expect(() => ulid()).toThrow(expect.objectContaining({ code: 'ulid_overflow' }));
  });

  it('draws from crypto.getRandomValues by default', () => {
    const ulid = createUlidFactory({ clock: () => 1 });
    const other = createUlidFactory({ clock: () => 1 });
    expect(ulid()).not.toBe(other());
  });
});
