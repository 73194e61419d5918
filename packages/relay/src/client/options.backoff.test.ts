import { describe, expect, it } from 'vitest';
import { ReconnectBackoff } from './options.js';

describe('ReconnectBackoff', () => {
  it('doubles from the first delay up to the cap', () => {
    const backoff = new ReconnectBackoff({ initialMs: 1000, maxMs: 30000 });
    expect(Array.from({ length: 7 }, () => backoff.next())).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000,
    ]);
  });

  it('starts over after reset', () => {
    const backoff = new ReconnectBackoff({ initialMs: 5, maxMs: 20 });
    backoff.next();
    backoff.next();
    backoff.reset();
    expect([backoff.next(), backoff.next()]).toEqual([5, 10]);
  });
});
