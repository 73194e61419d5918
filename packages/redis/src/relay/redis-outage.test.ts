import type { RelayBusMessage } from '@agentwire/relay';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type RedisServerHandle, startRedisServer } from '../../test/redis-server.js';
import type { RedisRelayError } from './errors.js';
import { RedisCapabilityVault } from './redis-capability-vault.js';
import { RedisEnrollmentTokenStore, RedisPolicyStore, RedisProvisionRegistry } from './redis-edge-stores.js';
import { RedisGatewaySecretStore } from './redis-gateway-secret-store.js';
import { RedisInboundBuffer } from './redis-inbound-buffer.js';
import { RedisRelayBus } from './redis-relay-bus.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  vi.restoreAllMocks();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition()) && Date.now() < deadline) await sleep(20);
  expect(await condition()).toBe(true);
}

/**
 * Records what reaches stderr during the test: `console.error` / `console.warn` (ioredis prints its
 * "Unhandled error event" with `console.error`) and direct `process.stderr` writes.
 */
function captureStderr(): string[] {
  const lines: string[] = [];
  const record = (...args: unknown[]) => {
    lines.push(
      args.map((arg) => (arg instanceof Error ? (arg.stack ?? arg.message) : String(arg))).join(' '),
    );
  };
  vi.spyOn(console, 'error').mockImplementation(record);
  vi.spyOn(console, 'warn').mockImplementation(record);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    record(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  });
  return lines;
}

describe('Redis outages', () => {
  it('reports each connection a backend opened once per outage, typed, without unhandled error events, and delivers again after a restart', async () => {
    let server: RedisServerHandle = await startRedisServer();
    cleanups.push(() => server.stop());
    const { host, port } = server;
    const stderr = captureStderr();

    const reports = new Map<string, RedisRelayError[]>();
    const reportTo = (label: string) => (error: RedisRelayError) => {
      reports.set(label, [...(reports.get(label) ?? []), error]);
    };
    const connections = (label: string) =>
      (reports.get(label) ?? []).map((error) => error.details?.connection).sort();
    const track = <T extends { close(): Promise<void> }>(backend: T): T => {
      cleanups.push(() => backend.close());
      return backend;
    };
    const options = (label: string) => ({ redis: { host, port }, onConnectionError: reportTo(label) });

    // Backends that connect themselves: every connection they open is theirs to report.
    const busA = track(new RedisRelayBus(options('busA')));
    const buffer = track(new RedisInboundBuffer(options('buffer')));
    track(new RedisCapabilityVault(options('vault')));
    track(new RedisGatewaySecretStore(options('secrets')));
    track(new RedisEnrollmentTokenStore(options('enrollment')));
    track(new RedisProvisionRegistry(options('provision')));
    track(new RedisPolicyStore(options('policy')));
    // No handler: the default warns, one line per outage.
    track(new RedisInboundBuffer({ redis: { host, port } }));
    // The caller's client is the caller's: it listens itself; the bus reports its own subscriber only.
    const userClient = new Redis({ host, port });
    const userClientErrors: unknown[] = [];
    userClient.on('error', (error) => userClientErrors.push(error));
    cleanups.push(async () => userClient.disconnect());
    const busB = track(new RedisRelayBus({ redis: userClient, onConnectionError: reportTo('busB') }));

    const received: RelayBusMessage[] = [];
    await busB.subscribe('tenant-a', (message) => received.push(message));
    expect(await busA.publish('tenant-a', { type: 'buffered' })).toBe(1);
    await until(() => received.length === 1);
    expect(await buffer.append('tenant-a', { type: 'inbound', event: { text: 'before' } })).toMatch(/-/);

    await server.kill();
    const expected: Record<string, string[]> = {
      busA: ['client', 'subscriber'],
      busB: ['subscriber'],
      buffer: ['client'],
      vault: ['client'],
      secrets: ['client'],
      enrollment: ['client'],
      provision: ['client'],
      policy: ['client'],
    };
    const allReported = () =>
      Object.entries(expected).every(([label, c]) => connections(label).length >= c.length);
    await until(allReported);
    // Keep Redis down through several reconnect attempts of every connection.
    await sleep(1500);
    expect(userClientErrors.length).toBeGreaterThan(1);

    for (const [label, expectedConnections] of Object.entries(expected)) {
      expect(connections(label), label).toEqual(expectedConnections);
    }
    for (const error of [...reports.values()].flat()) {
      expect(error).toMatchObject({
        name: 'RedisRelayError',
        code: 'redis_connection',
        retryable: true,
      });
      expect(error.details?.backend).toMatch(/^Redis/);
      expect(error.cause).toBeInstanceOf(Error);
    }
    expect(reports.get('busA')?.[0]?.details?.backend).toBe('RedisRelayBus');
    expect(reports.get('buffer')?.[0]?.details?.backend).toBe('RedisInboundBuffer');
    expect(stderr.join('\n')).not.toContain('Unhandled error event');
    // The default handler: one line, no stack trace.
    expect(stderr).toHaveLength(1);
    expect(stderr[0]).toMatch(
      /^\[@agentwire\/redis\] the Redis client connection of RedisInboundBuffer failed/,
    );
    expect(stderr[0]).not.toContain('\n');

    server = await startRedisServer({ port });
    // ioredis resubscribes on reconnect; the bus delivers again.
    await until(async () => {
      await busA.publish('tenant-a', { type: 'buffered' });
      return received.length > 1;
    });
    expect(await buffer.append('tenant-a', { type: 'inbound', event: { text: 'after' } })).toMatch(/-/);

    // Ready again, so the next outage is reported again.
    await until(() => userClient.status === 'ready');
    await server.kill();
    await until(() => connections('busB').length === 2);
    expect(connections('busB')).toEqual(['subscriber', 'subscriber']);
    server = await startRedisServer({ port });
    expect(stderr.join('\n')).not.toContain('Unhandled error event');
  }, 15_000);

  it('closes a bus during an outage without waiting for the server to come back', async () => {
    const server = await startRedisServer();
    cleanups.push(() => server.stop());
    const bus = new RedisRelayBus({
      redis: { host: server.host, port: server.port },
      onConnectionError: () => {},
    });
    await bus.subscribe('tenant-a', () => undefined);
    await server.kill();
    await sleep(300);
    // Before the fix, UNSUBSCRIBE sat in ioredis's offline queue until its retries gave up (≈ 10 s).
    const outcome = await Promise.race([bus.close().then(() => 'closed'), sleep(5_000).then(() => 'hung')]);
    expect(outcome).toBe('closed');
  });

  it('refuses an onConnectionError that is not a function', () => {
    expect(
      () => new RedisInboundBuffer({ redis: {}, onConnectionError: 'log' as unknown as () => void }),
    ).toThrow(expect.objectContaining({ code: 'invalid_redis_relay_option' }));
    expect(() => new RedisRelayBus({ redis: {}, onConnectionError: 1 as unknown as () => void })).toThrow(
      expect.objectContaining({ path: 'options.onConnectionError' }),
    );
  });
});
