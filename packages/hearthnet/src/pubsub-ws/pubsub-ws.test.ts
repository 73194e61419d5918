// Acceptance (issue 10, pub-sub over WebSocket): two nodes with their own identities over real
// loopback HTTP; A subscribes to B's topics through /pubsub/v1/ws/{topic}.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { RevokedError, UnauthorizedError } from '../capabilities/index.js';
import { keyPairFromSeed } from '../crypto/key-pair.js';
import { createEvent } from '../events/event.js';
import { sampleData } from '../events/event-samples.test-support.js';
import { InMemoryEventStore } from '../events/event-store.js';
import { type ServedBusHandler, serveBusHandler } from '../node-http.js';
import { createPubSubHandler, PUBSUB_ROUTES, PublishingEventStore, TopicHub } from '../pubsub/index.js';
import type { SubscriptionEvent } from '../pubsub/pubsub-client.js';
import { signedRequestHeaders } from '../pubsub/subscribe-protocol.js';
import { chatTopic } from '../pubsub/topics.js';
import { staticTrust } from '../wire/index.js';
import { attachPubSubWebSocket, createPubSubWebSocketClient, type PubSubWebSocketOptions } from './index.js';
import { ackUpto, webSocketPath } from './ws-frames.js';
import { DEFAULT_SUBSCRIBER_MAX_PAYLOAD, type PubSubWebSocketAttachment } from './ws-server.js';

const a = keyPairFromSeed(new Uint8Array(32).fill(31));
const b = keyPairFromSeed(new Uint8Array(32).fill(32));
const revoked = keyPairFromSeed(new Uint8Array(32).fill(34));
const community = b.nodeId;
const POSTS = 'marketplace.post.created';

let hub: TopicHub;
let store: PublishingEventStore;
let served: ServedBusHandler;
let attachment: PubSubWebSocketAttachment;
let options: PubSubWebSocketOptions;

beforeEach(async () => {
  hub = new TopicHub({ retention: 16 });
  store = new PublishingEventStore(new InMemoryEventStore(), hub);
  const trust = staticTrust({ [a.nodeId]: 'member', [revoked.nodeId]: 'revoked' });
  options = { identity: b, hub, trust, community, window: 2 };
  served = await serveBusHandler(createPubSubHandler({ identity: b, hub, trust, community }));
  attachment = attachPubSubWebSocket(served.server, options);
});

afterEach(async () => {
  await attachment.close();
  await served.close();
});

const postOnB = (title: string) =>
  store.appendLocal(community, (lamport) =>
    createEvent(
      {
        community_id: community,
        event_type: 'market.post.created',
        data: { ...sampleData['market.post.created'], title },
        lamport,
      },
      b,
    ),
  );

const immediateRetry = { backoff: () => 0, sleep: async () => undefined };
const clientOf = (identity = a) =>
  createPubSubWebSocketClient({ identity, community, node: served.url, retry: immediateRetry });

const titleOf = (event: SubscriptionEvent | undefined) =>
  event?.kind === 'item' ? (event.payload as { data: { title: string } }).data.title : event?.kind;

async function next(iterator: AsyncIterator<SubscriptionEvent>): Promise<SubscriptionEvent | undefined> {
  const result = await iterator.next();
  return result.done ? undefined : result.value;
}

