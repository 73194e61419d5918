import { afterAll, afterEach, beforeAll } from 'vitest';
import { type RedisServerHandle, startRedisServer } from './redis-server.js';

/** What {@link useRedisFixture} gives a test file. */
export interface RedisFixture {
  /** The file's `redis-server` (started in `beforeAll`). */
  readonly server: RedisServerHandle;
  /** A key prefix no other test of the file uses: `<label><n>:`. */
  prefix(): string;
  /** Runs `cleanup` after the current test, last registered first; its failure is ignored. */
  defer(cleanup: () => Promise<unknown>): void;
}

/**
 * Registers the hooks of a test file that runs against one throwaway `redis-server`: started before
 * the first test, the current test's cleanups run after it, stopped after the last.
 */
export function useRedisFixture(label: string): RedisFixture {
  let server: RedisServerHandle | undefined;
  let counter = 0;
  const cleanups: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });
  afterAll(async () => {
    await server?.stop();
  });
  return {
    get server() {
      if (server === undefined) throw new Error('redis-server is not started yet (use it inside a test)');
      return server;
    },
    prefix: () => `${label}${counter++}:`,
    defer: (cleanup) => {
      cleanups.push(cleanup);
    },
  };
}
