// Slow and non-reading WebSocket subscribers (issue #17): over real loopback sockets, a subscriber
// that does not read (or does not acknowledge) costs the server bounded memory and is dropped with a
// typed reason, while a well-behaved subscriber on the same server keeps receiving every item.
import type { Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { keyPairFromSeed } from '../crypto/key-pair.js';
import type { HearthNetLocalError } from '../errors.js';
import { createEvent } from '../events/event.js';
import { sampleData } from '../events/event-samples.test-support.js';
import { type ServedBusHandler, serveBusHandler } from '../node-http.js';
import { createPubSubHandler, PUBSUB_ROUTES, TopicHub } from '../pubsub/index.js';
import type { SubscriptionEvent } from '../pubsub/pubsub-client.js';
import { signedRequestHeaders } from '../pubsub/subscribe-protocol.js';
import { staticTrust } from '../wire/index.js';
import {
  attachPubSubWebSocket,
  createPubSubWebSocketClient,
  type PubSubWebSocketOptions,
  SLOW_CONSUMER_CLOSE_CODE,
} from './index.js';
import { ackFrame, webSocketPath } from './ws-frames.js';
import type { PubSubWebSocketAttachment } from './ws-server.js';

const a = keyPairFromSeed(new Uint8Array(32).fill(41));
const b = keyPairFromSeed(new Uint8Array(32).fill(42));
const c = keyPairFromSeed(new Uint8Array(32).fill(43));
const community = b.nodeId;
const POSTS = 'marketplace.post.created';
const MAX_BUFFERED = 256 * 1024;
const BIG = 64 * 1024;
const DEADLINE = 1000;

/** One large signed post, published again and again (the hub keeps a reference, not a copy). */
const bigPost = createEvent(
  {
    community_id: community,
    event_type: 'market.post.created',
    data: { ...sampleData['market.post.created'], body: 'x'.repeat(BIG) },
    lamport: 1,
  },
  b,
);
/** The largest frame the server sends: an item frame of `bigPost`. */
const FRAME = Buffer.byteLength(JSON.stringify({ event: POSTS, data: bigPost, seq: 1_000_000 }));

let hub: TopicHub;
let served: ServedBusHandler;
let attachment: PubSubWebSocketAttachment;
let serverSockets: Set<Socket>;
let drops: { error: HearthNetLocalError; caller: string; topic: string }[];
const trust = staticTrust({ [a.nodeId]: 'member', [c.nodeId]: 'member' });

async function start(options: Partial<PubSubWebSocketOptions> = {}) {
  hub = new TopicHub({ retention: 100_000 });
  served = await serveBusHandler(createPubSubHandler({ identity: b, hub, trust, community }));
  serverSockets = new Set();
  served.server.on('connection', (socket: Socket) => {
    serverSockets.add(socket);
    socket.once('close', () => serverSockets.delete(socket));
  });
  drops = [];
  attachment = attachPubSubWebSocket(served.server, {
    identity: b,
    hub,
    trust,
    community,
    maxBufferedAmount: MAX_BUFFERED,
    // Well above any pause of the well-behaved subscriber, which shares this process and its event loop.
    drainTimeoutMs: DEADLINE,
    ackTimeoutMs: DEADLINE,
    onSlowSubscriber: (error, subscriber) => drops.push({ error, ...subscriber }),
    ...options,
  });
}

beforeEach(() => start());

afterEach(async () => {
  await attachment.close();
  await served.close();
});

/** A raw signed socket of `identity` to B from cursor 0, recording the frames it reads and how it closed. */
async function rawSocket(identity = c) {
  const url = new URL(`${webSocketPath(POSTS)}?cursor=0`, served.url.replace('http:', 'ws:'));
  const headers = signedRequestHeaders({ identity, community, now: Date.now }, PUBSUB_ROUTES.websocket, {
    topic: POSTS,
    cursor: '0',
  });
  const socket = new WebSocket(url, { headers });
  const frames: { event: string; data: unknown; seq: number }[] = [];
  socket.on('message', (raw) => frames.push(JSON.parse(String(raw))));
  socket.on('error', () => undefined);
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('unexpected-response', (_request, response) => {
      socket.terminate();
      reject(new Error(`upgrade refused: ${response.statusCode}`));
    });
  });
  /** Stops reading the TCP socket: what the server sends piles up in the kernel, then in the server. */
  const stopReading = () => (socket as unknown as { _socket: Socket })._socket.pause();
  return { socket, frames, closed, stopReading };
}

