// A bounded load and fault test of buffered delivery: 50 gateways × 200 inbound frames through our
// server and client, with a TCP proxy in between that cuts random connections. Nothing may be lost, and
// no frame may reach a gateway after the connector processed its ack. The figures are printed.
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import {
  type BufferedFrame,
  createMessageEvent,
  type InboundBuffer,
  type MessageEvent,
} from '@agentwire/relay';
import { WebSocketRelayTransport } from '@agentwire/relay/client';
import { createRelayServer, type RelayServer } from '@agentwire/relay/server';
import { InMemoryInboundBuffer } from '@agentwire/relay/testing';
import { afterAll, describe, expect, it } from 'vitest';

const GATEWAYS = 50;
const FRAMES = 200;
const DROPS = 50;
const SECRET = 'load-secret';

/** The in-memory buffer, remembering which frame each id carries and which ids were acked. */
class ObservedBuffer implements InboundBuffer {
  readonly #inner = new InMemoryInboundBuffer();
  readonly acked = new Set<string>();
  readonly frameOf = new Map<string, string>();
  acks = 0;

  async append(tenant: string, frame: BufferedFrame): Promise<string> {
    const id = await this.#inner.append(tenant, frame);
    const text = frame.type === 'inbound' ? String(frame.event['text']) : '';
    this.frameOf.set(`${tenant}/${text}`, id);
    return id;
  }
  read(tenant: string, afterId: string | null, limit: number) {
    return this.#inner.read(tenant, afterId, limit);
  }
  async ack(tenant: string, bufferId: string): Promise<boolean> {
    const removed = await this.#inner.ack(tenant, bufferId);
    if (removed) {
      this.acks += 1;
      this.acked.add(`${tenant}/${bufferId}`);
    }
    return removed;
  }
  size(tenant: string) {
    return this.#inner.size(tenant);
  }
  close() {
    return this.#inner.close();
  }
}

/** A TCP proxy to `port` that can cut a random live connection (both directions at once). */
function startCuttingProxy(port: number): Promise<{ server: Server; cut: () => boolean }> {
  const live = new Set<[Socket, Socket]>();
  const server = createServer((client) => {
    const upstream = tcpConnect(port, '127.0.0.1');
    const pair: [Socket, Socket] = [client, upstream];
    live.add(pair);
    const drop = () => {
      live.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const cut = () => {
    const pairs = [...live];
    const victim = pairs[Math.floor(Math.random() * pairs.length)];
    if (victim === undefined) return false;
    live.delete(victim);
    victim[0].destroy();
    victim[1].destroy();
    return true;
  };
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, cut })));
}

const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
});

describe('buffered delivery under load with random socket drops', () => {
  it(`delivers ${GATEWAYS} × ${FRAMES} frames: none lost, none after its ack`, {
    timeout: 60_000,
  }, async () => {
    const buffer = new ObservedBuffer();
    const server: RelayServer = await createRelayServer({
      port: 0,
      authenticate: async (gatewayId) => ({ tenant: `tenant-${gatewayId}`, secrets: [SECRET] }),
      platforms: {
        relay: {
          descriptor: {
            platform: 'relay',
            label: 'Relay',
            max_message_length: 4096,
            supports_draft_streaming: false,
            supports_edit: false,
            supports_threads: false,
            markdown_dialect: 'plain',
            len_unit: 'chars',
          },
        },
      },
      buffer,
      pingIntervalMs: 0,
    });
    closers.push(() => server.close());
    const proxy = await startCuttingProxy(server.port);
    closers.push(() => new Promise((resolve) => proxy.server.close(resolve)));

    const started = Date.now();
    const received = Array.from({ length: GATEWAYS }, () => [] as number[]);
    const afterAck: string[] = [];
    const transports = received.map((seen, g) => {
      const tenant = `tenant-gw-${g}`;
      const transport = new WebSocketRelayTransport({
        url: `http://127.0.0.1:${proxy.server.address() && (proxy.server.address() as { port: number }).port}`,
        gatewayId: `gw-${g}`,
        secret: SECRET,
        backoff: { initialMs: 5, maxMs: 40 },
      });
      transport.onInbound((event: MessageEvent) => {
        const text = String(event.text);
        const id = buffer.frameOf.get(`${tenant}/${text}`);
        if (id !== undefined && buffer.acked.has(`${tenant}/${id}`)) afterAck.push(`${tenant}/${text}`);
        seen.push(Number(text));
      });
      closers.push(() => transport.disconnect());
      return transport;
    });
    await Promise.all(transports.map((transport) => transport.connect()));

    let drops = 0;
    const source = { platform: 'discord', chat_id: 'c', chat_type: 'group', user_id: 'u' } as const;
    for (let n = 0; n < FRAMES; n += 1) {
      // Cut a random gateway's connection every few rounds, while frames are in flight.
      if (n % Math.ceil(FRAMES / DROPS) === 0 && proxy.cut()) drops += 1;
      await Promise.all(
        received.map((_, g) =>
          server.deliverInbound(`tenant-gw-${g}`, createMessageEvent({ text: String(n), source })),
        ),
      );
      // Let sockets make progress, so cuts land while frames and acks are in flight.
      await new Promise((resolve) => setTimeout(resolve, 1));
    }

    const everythingAcked = async () =>
      (await Promise.all(received.map((_, g) => buffer.size(`tenant-gw-${g}`)))).every((size) => size === 0);
    const deadline = Date.now() + 45_000;
    while (!(await everythingAcked())) {
      if (Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    const lost = received.reduce(
      (sum, seen) =>
        sum + Array.from({ length: FRAMES }, (_, n) => n).filter((n) => !seen.includes(n)).length,
      0,
    );
    const deliveries = received.reduce((sum, seen) => sum + seen.length, 0);
    const outOfOrderFirstSeen = received.filter((seen) => {
      const firsts = seen.filter((n, i) => seen.indexOf(n) === i);
      return firsts.some((n, i) => i > 0 && n < (firsts[i - 1] ?? -1));
    }).length;
    console.log(
      [
        `relay load: ${GATEWAYS} gateways × ${FRAMES} frames = ${GATEWAYS * FRAMES} frames`,
        `${drops} connections cut, ${deliveries} deliveries (${deliveries - GATEWAYS * FRAMES} redelivered before their ack)`,
        `${buffer.acks} acks, ${lost} lost, ${afterAck.length} delivered after their ack`,
        `${outOfOrderFirstSeen} gateways saw a frame before an earlier one, ${Date.now() - started} ms`,
      ].join('\n'),
    );
    expect(drops).toBeGreaterThan(0);
    expect(lost).toBe(0);
    expect(afterAck).toEqual([]);
    expect(outOfOrderFirstSeen).toBe(0);
    expect(buffer.acks).toBe(GATEWAYS * FRAMES);
  });
});
