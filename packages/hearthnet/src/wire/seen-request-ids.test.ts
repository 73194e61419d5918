import { describe, expect, it } from 'vitest';
import { InvalidWireOptionsError } from './errors.js';
import { MemorySeenRequestIds } from './seen-request-ids.js';

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

  it('holds at most maxEntries, forgetting the oldest first', () => {
    const seen = new MemorySeenRequestIds({ maxEntries: 2, now: () => 0 });
    seen.add('a', 10);
    seen.add('b', 10);
    seen.add('c', 10);
    expect(seen.size).toBe(2);
    expect(seen.add('c', 10)).toBe(false);
    expect(seen.add('a', 10)).toBe(true);
  });

  it('refuses a bad bound', () => {
    expect(() => new MemorySeenRequestIds({ maxEntries: 0 })).toThrow(InvalidWireOptionsError);
  });
});
