import { describe, expect, it } from 'vitest';
import { LamportClock, lamportAfterReceive, lamportForSend, lamportRules } from './event-store.js';

describe('Lamport rules (contract §7.3)', () => {
  it('sends at counter + 1 and receives at max(counter, received) + 1', () => {
    expect(lamportForSend(0)).toBe(1);
    expect(lamportAfterReceive(3, 10)).toBe(11);
    expect(lamportAfterReceive(10, 3)).toBe(11);
    expect(lamportAfterReceive(5, 5)).toBe(6);
  });

  it('offers the same two steps as lamportRules, for stores', () => {
    expect(lamportRules.forSend(0)).toBe(1);
    expect(lamportRules.afterReceive(3, 10)).toBe(11);
    expect(() => lamportRules.forSend(-1)).toThrow(expect.objectContaining({ code: 'invalid_lamport' }));
  });

  it('keeps the counter in a LamportClock', () => {
    const clock = new LamportClock(4);
    expect(clock.tick()).toBe(5);
    expect(clock.observe(2)).toBe(6);
    expect(clock.value).toBe(6);
  });

  it.each([-1, 1.5, Number.NaN, '3', Number.MAX_SAFE_INTEGER + 1])(
    'refuses %s with invalid_lamport',
    (value) => {
      expect(() => lamportForSend(value as number)).toThrow(
        expect.objectContaining({ code: 'invalid_lamport' }),
      );
      expect(() => lamportAfterReceive(0, value as number)).toThrow(
        expect.objectContaining({ code: 'invalid_lamport' }),
      );
      expect(() => new LamportClock(value as number)).toThrow(
        expect.objectContaining({ code: 'invalid_lamport' }),
      );
    },
  );

  it('refuses to pass 2^53 − 1', () => {
    const clock = new LamportClock(Number.MAX_SAFE_INTEGER);
    expect(() => clock.tick()).toThrow(expect.objectContaining({ code: 'invalid_lamport' }));
    expect(clock.value).toBe(Number.MAX_SAFE_INTEGER);
  });
});
