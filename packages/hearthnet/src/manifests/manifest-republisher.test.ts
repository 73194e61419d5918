import { describe, expect, it } from 'vitest';
import { type IntervalTimers, startManifestRepublisher } from './manifest-handler.js';

/** Interval timers driven by hand. */
function manualTimers() {
  let callback: (() => void) | undefined;
  let interval: number | undefined;
  const timers: IntervalTimers = {
    setInterval: (cb, ms) => {
      callback = cb;
      interval = ms;
      return 'handle';
    },
    clearInterval: (handle) => {
      if (handle === 'handle') callback = undefined;
    },
  };
  return { timers, fire: () => callback?.(), interval: () => interval, active: () => callback !== undefined };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('startManifestRepublisher', () => {
  it('publishes at once, then on every tick, built for the clock time', async () => {
    const manual = manualTimers();
    let now = 1000;
    const published: number[] = [];
    const stop = startManifestRepublisher({
      build: (time) => ({ time }),
      publish: (manifest) => {
        published.push(manifest.time);
      },
      onError: (error) => {
        throw error;
      },
      clock: () => now,
      timers: manual.timers,
    });
    expect(manual.interval()).toBe(20_000);
    await settle();
    now = 21_000;
    manual.fire();
    await settle();
    expect(published).toEqual([1000, 21_000]);
    await stop();
    expect(manual.active()).toBe(false);
  });

  it('skips a tick while a publish is running, reports errors and goes on', async () => {
    const manual = manualTimers();
    const errors: unknown[] = [];
    let release: () => void = () => {};
    let builds = 0;
    const stop = startManifestRepublisher({
      every: 10_000,
      build: () => ++builds,
      publish: (n) =>
        n === 1
          ? new Promise<void>((resolve) => {
              release = resolve;
            })
          : Promise.reject(new Error(`publish ${n} failed`)),
      onError: (error) => errors.push(error),
      timers: manual.timers,
    });
    manual.fire();
    await settle();
    expect(builds).toBe(1);
    release();
    await settle();
    manual.fire();
    await settle();
    expect(builds).toBe(2);
    expect(errors).toEqual([new Error('publish 2 failed')]);
    await stop();
  });

  it('stops: waits for the run in progress and publishes nothing after', async () => {
    const manual = manualTimers();
    const published: number[] = [];
    let finishBuild: (value: number) => void = () => {};
    const stop = startManifestRepublisher({
      build: () => new Promise<number>((resolve) => (finishBuild = resolve)),
      publish: (n) => {
        published.push(n);
      },
      onError: () => {},
      timers: manual.timers,
    });
    const stopped = stop();
    finishBuild(1);
    await stopped;
    expect(published).toEqual([]);
    manual.fire();
    await settle();
    expect(published).toEqual([]);
  });

  it.each([0, -1, 30_000, Number.NaN])('refuses every = %s', (every) => {
    expect(() =>
      startManifestRepublisher({ every, build: () => 1, publish: () => {}, onError: () => {} }),
    ).toThrow(expect.objectContaining({ code: 'invalid_republisher_options' }));
  });

  it('refuses missing callbacks', () => {
    expect(() => startManifestRepublisher({ build: () => 1, publish: () => {} } as never)).toThrow(
      expect.objectContaining({ code: 'invalid_republisher_options' }),
    );
  });
});