/** A raw signed socket to B that never acknowledges unless told to. */
async function rawSocket(topic: string, cursor: number): Promise<{ socket: WebSocket; frames: unknown[] }> {
  const url = new URL(`${webSocketPath(topic)}?cursor=${cursor}`, served.url.replace('http:', 'ws:'));
  const headers = signedRequestHeaders({ identity: a, community, now: Date.now }, PUBSUB_ROUTES.websocket, {
    topic,
    cursor: String(cursor),
  });
  const socket = new WebSocket(url, { headers });
  const frames: unknown[] = [];
  socket.on('message', (raw) => frames.push(JSON.parse(String(raw))));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return { socket, frames };
}

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('WebSocket pub-sub between two nodes', () => {
  it('delivers a post once, and after a disconnect exactly the two missed ones', async () => {
    const first = new AbortController();
    const subscription = clientOf().subscribe(POSTS, { cursor: 0, signal: first.signal });
    const iterator = subscription[Symbol.asyncIterator]();
    const received = next(iterator);
    const post = await postOnB('Brennholz');
    expect((await store.append(post)).status).toBe('duplicate');
    expect(await received).toMatchObject({ kind: 'item', topic: POSTS, payload: post });
    first.abort();
    expect(await next(iterator)).toBeUndefined();
    const cursor = subscription.cursor as number;

    await postOnB('Wasser');
    await postOnB('Kerzen');
    const second = new AbortController();
    const resumed = clientOf().subscribe(POSTS, { cursor, signal: second.signal })[Symbol.asyncIterator]();
    expect(titleOf(await next(resumed))).toBe('Wasser');
    expect(titleOf(await next(resumed))).toBe('Kerzen');
    const after = next(resumed);
    await postOnB('Decken');
    expect(titleOf(await after)).toBe('Decken');
    second.abort();
  });

  it('reconnects from its cursor when the connection drops', async () => {
    const controller = new AbortController();
    const iterator = clientOf()
      .subscribe(POSTS, { cursor: 0, signal: controller.signal })
      [Symbol.asyncIterator]();
    await postOnB('vorher');
    expect(titleOf(await next(iterator))).toBe('vorher');
    await attachment.close();
    attachment = attachPubSubWebSocket(served.server, options);
    await postOnB('nachher');
    expect(titleOf(await next(iterator))).toBe('nachher');
    controller.abort();
  });

  it('sends at most a window of unacknowledged frames, and accepts upto, up_to and the reference ack', async () => {
    for (const title of ['p1', 'p2', 'p3', 'p4', 'p5', 'p6']) await postOnB(title);
    const { socket, frames } = await rawSocket(POSTS, 0);
    try {
      await until(() => frames.length >= 2);
      // The ready frame and one item fill the window of 2; nothing more comes without an ack.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(frames).toHaveLength(2);
      expect(frames[0]).toEqual({ event: 'ready', data: { cursor: 0 }, seq: 0 });
      expect(frames[1]).toMatchObject({ event: POSTS, seq: 1 });
      socket.send(JSON.stringify({ event: 'ack', data: { upto: 1 } }));
      await until(() => frames.length >= 4);
      socket.send(JSON.stringify({ event: 'ack', data: { up_to: 3 } }));
      await until(() => frames.length >= 6);
      socket.send(JSON.stringify({ type: 'ack', upto: 5 }));
      await until(() => frames.length >= 7);
      expect(frames.map((frame) => (frame as { seq: number }).seq)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    } finally {
      socket.terminate();
    }
  });

  it('closes a subscriber that sends a message over maxPayload with 1009', async () => {
    const { socket } = await rawSocket(POSTS, 0);
    try {
      const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
      socket.send('x'.repeat(DEFAULT_SUBSCRIBER_MAX_PAYLOAD + 1));
      expect(await closed).toBe(1009);
    } finally {
      socket.terminate();
    }
  });

  it('reads a bare 403 upgrade refusal (what a reference node answers) as unauthorized, not revoked', async () => {
    const bare = createServer((_request, response) => response.writeHead(404).end());
    bare.on('upgrade', (_request, socket) =>
      socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n'),
    );
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = bare.address() as AddressInfo;
      const client = createPubSubWebSocketClient({
        identity: a,
        community,
        node: `http://127.0.0.1:${port}`,
        retry: immediateRetry,
      });
      const error = await next(client.subscribe(POSTS, { cursor: 0 })[Symbol.asyncIterator]()).catch(
        (e) => e,
      );
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect(error).not.toBeInstanceOf(RevokedError);
    } finally {
      await new Promise((resolve) => bare.close(resolve));
    }
  });

  it('refuses revoked callers, other nodes’ chat and local-only topics', async () => {
    const refusal = (identity: typeof a, topic: string) =>
      next(clientOf(identity).subscribe(topic, { cursor: 0 })[Symbol.asyncIterator]()).catch(
        (error) => error,
      );
    expect(await refusal(revoked, POSTS)).toBeInstanceOf(RevokedError);
    expect(await refusal(a, chatTopic(b.nodeId))).toBeInstanceOf(UnauthorizedError);
    expect(() => clientOf().subscribe('emergency.mode.changed')).toThrow(
      expect.objectContaining({ code: 'local_only_topic' }),
    );
    const status = await new Promise<number | undefined>((resolve) => {
      const topic = 'capability.registered';
      const socket = new WebSocket(new URL(webSocketPath(topic), served.url.replace('http:', 'ws:')), {
        headers: signedRequestHeaders({ identity: a, community, now: Date.now }, PUBSUB_ROUTES.websocket, {
          topic,
        }),
      });
      socket.on('unexpected-response', (_request, response) => {
        resolve(response.statusCode);
        socket.terminate();
      });
      socket.on('open', () => resolve(undefined));
      socket.on('error', () => undefined);
    });
    expect(status).toBe(400);
    expect(attachment.connections).toBe(0);
  });

  it('parses acks strictly', () => {
    expect(ackUpto({ event: 'ack', data: { upto: 4 } })).toBe(4);
    expect(ackUpto({ event: 'ack', data: { up_to: 4 } })).toBe(4);
    expect(ackUpto({ type: 'ack', upto: 4 })).toBe(4);
    expect(ackUpto({ event: 'ack', data: { upto: -1 } })).toBeUndefined();
    expect(ackUpto({ event: 'cancel', data: { upto: 4 } })).toBeUndefined();
    expect(ackUpto(null)).toBeUndefined();
    expect(ackUpto('ack')).toBeUndefined();
  });
});
