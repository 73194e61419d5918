import { describe, expect, it } from 'vitest';
import { AckWindow, ackDue } from './sse.js';

describe('AckWindow (contract §5.3 ack back-pressure)', () => {
  it('lets `window` frames through, then waits for an ack', async () => {
    const credit = new AckWindow(2);
    expect(await credit.reserve()).toBe(1);
    expect(await credit.reserve()).toBe(2);
    let third = false;
    const pending = credit.reserve().then((n) => {
      third = true;
      return n;
    });
    await Promise.resolve();
    expect(third).toBe(false);
    credit.acknowledge(1);
    expect(await pending).toBe(3);
    expect(credit.acknowledged).toBe(1);
  });

  it('ignores stale or impossible acks and rejects a waiter whose signal aborts', async () => {
    const credit = new AckWindow(1);
    await credit.reserve();
    credit.acknowledge(5);
    credit.acknowledge(0);
    expect(credit.acknowledged).toBe(0);
    const controller = new AbortController();
    const waiting = credit.reserve(controller.signal);
    controller.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    expect(() => new AckWindow(0)).toThrow(expect.objectContaining({ code: 'invalid_wire_options' }));
  });

  it('says when a receiver should ack: every half window', () => {
    expect(ackDue(7, 0)).toBe(false);
    expect(ackDue(8, 0)).toBe(true);
    expect(ackDue(9, 8)).toBe(false);
    expect(ackDue(1, 0, 1)).toBe(true);
  });
});
