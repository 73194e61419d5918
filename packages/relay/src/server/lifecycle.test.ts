import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { InMemoryInboundBuffer } from '../buffer.js';
import { InMemoryRelayBus } from '../bus.js';
import { RelayError } from '../errors.js';
import { createMessageEvent } from '../message-event.js';
import type { PlatformAdapter } from './platform-adapter.js';
import { createRelayServer } from './relay-server.js';
import {
  bearer,
  connectGateway,
  defaultAuthenticate,
  dial,
  discordDescriptor,
  requestId,
  settle,
  startServer,
  TENANT,
} from './server-test-support.js';

const adapter: PlatformAdapter = { descriptor: discordDescriptor, send: () => ({ success: true }) };

function event(text: string) {
  return createMessageEvent({
    text,
    source: { platform: 'discord', chat_id: 'c', chat_type: 'dm', user_id: 'u' },
  });
}

describe('lifecycle', () => {
  it('close() closes sockets with 1001, drops subscriptions, keeps buffered entries and refuses new calls', async () => {
    const bus = new InMemoryRelayBus();
    const buffer = new InMemoryInboundBuffer();
    const server = await startServer(adapter, { bus, buffer });
    const gateway = await connectGateway(server);
    await server.close();
    await expect(gateway.closed).resolves.toEqual({ code: 1001, reason: 'server closing' });
    expect(await bus.publish(TENANT, { type: 'buffered' })).toBe(0);
    await expect(server.deliverInbound(TENANT, event('late'))).rejects.toMatchObject({
      code: 'relay_server_closed',
    });
    await buffer.append(TENANT, { type: 'inbound', event: event('kept') });
    expect(await buffer.size(TENANT)).toBe(1);
    await expect(server.close()).resolves.toBeUndefined();
    await Promise.all([bus.close(), buffer.close()]);
  });

  it('attaches to a given HTTP server, serves only its path there, and leaves the server open', async () => {
    const http = createServer((_request, response) => response.end('ok'));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const server = await createRelayServer({
      server: http,
      authenticate: defaultAuthenticate,
      platforms: { discord: adapter },
      pingIntervalMs: 0,
    });
    try {
      expect(server.port).toBe((http.address() as AddressInfo).port);
      const gateway = await connectGateway(server);
      expect(gateway.frames[0]).toMatchObject({ type: 'descriptor' });
      await server.close();
      await gateway.closed;
      expect(http.listening).toBe(true);
    } finally {
      await server.close();
      await new Promise((resolve) => http.close(resolve));
    }
  });

  it('terminates a socket that stops answering pings, and keeps one that answers', async () => {
    // Only the ping timer is faked: each tick is one heartbeat, and a round trip proves a pong arrived.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const server = await startServer(adapter, { pingIntervalMs: 1000 });
      const healthy = await connectGateway(server);
      const silent = dial(server, bearer('gw-b'), '/relay', { autoPong: false });
      await silent.opened;
      let pings = 0;
      healthy.ws.on('ping', () => {
        pings += 1;
      });
      for (let tick = 1; tick <= 3; tick += 1) {
        vi.advanceTimersByTime(1000);
        while (pings < tick) await settle();
        // The pong went out before this outbound: once it is answered, the server has read the pong.
        healthy.send({
          type: 'outbound',
          requestId: requestId(tick),
          action: { op: 'send', chat_id: 'c', content: 'x' },
        });
        await healthy.result(requestId(tick));
      }
      await expect(silent.closed).resolves.toMatchObject({ code: 1006 });
      expect(healthy.ws.readyState).toBe(healthy.ws.OPEN);
    } finally {
      vi.useRealTimers();
    }
  });

  it('replay waits while a slow gateway is not reading, then delivers everything in order', async () => {
    const maxBufferedAmount = 64 * 1024;
    const server = await startServer(adapter, { maxBufferedAmount, replayBatchSize: 8 });
    const gateway = await connectGateway(server);
    const backpressure = new Promise<{ bufferedAmount: number }>((resolve) =>
      server.once('backpressure', resolve),
    );
    gateway.ws.pause();
    const big = 'x'.repeat(256 * 1024);
    const count = 72;
    for (let i = 0; i < count; i += 1) await server.deliverInbound(TENANT, event(`${i}:${big}`));
    expect((await backpressure).bufferedAmount).toBeGreaterThan(maxBufferedAmount);
    await settle(20);
    const [connection] = server.connections;
    // At most one entry beyond the limit is ever queued, while the rest waits in the buffer.
    expect(connection?.bufferedAmount).toBeLessThanOrEqual(maxBufferedAmount + big.length + 1024);
    gateway.ws.resume();
    const frames = await gateway.waitFor('inbound', count);
    expect(frames.map((frame) => String((frame.event as { text: string }).text).split(':')[0])).toEqual(
      Array.from({ length: count }, (_, i) => String(i)),
    );
  });

  it('refuses unusable options with a typed error naming the option', async () => {
    const base = { authenticate: defaultAuthenticate, platforms: { discord: adapter } };
    const cases: [Record<string, unknown>, string][] = [
      [{ platforms: {} }, 'platforms'],
      [{ fallbackPlatform: 'slack' }, 'fallbackPlatform'],
      [{ outboundTimeoutMs: 0 }, 'outboundTimeoutMs'],
      [{ path: 'relay' }, 'path'],
      [
        { platforms: { discord: { descriptor: { ...discordDescriptor, max_message_length: 0 } } } },
        'platforms.discord.descriptor.max_message_length',
      ],
      [
        { platforms: { discord: { descriptor: { ...discordDescriptor, supported_ops: ['send'] } } } },
        'platforms.discord.descriptor.supported_ops',
      ],
    ];
    for (const [override, path] of cases) {
      await expect(createRelayServer({ ...base, ...override } as never)).rejects.toSatisfy(
        (error) =>
          error instanceof RelayError && error.code === 'relay_server_invalid_option' && error.path === path,
      );
    }
  });

  it('rejects with the listen error when the port is taken', async () => {
    const first = await startServer(adapter);
    await expect(
      createRelayServer({
        port: first.port,
        authenticate: defaultAuthenticate,
        platforms: { discord: adapter },
      }),
    ).rejects.toMatchObject({
      code: 'EADDRINUSE',
    });
  });
});