/** A well-behaved subscriber of `a` from cursor 0: counts the items it gets, and whether any gap came. */
function goodSubscriber() {
  const controller = new AbortController();
  const client = createPubSubWebSocketClient({
    identity: a,
    community,
    node: served.url,
    verifyEvents: false,
    retry: { backoff: () => 0, sleep: async () => undefined },
  });
  const seen = { items: 0, gaps: 0, lastSeq: 0, outOfOrder: 0 };
  const done = (async () => {
    for await (const event of client.subscribe(POSTS, { cursor: 0, signal: controller.signal })) {
      if (event.kind === 'gap') seen.gaps += 1;
      if (event.kind !== 'item') continue;
      const { seq } = event as Extract<SubscriptionEvent, { kind: 'item' }>;
      if (seq !== seen.lastSeq + 1) seen.outOfOrder += 1;
      seen.lastSeq = seq;
      seen.items += 1;
    }
  })().catch(() => undefined);
  return { seen, stop: () => controller.abort(), done };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const tick = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Publishes `bigPost` until `enough()` or `ms` passed (or the server holds 96 MB for one socket, so
 * that a server without bounds fails the test instead of the machine), sampling the largest send
 * queue of any server socket and the RSS. Once a socket holds more than half the bound, publishes
 * only every 10 ms (less garbage for the RSS to show while the deadline runs). Returns how many items
 * were published.
 */
async function publishWhileSampling(ms: number, enough: () => boolean, most = Number.POSITIVE_INFINITY) {
  const sample = { published: 0, peakQueued: 0, peakRss: 0 };
  const end = Date.now() + ms;
  while (Date.now() < end && !enough() && sample.published < most && sample.peakQueued < 96 * 1024 * 1024) {
    hub.publish(POSTS, bigPost);
    sample.published += 1;
    for (let i = 0; i < 4; i += 1) {
      await tick();
      for (const socket of serverSockets) {
        sample.peakQueued = Math.max(sample.peakQueued, socket.writableLength);
      }
    }
    if (sample.published % 16 === 0) sample.peakRss = Math.max(sample.peakRss, process.memoryUsage.rss());
    if ([...serverSockets].some((socket) => socket.writableLength > MAX_BUFFERED / 2)) await sleep(10);
  }
  return sample;
}

describe('slow and non-reading WebSocket subscribers', () => {
  it('drops a blind-acking subscriber that does not read (1008 drain_timeout), memory bounded, while a good one gets everything', async () => {
    const good = goodSubscriber();
    await expect.poll(() => attachment.connections).toBe(1);
    // Warm up (heaps grown to their working size) before the RSS baseline.
    const warmUp = await publishWhileSampling(8000, () => false, 300);
    await expect.poll(() => good.seen.items, { timeout: 10_000 }).toBe(warmUp.published);
    const bad = await rawSocket();
    bad.stopReading();
    // Acks are cheap to send blindly: "I have everything" every 2 ms, without reading a byte.
    const acking = setInterval(() => {
      if (bad.socket.readyState === WebSocket.OPEN) bad.socket.send(ackFrame(Number.MAX_SAFE_INTEGER));
    }, 2);
    const rssBefore = process.memoryUsage.rss();
    let publishedAfterDrop = 0;
    try {
      const sample = await publishWhileSampling(DEADLINE + 8000, () => {
        if (drops.length > 0) publishedAfterDrop += 1;
        return publishedAfterDrop > 20;
      });
      // The server never queued more than the bound plus one frame to any subscriber…
      expect(sample.peakQueued).toBeLessThanOrEqual(MAX_BUFFERED + FRAME);
      expect(sample.peakRss - rssBefore).toBeLessThan(64 * 1024 * 1024);
      // …and dropped the one that does not read, with its typed reason.
      expect(drops).toHaveLength(1);
      expect(drops[0]?.error).toMatchObject({ code: 'slow_consumer' });
      expect(drops[0]).toMatchObject({
        caller: c.nodeId,
        topic: POSTS,
        error: { code: 'slow_consumer', details: { limit: 'drain_timeout' } },
      });
      // The close frame it was sent: 1008 with the limit as reason.
      expect(SLOW_CONSUMER_CLOSE_CODE).toBe(1008);
      await expect.poll(() => attachment.connections).toBe(1);
      // The good subscriber got every item, in order, without a gap.
      const total = warmUp.published + sample.published;
      await expect.poll(() => good.seen.items, { timeout: 10_000 }).toBe(total);
      expect(good.seen).toMatchObject({ gaps: 0, outOfOrder: 0, lastSeq: total });
    } finally {
      clearInterval(acking);
      bad.socket.terminate();
      good.stop();
      await good.done;
    }
  }, 30_000);

  it('drops a subscriber that neither reads nor acknowledges (ack_timeout), its queue bounded', async () => {
    const bad = await rawSocket();
    bad.stopReading();
    const sample = await publishWhileSampling(DEADLINE + 3000, () => drops.length > 0);
    expect(sample.peakQueued).toBeLessThanOrEqual(MAX_BUFFERED + FRAME);
    expect(drops.map((drop) => drop.error.details?.limit)).toEqual(['ack_timeout']);
    await expect.poll(() => attachment.connections).toBe(0);
    bad.socket.terminate();
  }, 15_000);

  it('tells a stalled subscriber that reads but never acknowledges why, then closes with 1008 ack_timeout', async () => {
    const stalled = await rawSocket();
    for (let i = 0; i < 40; i += 1) hub.publish(POSTS, bigPost);
    const started = Date.now();
    const closed = await Promise.race([stalled.closed, sleep(DEADLINE + 3000).then(() => undefined)]);
    expect(closed).toEqual({ code: 1008, reason: 'ack_timeout' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(DEADLINE - 50);
    // A window (16) of frames — the ready frame and 15 items —, then the error frame; nothing after it.
    expect(stalled.frames).toHaveLength(17);
    expect(stalled.frames.at(-1)).toMatchObject({ event: 'error', data: { error: 'timeout' } });
    expect(drops.map((drop) => drop.error.details?.limit)).toEqual(['ack_timeout']);
  });

  it('refuses a caller more than maxSubscriptionsPerCaller connections (429 capacity_exceeded) until one closes', async () => {
    await attachment.close();
    await served.close();
    await start({ maxSubscriptionsPerCaller: 2 });
    const first = await rawSocket();
    await rawSocket();
    const refused = await rawSocket().then(
      () => 'opened',
      (error: Error) => error.message,
    );
    expect(refused).toBe('upgrade refused: 429');
    // Another caller is not affected; a closed connection frees its slot.
    const other = await rawSocket(a);
    other.socket.terminate();
    first.socket.terminate();
    await expect.poll(() => attachment.connections).toBe(1);
    await expect(rawSocket()).resolves.toBeDefined();
  });

  it.each([
    ['maxBufferedAmount', 0],
    ['drainTimeoutMs', 1.5],
    ['ackTimeoutMs', 2 ** 31],
    ['maxSubscriptionsPerCaller', 0],
    ['maxSubscriptions', -1],
  ])('refuses %s %s', (name, value) => {
    expect(() =>
      attachPubSubWebSocket(served.server, { identity: b, hub, trust, community, [name]: value }),
    ).toThrow(expect.objectContaining({ code: 'invalid_pubsub_options' }));
  });
});
