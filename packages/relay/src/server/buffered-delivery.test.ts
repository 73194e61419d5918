import { describe, expect, it } from 'vitest';
import { InMemoryInboundBuffer } from '../buffer.js';
import { InMemoryRelayBus } from '../bus.js';
import { createMessageEvent, eventFromWire } from '../message-event.js';
import { encodeFrame } from '../ndjson.js';
import type { PlatformAdapter } from './platform-adapter.js';
import {
  bearer,
  connectGateway,
  discordDescriptor,
  settle,
  startServer,
  TENANT,
} from './server-test-support.js';

const adapter: PlatformAdapter = { descriptor: discordDescriptor, send: () => ({ success: true }) };

function event(text: string) {
  return createMessageEvent({
    text,
    source: { platform: 'discord', chat_id: 'chan1', chat_type: 'group', user_id: 'u1' },
  });
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}

function texts(frames: readonly { type: string; event?: unknown }[]): unknown[] {
  return frames
    .filter((frame) => frame.type === 'inbound')
    .map((frame) => (frame.event as { text?: unknown }).text);
}

describe('buffered delivery', () => {
  it('stores inbound before a gateway connects and replays it in order with bufferIds on connect', async () => {
    const buffer = new InMemoryInboundBuffer();
    const server = await startServer(adapter, { buffer });
    const first = await server.deliverInbound(TENANT, event('one'));
    await server.deliverInbound(TENANT, eventFromWire(event('two')));
    await server.forwardPassthrough(TENANT, {
      platform: 'discord',
      botId: 'app1',
      method: 'POST',
      path: '/interactions',
      headers: [['content-type', 'application/json']],
      bodyB64: 'eyJ0eXBlIjoxfQ==',
    });
    expect(await buffer.size(TENANT)).toBe(3);

    const gateway = await connectGateway(server);
    await gateway.waitFor('passthrough_forward');
    const inbound = await gateway.waitFor('inbound', 2);
    expect(texts(inbound)).toEqual(['one', 'two']);
    expect(inbound[0]?.bufferId).toBe(first.bufferId);
    // The replayed batch arrives as one message of `\n`-terminated lines, each as encodeFrame writes it.
    const replayed = gateway.raw.at(-1) ?? '';
    expect(replayed.split('\n')).toHaveLength(4);
    expect(replayed.endsWith('\n')).toBe(true);
    expect(replayed.split('\n').slice(0, 2)).toEqual(inbound.map((frame) => encodeFrame(frame).slice(0, -1)));
    expect(replayed.split('\n')[2]).toBe(
      '{"type":"passthrough_forward","forward":{"platform":"discord","botId":"app1","method":"POST",' +
        '"path":"/interactions","headers":[["content-type","application/json"]],"bodyB64":"eyJ0eXBlIjoxfQ=="},' +
        `"bufferId":"${(await gateway.waitFor('passthrough_forward'))[0]?.bufferId}"}`,
    );
    await buffer.close();
  });

  it('delivers live to the connected gateway, removes acked entries, and replays the rest on reconnect', async () => {
    const buffer = new InMemoryInboundBuffer();
    const server = await startServer(adapter, { buffer });
    const gateway = await connectGateway(server);
    const ids: string[] = [];
    for (const text of ['a', 'b', 'c', 'd'])
      ids.push((await server.deliverInbound(TENANT, event(text))).bufferId);
    const frames = await gateway.waitFor('inbound', 4);
    expect(texts(frames)).toEqual(['a', 'b', 'c', 'd']);
    expect(frames.map((frame) => frame.bufferId)).toEqual(ids);
    gateway.send({ type: 'inbound_ack', bufferId: ids[0] as string });
    gateway.send({ type: 'inbound_ack', bufferId: ids[2] as string });
    while ((await buffer.size(TENANT)) !== 2) await settle();
    gateway.terminate();
    await gateway.closed;

    const again = await connectGateway(server);
    expect(texts(await again.waitFor('inbound', 2))).toEqual(['b', 'd']);
    await settle();
    expect(again.frames.filter((frame) => frame.type === 'inbound')).toHaveLength(2);
    await buffer.close();
  });

  it('never sends an entry twice on one connection, however often it is woken', async () => {
    const server = await startServer(adapter);
    const gateway = await connectGateway(server);
    await Promise.all(Array.from({ length: 30 }, (_, i) => server.deliverInbound(TENANT, event(`m${i}`))));
    await gateway.waitFor('inbound', 30);
    await server.deliverInbound(TENANT, event('last'));
    const frames = await gateway.waitFor('inbound', 31);
    await settle();
    const ids = frames.map((frame) => frame.bufferId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(gateway.frames.filter((frame) => frame.type === 'inbound')).toHaveLength(31);
  });

  it('publishes a wake-up after every append, coalescing a burst into two publishes', async () => {
    const bus = new InMemoryRelayBus();
    const buffer = new InMemoryInboundBuffer();
    /** Each publish: the buffer's size when it started; each resolves when the test says. */
    const publishes: { size: number; release: () => void }[] = [];
    const slowBus = Object.assign(Object.create(bus) as InMemoryRelayBus, {
      publish: async (tenant: string, message: Parameters<InMemoryRelayBus['publish']>[1]) => {
        const size = await buffer.size(tenant);
        await new Promise<void>((release) => publishes.push({ size, release }));
        return bus.publish(tenant, message);
      },
    });
    const server = await startServer(adapter, { buffer, bus: slowBus });
    const first = server.deliverInbound(TENANT, event('first'));
    await until(() => publishes.length === 1);
    const burst = Array.from({ length: 20 }, (_, index) =>
      server.deliverInbound(TENANT, event(`burst-${index}`)),
    );
    let resolved = 0;
    for (const delivery of burst) void delivery.then(() => (resolved += 1));
    // Every append of the burst is stored while the first wake-up is still being published.
    for (let i = 0; i < 200 && (await buffer.size(TENANT)) < 21; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(await buffer.size(TENANT)).toBe(21);
    // The burst waits for a wake-up that starts after its appends, not the one already under way.
    expect(publishes).toHaveLength(1);
    publishes[0]!.release();
    await first;
    await until(() => publishes.length === 2);
    expect(resolved).toBe(0);
    expect(publishes[1]!.size).toBe(21);
    publishes[1]!.release();
    await Promise.all(burst);
    expect(publishes).toHaveLength(2);
    // Quiet again: the next append publishes at once.
    const later = server.deliverInbound(TENANT, event('later'));
    await until(() => publishes.length === 3);
    publishes[2]!.release();
    await later;
    await server.close();
  });

  it('going_idle: answers going_idle_ack and sends nothing more; the next connection gets the entries', async () => {
    const server = await startServer(adapter, { replayBatchSize: 2 });
    const gateway = await connectGateway(server);
    await server.deliverInbound(TENANT, event('before'));
    await gateway.waitFor('inbound', 1);
    gateway.send({ type: 'going_idle' });
    await gateway.waitFor('going_idle_ack');
    await server.deliverInbound(TENANT, event('while idle'));
    expect(await server.deliverInterrupt(TENANT, 'agent:main:discord:group:chan1:u1', 'chan1')).toEqual({
      delivered: false,
    });
    // Outbound frames are still answered while idle.
    gateway.send({
      type: 'outbound',
      requestId: 'a'.repeat(32),
      action: { op: 'send', chat_id: 'c', content: 'x' },
    });
    await gateway.result('a'.repeat(32));
    expect(texts(gateway.frames)).toEqual(['before']);
    gateway.terminate();

    const next = await connectGateway(server);
    expect(texts(await next.waitFor('inbound', 2))).toEqual(['before', 'while idle']);
  });

  it('a newer connection of the tenant takes over: the older socket closes with 1000 replaced', async () => {
    const bus = new InMemoryRelayBus();
    const buffer = new InMemoryInboundBuffer();
    const one = await startServer(adapter, { bus, buffer, instanceId: 'one' });
    const two = await startServer(adapter, { bus, buffer, instanceId: 'two' });
    const older = await connectGateway(one);
    const otherTenant = await connectGateway(one, [['discord', '']], bearer('gw-b'));
    const newer = await connectGateway(two, [['discord', '']], bearer('gw-2'));
    await expect(older.closed).resolves.toEqual({ code: 1000, reason: 'replaced' });
    // Inbound produced on instance one reaches the socket held by instance two, once.
    await one.deliverInbound(TENANT, event('routed'));
    expect(texts(await newer.waitFor('inbound', 1))).toEqual(['routed']);
    expect(otherTenant.ws.readyState).toBe(otherTenant.ws.OPEN);
    expect(texts(otherTenant.frames)).toEqual([]);
    await Promise.all([one.close(), two.close()]);
    await Promise.all([bus.close(), buffer.close()]);
  });

  it('validates its input with typed errors', async () => {
    const server = await startServer(adapter);
    await expect(server.deliverInbound('', event('x'))).rejects.toMatchObject({
      code: 'relay_server_invalid_input',
    });
    await expect(server.deliverInbound(TENANT, [] as never)).rejects.toMatchObject({
      code: 'relay_server_invalid_input',
    });
    await expect(server.forwardPassthrough(TENANT, { headers: [['a']] as never })).rejects.toMatchObject({
      code: 'relay_server_invalid_input',
      path: '$.forward.headers[0]',
    });
  });
});

describe('interrupts', () => {
  it('routes deliverInterrupt to the gateway socket holding the tenant as interrupt_inbound', async () => {
    const server = await startServer(adapter);
    const gateway = await connectGateway(server);
    expect(await server.deliverInterrupt(TENANT, 'agent:main:discord:group:chan1:u1', 'chan1')).toEqual({
      delivered: true,
    });
    expect(await gateway.waitFor('interrupt_inbound')).toEqual([
      { type: 'interrupt_inbound', session_key: 'agent:main:discord:group:chan1:u1', chat_id: 'chan1' },
    ]);
    expect(await server.deliverInterrupt('tenant-b', 'k', 'c')).toEqual({ delivered: false });
  });

  it('hands a gateway interrupt to the session default adapter, reporting what it throws', async () => {
    const seen: unknown[] = [];
    const interrupting: PlatformAdapter = {
      descriptor: discordDescriptor,
      onInterrupt: (sessionKey, reason, context) => {
        seen.push([sessionKey, reason, context]);
        if (reason === 'boom') throw new Error('cannot stop');
      },
    };
    const server = await startServer(interrupting);
    const errors: Error[] = [];
    server.on('error', (error) => errors.push(error));
    const gateway = await connectGateway(server, [['discord', 'app1']]);
    gateway.send({ type: 'interrupt', session_key: 'agent:main:discord:dm:42' });
    gateway.send({ type: 'interrupt', session_key: 'agent:main:discord:dm:43', reason: 'boom' });
    while (errors.length === 0) await settle();
    expect(seen).toEqual([
      [
        'agent:main:discord:dm:42',
        null,
        { tenant: TENANT, gatewayId: 'gw-1', platform: 'discord', botId: 'app1' },
      ],
      [
        'agent:main:discord:dm:43',
        'boom',
        { tenant: TENANT, gatewayId: 'gw-1', platform: 'discord', botId: 'app1' },
      ],
    ]);
    expect(errors[0]?.message).toContain('cannot stop');
  });
});
