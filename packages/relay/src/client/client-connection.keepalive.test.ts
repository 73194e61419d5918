import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { startKeepalive } from './client-connection.js';

const servers: WebSocketServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    for (const client of server.clients) client.terminate();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A `ws` server on 127.0.0.1 that answers pings with pongs only when `autoPong` is set. */
async function peer(autoPong: boolean): Promise<{ url: string; pings: () => number }> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1', autoPong });
  servers.push(server);
  let pings = 0;
  server.on('connection', (socket) => socket.on('ping', () => (pings += 1)));
  await once(server, 'listening');
  return { url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`, pings: () => pings };
}

async function openSocket(url: string): Promise<WebSocket> {
  const socket = new WebSocket(url);
  await once(socket, 'open');
  return socket;
}

describe('startKeepalive', () => {
  it('keeps a connection whose peer answers pongs, pinging it on every interval', async () => {
    const { url, pings } = await peer(true);
    const socket = await openSocket(url);
    const stop = startKeepalive(socket, 10, 40);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(socket.readyState).toBe(WebSocket.OPEN);
    expect(pings()).toBeGreaterThanOrEqual(3);
    stop();
    socket.close();
  });

  it('terminates a connection whose pong is overdue', async () => {
    const { url, pings } = await peer(false);
    const socket = await openSocket(url);
    startKeepalive(socket, 10, 40);
    const [code] = (await once(socket, 'close')) as [number];
    expect(code).toBe(1006);
    expect(pings()).toBe(1);
  });

  it('stops pinging once stopped, and when the socket closes', async () => {
    const { url, pings } = await peer(true);
    const socket = await openSocket(url);
    const stop = startKeepalive(socket, 10, 40);
    stop();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(pings()).toBe(0);
    const closing = await openSocket(url);
    startKeepalive(closing, 10, 40);
    closing.close();
    await once(closing, 'close');
    const seen = pings();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(pings()).toBe(seen);
  });
});
