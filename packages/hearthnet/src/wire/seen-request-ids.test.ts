import { describe, expect, it } from 'vitest';
import { RateLimitedError } from '../capabilities/hearthnet-errors.js';
import { MemorySeenRequestIds } from './request-verifier.js';

describe('MemorySeenRequestIds', () => {
  it('refuses an id seen before until it expires', () => {
    let now = 1_000;
    const seen = new MemorySeenRequestIds({ now: () => now });
    expect(seen.add('a', 2_000)).toBe(true);
    expect(seen.add('a', 2_000)).toBe(false);
    expect(seen.add('b', 2_000)).toBe(true);
    now = 2_000;
    expect(seen.add('a', 3_000)).toBe(true);
    expect(seen.size).toBe(1);
  });

  it('fails closed when full: a new id is refused with rate_limited until the oldest expires, none is forgotten', () => {
    let now = 0;
    const seen = new MemorySeenRequestIds({ maxEntries: 2, now: () => now });
    expect(seen.add('a', 10)).toBe(true);
    expect(seen.add('b', 20)).toBe(true);
    let refusal: unknown;
    try {
      seen.add('c', 30);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(RateLimitedError);
    expect(refusal).toMatchObject({ code: 'rate_limited', retryAfterMs: 10 });
    // The ids it holds are still replays.
    expect(seen.add('a', 10)).toBe(false);
    expect(seen.add('b', 20)).toBe(false);
    now = 10;
    expect(seen.add('c', 30)).toBe(true);
    expect(seen.size).toBe(2);
  });

  it('refuses a bad bound', () => {
    expect(() => new MemorySeenRequestIds({ maxEntries: 0 })).toThrow(
      expect.objectContaining({ code: 'invalid_wire_options' }),
    );
  });
});
