import { describe, expect, it } from 'vitest';
import { SerialQueue } from './backed-blob-store.js';

describe('SerialQueue', () => {
  it('runs tasks one at a time in queue order, and goes on after a failure', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    let running = 0;
    const task =
      (name: string, fail = false) =>
      async () => {
        running += 1;
        expect(running).toBe(1);
        log.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 1));
        log.push(`end ${name}`);
        running -= 1;
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      queue.run(task('a')),
      queue.run(task('b', true)),
      queue.run(task('c')),
    ]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(results[1]?.status).toBe('rejected');
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });
});
