// The gateway side's bounds against a connector that misbehaves: one that stops reading is paused and then
// dropped (close 1008 with the limit as reason, a `peer_limit` RelayError on `error`), and inbound frames
// that outrun their handler stop the reading instead of filling memory. Real sockets on 127.0.0.1.
import { afterEach, describe, expect, it } from 'vitest';
import { RelayError } from '../errors.js';
import { createMessageEvent } from '../message-event.js';
import { encodeFrame } from '../ndjson.js';
import { RelayTransportError } from '../transport.js';
import type { RelayDisconnectInfo } from './options.js';
import { closeAll, connectedPair, settle } from './test-harness.js';
import { WebSocketRelayTransport } from './web-socket-relay-transport.js';

afterEach(closeAll);

const content = 'x'.repeat(64 * 1024);

describe('a connector that stops reading', () => {
  it('is dropped at once when the send backlog passes dropBufferedAmount; pending calls fail', async () => {
    const pair = await connectedPair(
      { onOutbound: () => undefined },
      { maxBufferedAmount: 64 * 1024, dropBufferedAmount: 1024 * 1024 },
    );
    pair.connector.latest.socket.pause();
    const disconnected = new Promise<RelayDisconnectInfo>((resolve) =>
      pair.transport.on('disconnected', resolve),
    );
    // 19 MB: far more than the kernel's socket buffers take.
    const calls = Array.from({ length: 300 }, (_, i) =>
      settle(pair.transport.sendOutbound({ op: 'send', chat_id: `c${i}`, content })),
    );
    expect(await disconnected).toEqual({ code: 1008, reason: 'send_backlog', reconnectInMs: null });
    const dropped = pair.errors.find((error) => error instanceof RelayError && error.code === 'peer_limit');
    expect(dropped).toMatchObject({
      code: 'peer_limit',
      details: { limit: 'send_backlog', closeCode: 1008 },
    });
    const outcomes = await Promise.all(calls);
    expect(
      outcomes.every(
        (outcome) => outcome instanceof RelayTransportError && outcome.code === 'connection_lost',
      ),
    ).toBe(true);
  });

  it('is dropped when the backlog stays above maxBufferedAmount for drainTimeoutMs', async () => {
    const pair = await connectedPair(
      { onOutbound: () => undefined },
      { maxBufferedAmount: 64 * 1024, dropBufferedAmount: 1024 ** 3, drainTimeoutMs: 500 },
    );
    pair.connector.latest.socket.pause();
    const disconnected = new Promise<RelayDisconnectInfo>((resolve) =>
      pair.transport.on('disconnected', resolve),
    );
    for (let i = 0; i < 300; i += 1) {
      void settle(pair.transport.sendOutbound({ op: 'send', chat_id: `c${i}`, content }));
    }
    expect(await disconnected).toMatchObject({ code: 1008, reason: 'drain_timeout' });
    expect(
      pair.errors.find((error) => error instanceof RelayError && error.code === 'peer_limit'),
    ).toMatchObject({
      details: { limit: 'drain_timeout' },
    });
  });
});

describe('inbound frames that outrun their handler', () => {
  it('stop the reading past maxQueuedFrames, and every frame is handled in order once the handler catches up', async () => {
    const pair = await connectedPair({}, { maxQueuedFrames: 10 });
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const handled: string[] = [];
    pair.transport.onInbound(async (event) => {
      await gate;
      handled.push(String(event.text));
    });
    const connection = pair.connector.latest;
    const total = 20_000;
    const text = 'y'.repeat(1_000);
    for (let batch = 0; batch < total / 500; batch += 1) {
      let message = '';
      for (let i = batch * 500; i < (batch + 1) * 500; i += 1) {
        const event = createMessageEvent({
          text: `${i}:${text}`,
          source: { platform: 'discord', chat_id: 'c1', chat_type: 'dm', user_id: 'u1' },
        });
        message += encodeFrame({ type: 'inbound', event, bufferId: `b${i}` });
      }
      connection.sendRaw(message);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // About 20 MB sent: with the transport not reading, most of it is still queued at the connector.
    expect(connection.socket.bufferedAmount).toBeGreaterThan(5 * 1024 * 1024);
    expect(handled).toEqual([]);
    open();
    while (handled.length < total) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(handled.map((entry) => Number(entry.slice(0, entry.indexOf(':'))))).toEqual(
      Array.from({ length: total }, (_, i) => i),
    );
    while (connection.framesOf('inbound_ack').length < total) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(pair.errors).toEqual([]);
  });
});

describe('a handler that awaits a call while many frames wait', () => {
  it('still gets its results: the socket is read while a request waits, and every frame is handled', async () => {
    const pair = await connectedPair(
      { onOutbound: (frame) => ({ success: true, message_id: frame.requestId }) },
      {
        maxQueuedFrames: 10,
        outboundTimeoutMs: 2_000,
      },
    );
    let handled = 0;
    let failed = 0;
    pair.transport.onInbound(async (event) => {
      const result = await pair.transport.sendOutbound({
        op: 'send',
        chat_id: 'c1',
        content: `re: ${event.text}`,
      });
      if (result['success'] === true) handled += 1;
      else failed += 1;
    });
    const connection = pair.connector.latest;
    let message = '';
    for (let i = 0; i < 200; i += 1) {
      const event = createMessageEvent({
        text: `m${i}`,
        source: { platform: 'discord', chat_id: 'c1', chat_type: 'dm', user_id: 'u1' },
      });
      message += encodeFrame({ type: 'inbound', event, bufferId: `b${i}` });
    }
    connection.sendRaw(message);
    while (handled + failed < 200) await new Promise((resolve) => setTimeout(resolve, 20));
    expect({ handled, failed }).toEqual({ handled: 200, failed: 0 });
  });
});

describe('flow-control options', () => {
  it('refuses bounds that cannot work', () => {
    const url = 'http://127.0.0.1:1';
    expect(() => new WebSocketRelayTransport({ url, dropBufferedAmount: 10, maxBufferedAmount: 11 })).toThrow(
      expect.objectContaining({ code: 'invalid_client_options' }),
    );
    expect(() => new WebSocketRelayTransport({ url, maxQueuedFrames: 0 })).toThrow(/maxQueuedFrames/);
    expect(() => new WebSocketRelayTransport({ url, drainTimeoutMs: -1 })).toThrow(/drainTimeoutMs/);
  });
});
