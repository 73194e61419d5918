import { HearthNetLocalError } from '../errors.js';
import { MANIFEST_REPUBLISH_INTERVAL_MS, NODE_MANIFEST_LIFETIME_MS } from './node-manifest-schema.js';

/** The interval timer functions a republisher uses (default: the global ones). */
export interface IntervalTimers {
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** Options of {@link startManifestRepublisher}. */
export interface ManifestRepublisherOptions<Manifest> {
  /** Milliseconds between two manifests: more than 0, less than the 30 s lifetime. Default 20 000 (contract §6.1). */
  readonly every?: number;
  /** Builds a fresh signed manifest for the time `now` (e.g. with `buildNodeManifest(…, { now })`). */
  readonly build: (now: number) => Manifest | Promise<Manifest>;
  /** Hands a manifest to peers. */
  readonly publish: (manifest: Manifest) => void | Promise<void>;
  /** Receives what `build` or `publish` threw; the next tick tries again. */
  readonly onError: (error: unknown) => void;
  /** The current time in milliseconds since the epoch (default `Date.now`). */
  readonly clock?: () => number;
  /** Timer functions (default `globalThis.setInterval` / `clearInterval`); tests pass fakes. */
  readonly timers?: IntervalTimers;
}

/**
 * Re-issues and publishes this node's manifest now and then every `every` ms (20 s by default, so a
 * fresh manifest is out before the previous one's 30 s run out). A tick that comes while the previous
 * build or publish is still running is skipped rather than queued. Returns `stop`, which cancels the
 * timer and resolves once a run in progress has finished; nothing is published after it resolves.
 *
 * @throws {HearthNetLocalError} `invalid_republisher_options` for an `every` outside (0, 30 000) or missing
 *   callbacks.
 * @example
 * const stop = startManifestRepublisher({
 *   build: (now) => buildNodeManifest(input, deviceKey, { now }),
 *   publish: (manifest) => bus.publish('node.manifest.updated', manifest),
 *   onError: (error) => log.warn('manifest republish failed', error),
 * });
 * // on shutdown
 * await stop();
 */
export function startManifestRepublisher<Manifest>(
  options: ManifestRepublisherOptions<Manifest>,
): () => Promise<void> {
  const every = options.every ?? MANIFEST_REPUBLISH_INTERVAL_MS;
  if (
    typeof every !== 'number' ||
    !Number.isFinite(every) ||
    every <= 0 ||
    every >= NODE_MANIFEST_LIFETIME_MS
  ) {
    throw new HearthNetLocalError(
      'invalid_republisher_options',
      `every must be more than 0 and less than ${NODE_MANIFEST_LIFETIME_MS} ms, got ${String(every)}`,
    );
  }
  for (const name of ['build', 'publish', 'onError'] as const) {
    if (typeof options[name] !== 'function') {
      throw new HearthNetLocalError('invalid_republisher_options', `${name} must be a function`);
    }
  }
  const { build, publish, onError } = options;
  const clock = options.clock ?? Date.now;
  const timers: IntervalTimers = options.timers ?? {
    setInterval: (callback, ms) => globalThis.setInterval(callback, ms),
    clearInterval: (handle) =>
      globalThis.clearInterval(handle as Parameters<typeof globalThis.clearInterval>[0]),
  };

  let stopped = false;
  let running: Promise<void> | undefined;
  const run = async (): Promise<void> => {
    try {
      const manifest = await build(clock());
      if (!stopped) await publish(manifest);
    } catch (error) {
      onError(error);
    }
  };
  const tick = (): void => {
    if (stopped || running !== undefined) return;
    running = run().finally(() => {
      running = undefined;
    });
  };

  const handle = timers.setInterval(tick, every);
  tick();
  return async () => {
    if (!stopped) {
      stopped = true;
      timers.clearInterval(handle);
    }
    await running;
  };
}
