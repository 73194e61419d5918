import { describe, expect, it } from 'vitest';
import { KeyedSerializer } from './keyed-serializer.js';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('KeyedSerializer', () => {
  it('runs tasks of one key one at a time, in call order', async () => {
    const serializer = new KeyedSerializer();
    const events: string[] = [];
    const task = (label: string) => async () => {
      events.push(`start ${label}`);
      await tick();
      events.push(`end ${label}`);
      return label;
    };
    const results = await Promise.all([serializer.run('k', task('1')), serializer.run('k', task('2'))]);
    expect(results).toEqual(['1', '2']);
    expect(events).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
  });

  it('runs tasks of different keys concurrently', async () => {
    const serializer = new KeyedSerializer();
    const events: string[] = [];
    let release: () => void = () => undefined;
    const blocked = serializer.run('a', () => new Promise<void>((resolve) => (release = resolve)));
    await serializer.run('b', async () => {
      events.push('b ran while a waits');
    });
    release();
    await blocked;
    expect(events).toEqual(['b ran while a waits']);
  });

  it('keeps going after a failed task and passes its error to the caller', async () => {
    const serializer = new KeyedSerializer();
    const failed = serializer.run('k', async () => {
      throw new Error('boom');
    });
    const next = serializer.run('k', async () => 'next');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
  });

  it('forgets a key once its queue drains', async () => {
    const serializer = new KeyedSerializer();
    await Promise.all([serializer.run('a', async () => 1), serializer.run('b', async () => 2)]);
    await tick();
    expect(serializer.activeKeys).toBe(0);
  });
});
