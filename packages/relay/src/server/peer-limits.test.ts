// The bounds that keep one gateway from exhausting the server: a gateway that sends but never reads is
// paused and then dropped (close 1008 with the limit as reason, a peer_limit on `warning`), one
// connection's identities and running outbound calls are capped. Real sockets on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { type InboundBuffer, InMemoryInboundBuffer } from '../buffer.js';
import { encodeFrame } from '../ndjson.js';
import type { PlatformAdapter } from './platform-adapter.js';
import type { RelayServer } from './relay-server.js';
import { connectGateway, discordDescriptor, requestId, startServer } from './server-test-support.js';

const discord: PlatformAdapter = {
  descriptor: discordDescriptor,
  send: () => ({ success: true, message_id: 'm1' }),
};

/** One text message of `count` hello lines (a known identity, so each is answered again). */
function hellos(count: number): string {
  return encodeFrame({ type: 'hello', platform: 'discord', botId: 'app1' }, { style: 'python' }).repeat(
    count,
  );
}

function nextWarning(server: RelayServer): Promise<Error> {
  return new Promise((resolve) => server.once('warning', resolve));
}

function nextDisconnect(server: RelayServer): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => server.once('disconnect', resolve));
}

/** Sends `message` whenever the flooder's own queue is short, until the socket closes or `until` passes. */
async function flood(
  gateway: Awaited<ReturnType<typeof connectGateway>>,
  message: string,
  untilMs: number,
): Promise<number> {
  const deadline = Date.now() + untilMs;
  let ownPeak = 0;
  while (gateway.ws.readyState === gateway.ws.OPEN && Date.now() < deadline) {
    ownPeak = Math.max(ownPeak, gateway.ws.bufferedAmount);
    if (gateway.ws.bufferedAmount < 4 * 1024 * 1024) gateway.sendRaw(message);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return ownPeak;
}

describe('a gateway that sends but never reads', () => {
  it('is no longer read once its backlog passes maxBufferedAmount, and is dropped after drainTimeoutMs', async () => {
    const server = await startServer(discord, {
      maxBufferedAmount: 64 * 1024,
      dropBufferedAmount: 1024 ** 3,
      drainTimeoutMs: 800,
    });
    const gateway = await connectGateway(server);
    gateway.ws.pause();
    const warning = nextWarning(server);
    const disconnect = nextDisconnect(server);
    const flooderQueue = await flood(gateway, hellos(5_000), 15_000);
    const error = await warning;
    // The server stopped reading: the flood piled up in the flooder's own queue.
    expect(flooderQueue).toBeGreaterThan(2 * 1024 * 1024);
    expect(error).toMatchObject({ name: 'RelayError', code: 'peer_limit' });
    expect(error).toMatchObject({ code: 'peer_limit', details: { limit: 'drain_timeout', closeCode: 1008 } });
    expect(await disconnect).toMatchObject({ code: 1008, reason: 'drain_timeout' });
    // Once paused, the server stopped reading: the flooder's own queue is where the bytes piled up.
    expect(server.connections).toHaveLength(0);
  });

  it('is dropped at once when answers already under way pass dropBufferedAmount', async () => {
    // Lines not yet handled wait while the socket holds, but calls already running still answer: 200
    // sends of one message, each answered with 100 kB, to a gateway that reads none of it.
    const big: PlatformAdapter = {
      descriptor: discordDescriptor,
      send: async (action) => ({ success: true, message_id: `${action.chat_id}:${'x'.repeat(100_000)}` }),
    };
    const server = await startServer(big, {
      maxBufferedAmount: 16 * 1024,
      dropBufferedAmount: 256 * 1024,
      drainTimeoutMs: 600_000,
    });
    const gateway = await connectGateway(server);
    gateway.ws.pause();
    const warning = nextWarning(server);
    const disconnect = nextDisconnect(server);
    let peak = 0;
    const sample = setInterval(() => {
      for (const connection of server.connections) peak = Math.max(peak, connection.bufferedAmount);
    }, 1);
    const sends = Array.from({ length: 200 }, (_, i) =>
      encodeFrame(
        {
          type: 'outbound',
          requestId: requestId(i + 1),
          action: { op: 'send', chat_id: `c${i}`, content: 'hi' },
        },
        { style: 'python' },
      ),
    );
    gateway.sendRaw(sends.join(''));
    expect(await warning).toMatchObject({
      name: 'RelayError',
      code: 'peer_limit',
      details: { limit: 'send_backlog' },
    });
    expect(await disconnect).toMatchObject({ code: 1008, reason: 'send_backlog' });
    clearInterval(sample);
    // Dropped with the answer that passed the bound.
    expect(peak).toBeLessThan(256 * 1024 + 200_000);
  });

  it('handles no more of a message once the socket holds: a message of hellos gets a bounded answer', async () => {
    const server = await startServer(discord, { maxBufferedAmount: 16 * 1024, drainTimeoutMs: 600_000 });
    const gateway = await connectGateway(server);
    gateway.ws.pause();
    let peak = 0;
    const sample = setInterval(() => {
      for (const connection of server.connections) peak = Math.max(peak, connection.bufferedAmount);
    }, 1);
    // About 80 MB of descriptors if every hello were answered at once: far more than the kernel's
    // socket buffers hide.
    for (let i = 0; i < 20; i += 1) gateway.sendRaw(hellos(15_000));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    clearInterval(sample);
    expect(server.connections).toHaveLength(1);
    expect(peak).toBeLessThan(16 * 1024 + 1_000);
  });

  it('keeps a slow gateway that reads in the end: it is paused, not dropped, and gets every answer', async () => {
    const server = await startServer(discord, { maxBufferedAmount: 16 * 1024, drainTimeoutMs: 10_000 });
    const gateway = await connectGateway(server);
    gateway.ws.pause();
    const warnings: Error[] = [];
    server.on('warning', (error) => warnings.push(error));
    for (let i = 0; i < 20; i += 1) gateway.sendRaw(hellos(1_000));
    await new Promise((resolve) => setTimeout(resolve, 300));
    gateway.ws.resume();
    await gateway.waitFor('descriptor', 1 + 20 * 1_000);
    expect(warnings).toEqual([]);
    expect(server.connections).toHaveLength(1);
  });
});

describe('per-connection caps', () => {
  it('answers a repeated hello again without counting it, and drops the connection past maxIdentities', async () => {
    const server = await startServer(discord, { maxIdentities: 2 });
    const gateway = await connectGateway(server, [['discord', 'app1']]);
    gateway.hello('discord', 'app1');
    gateway.hello('telegram', 'bot1');
    await gateway.waitFor('descriptor', 3);
    const warning = nextWarning(server);
    gateway.hello('telegram', 'bot2');
    expect(await gateway.closed).toEqual({ code: 1008, reason: 'identities' });
    expect(await warning).toMatchObject({
      name: 'RelayError',
      code: 'peer_limit',
      details: { limit: 'identities', closeCode: 1008 },
    });
  });

  it('refuses outbound calls past maxRunningOutbound without calling the adapter', async () => {
    const started: string[] = [];
    const release: (() => void)[] = [];
    const slow: PlatformAdapter = {
      descriptor: discordDescriptor,
      send: (action) =>
        new Promise((resolve) => {
          started.push(action.chat_id);
          release.push(() => resolve({ success: true, message_id: action.chat_id }));
        }),
    };
    const server = await startServer(slow, { maxRunningOutbound: 2 });
    const gateway = await connectGateway(server);
    for (let i = 1; i <= 3; i += 1) {
      gateway.send({
        type: 'outbound',
        requestId: requestId(i),
        action: { op: 'send', chat_id: `c${i}`, content: 'hi' },
      });
    }
    const refused = await gateway.result(requestId(3));
    expect(refused).toEqual({
      success: false,
      error: 'busy: 2 outbound calls are already running on this connection',
    });
    expect(started).toEqual(['c1', 'c2']);
    for (const done of release) done();
    expect(await gateway.result(requestId(1))).toEqual({ success: true, message_id: 'c1' });
    // A finished call frees its slot.
    gateway.send({
      type: 'outbound',
      requestId: requestId(4),
      action: { op: 'send', chat_id: 'c4', content: 'hi' },
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started).toEqual(['c1', 'c2', 'c4']);
  });

  it('stops reading a gateway while 1 000 of its acks wait for the buffer, and handles every ack in the end', async () => {
    const inner = new InMemoryInboundBuffer();
    const waiting: (() => void)[] = [];
    let acks = 0;
    const slowBuffer: InboundBuffer = {
      append: (tenant, frame) => inner.append(tenant, frame),
      read: (tenant, after, limit) => inner.read(tenant, after, limit),
      size: (tenant) => inner.size(tenant),
      close: () => inner.close(),
      ack: (tenant, bufferId) => {
        acks += 1;
        return new Promise((resolve) => waiting.push(() => resolve(inner.ack(tenant, bufferId))));
      },
    };
    const server = await startServer(discord, { buffer: slowBuffer });
    const gateway = await connectGateway(server);
    const ack = (i: number) => encodeFrame({ type: 'inbound_ack', bufferId: `b${i}` }, { style: 'python' });
    gateway.sendRaw(Array.from({ length: 5_000 }, (_, i) => ack(i)).join(''));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(acks).toBe(1_001);
    while (acks < 5_000 || waiting.length > 0) {
      for (const finish of waiting.splice(0)) finish();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(acks).toBe(5_000);
    expect(server.connections).toHaveLength(1);
  });

  it('drops a gateway past 100 refused lines, reporting the first 100', async () => {
    const server = await startServer(discord);
    const gateway = await connectGateway(server);
    const warnings: Error[] = [];
    server.on('warning', (error) => warnings.push(error));
    gateway.sendRaw('not json\n'.repeat(150));
    expect(await gateway.closed).toEqual({ code: 1008, reason: 'bad_frames' });
    expect(warnings).toHaveLength(101);
    expect(warnings.at(-1)).toMatchObject({
      name: 'RelayError',
      code: 'peer_limit',
      details: { limit: 'bad_frames' },
    });
  });

  it('does not take a held gateway for dead: no ping verdict while its socket is not read', async () => {
    const inner = new InMemoryInboundBuffer();
    const slowBuffer: InboundBuffer = {
      append: (tenant, frame) => inner.append(tenant, frame),
      read: (tenant, after, limit) => inner.read(tenant, after, limit),
      size: (tenant) => inner.size(tenant),
      close: () => inner.close(),
      ack: (tenant, bufferId) =>
        new Promise((resolve) => setTimeout(() => resolve(inner.ack(tenant, bufferId)), 1_500)),
    };
    const server = await startServer(discord, { buffer: slowBuffer, pingIntervalMs: 200 });
    const gateway = await connectGateway(server);
    const disconnects: unknown[] = [];
    server.on('disconnect', (info) => disconnects.push(info));
    const ack = (i: number) => encodeFrame({ type: 'inbound_ack', bufferId: `b${i}` }, { style: 'python' });
    gateway.sendRaw(Array.from({ length: 2_000 }, (_, i) => ack(i)).join(''));
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect(disconnects).toEqual([]);
    expect(server.connections).toHaveLength(1);
  });

  it('refuses bounds that cannot work', async () => {
    await expect(
      startServer(discord, { maxBufferedAmount: 1024, dropBufferedAmount: 1023 }),
    ).rejects.toMatchObject({ code: 'relay_server_invalid_option' });
    await expect(startServer(discord, { maxIdentities: 0 })).rejects.toMatchObject({ path: 'maxIdentities' });
    await expect(startServer(discord, { drainTimeoutMs: 0 })).rejects.toMatchObject({
      path: 'drainTimeoutMs',
    });
  });
});
