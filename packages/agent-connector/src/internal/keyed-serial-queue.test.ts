import { describe, expect, it } from 'vitest';
import { KeyedSerialQueue } from './keyed-serial-queue.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('KeyedSerialQueue', () => {
  it('runs one key in call order, one task at a time, and other keys alongside', async () => {
    const queue = new KeyedSerialQueue();
    const log: string[] = [];
    const gate = deferred();
    const first = queue.run('a', async () => {
      log.push('a1 start');
      await gate.promise;
      log.push('a1 end');
      return 1;
    });
    const second = queue.run('a', async () => {
      log.push('a2');
      return 2;
    });
    const other = queue.run('b', async () => {
      log.push('b1');
      return 3;
    });
    expect(await other).toBe(3);
    expect(log).toEqual(['a1 start', 'b1']);
    gate.resolve();
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(log).toEqual(['a1 start', 'b1', 'a1 end', 'a2']);
  });

  it('starts the next task after a rejection and passes the rejection to its caller', async () => {
    const queue = new KeyedSerialQueue();
    const failed = queue.run('a', async () => {
      throw new Error('boom');
    });
    const next = queue.run('a', async () => 'ran');
    await expect(failed).rejects.toThrow('boom');
    expect(await next).toBe('ran');
  });

  it('forgets a key once its last task settles', async () => {
    const queue = new KeyedSerialQueue();
    await queue.run('a', async () => undefined);
    await queue.run('b', async () => Promise.reject(new Error('x'))).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(queue.size).toBe(0);
  });
});
