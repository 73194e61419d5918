import { describe, expect, it } from 'vitest';
import { parseStorageValue, UNIX_SECONDS_LIMIT, unixSeconds, unixSecondsSchema } from './conventions.js';

describe('unixSeconds', () => {
  it('floors milliseconds to whole seconds', () => {
    expect(unixSeconds(1_700_000_000_999)).toBe(1_700_000_000);
    expect(unixSeconds(0)).toBe(0);
  });

  it('uses the current time by default', () => {
    const before = Math.floor(Date.now() / 1000);
    const now = unixSeconds();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });

  it('refuses a non-finite or non-number time', () => {
    for (const ms of [Number.NaN, Number.POSITIVE_INFINITY, '1700000000000', null]) {
      expect(() => unixSeconds(ms as number)).toThrow(
        expect.objectContaining({ code: 'storage_validation' }),
      );
    }
  });
});

describe('unixSecondsSchema', () => {
  it('accepts seconds and refuses milliseconds, negatives and non-finite values', () => {
    expect(parseStorageValue(unixSecondsSchema, 1_767_225_600)).toBe(1_767_225_600);
    expect(parseStorageValue(unixSecondsSchema, UNIX_SECONDS_LIMIT - 1)).toBe(UNIX_SECONDS_LIMIT - 1);
    for (const value of [
      UNIX_SECONDS_LIMIT,
      1_767_225_600_000,
      -1,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      '1',
    ]) {
      expect(() => parseStorageValue(unixSecondsSchema, value)).toThrow(
        expect.objectContaining({ code: 'storage_validation' }),
      );
    }
  });
});
