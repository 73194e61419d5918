// Acceptance (issue 10, pub-sub): two nodes with their own identities over real loopback HTTP; A
// long-polls B's topics.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidSignatureError, RevokedError, UnauthorizedError } from '../capabilities/index.js';
import { keyPairFromSeed } from '../crypto/key-pair.js';
import { createEvent } from '../events/event.js';
import { sampleData } from '../events/event-samples.test-support.js';
import { InMemoryEventStore } from '../events/event-store.js';
import { type ServedBusHandler, serveBusHandler } from '../node-http.js';
import { staticTrust } from '../wire/index.js';
import {
  createPubSubClient,
  createPubSubHandler,
  PUBSUB_ROUTES,
  PUBSUB_SUBSCRIBE_PATH,
  PublishingEventStore,
  TopicHub,
} from './index.js';
import type { SubscriptionEvent } from './pubsub-client.js';
import { signedRequestHeaders } from './subscribe-protocol.js';
import { chatTopic } from './topics.js';

const a = keyPairFromSeed(new Uint8Array(32).fill(21));
const b = keyPairFromSeed(new Uint8Array(32).fill(22));
const mallory = keyPairFromSeed(new Uint8Array(32).fill(23));
const revoked = keyPairFromSeed(new Uint8Array(32).fill(24));
const community = b.nodeId;
const POSTS = 'marketplace.post.created';

let hub: TopicHub;
let store: PublishingEventStore;
let served: ServedBusHandler;

beforeEach(async () => {
  hub = new TopicHub({ retention: 8 });
  store = new PublishingEventStore(new InMemoryEventStore(), hub);
  const trust = staticTrust({ [a.nodeId]: 'member', [b.nodeId]: 'anchor', [revoked.nodeId]: 'revoked' });
  served = await serveBusHandler(createPubSubHandler({ identity: b, hub, trust, community }));
});

afterEach(async () => {
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

const clientOf = (identity = a, retry = {}) =>
  createPubSubClient({ identity, community, node: served.url, peer: b.nodeId, retry });

const titleOf = (event: SubscriptionEvent | undefined) =>
  event?.kind === 'item' ? (event.payload as { data: { title: string } }).data.title : event?.kind;

async function next(iterator: AsyncIterator<SubscriptionEvent>): Promise<SubscriptionEvent | undefined> {
  const result = await iterator.next();
  return result.done ? undefined : result.value;
}

describe('long-poll pub-sub between two nodes', () => {
  it('delivers a post once, and after a disconnect exactly the two missed ones', async () => {
    const first = new AbortController();
    const subscription = clientOf().subscribe(POSTS, { cursor: 0, signal: first.signal });
    const iterator = subscription[Symbol.asyncIterator]();
    const received = next(iterator);
    const post = await postOnB('Brennholz');
    // The same event arriving again through sync is not published twice.
    expect((await store.append(post)).status).toBe('duplicate');
    const event = await received;
    expect(event).toMatchObject({ kind: 'item', topic: POSTS, payload: post });
    first.abort();
    const cursor = subscription.cursor as number;
    expect(cursor).toBe((event as { seq: number }).seq);

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
    expect(await next(resumed)).toBeUndefined();
    expect(hub.lastSeq).toBe(4);
  });

  it('ends an aborted subscription without an error', async () => {
    const controller = new AbortController();
    const iterator = clientOf().subscribe(POSTS, { signal: controller.signal })[Symbol.asyncIterator]();
    const pending = next(iterator);
    controller.abort();
    expect(await pending).toBeUndefined();
  });

  it('surfaces a gap when the cursor fell out of retention, then goes on', async () => {
    for (let i = 0; i < 10; i++) await postOnB(`p${i}`);
    const controller = new AbortController();
    const iterator = clientOf()
      .subscribe(POSTS, { cursor: 0, signal: controller.signal })
      [Symbol.asyncIterator]();
    expect(await next(iterator)).toEqual({ kind: 'gap', topic: POSTS, after: 0, cursor: 2 });
    expect(titleOf(await next(iterator))).toBe('p2');
    controller.abort();
  });

  it('lets a node read its own chat topic only', async () => {
    const controller = new AbortController();
    const own = clientOf().subscribe(chatTopic(a.nodeId), { cursor: 0, signal: controller.signal });
    const pending = next(own[Symbol.asyncIterator]());
    const message = await store.appendLocal(community, (lamport) =>
      createEvent(
        {
          community_id: community,
          event_type: 'chat.message.sent',
          data: { client_id: 'c-1', recipient: a.nodeId, body: 'hallo' },
          lamport,
        },
        b,
      ),
    );
    expect(await pending).toMatchObject({ kind: 'item', topic: chatTopic(a.nodeId), payload: message });
    controller.abort();

    const other = clientOf().subscribe(chatTopic(b.nodeId), { cursor: 0 })[Symbol.asyncIterator]();
    const refusal = await next(other).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(UnauthorizedError);
    expect((refusal as UnauthorizedError).message).toContain('recipient');
  });

  it('refuses revoked callers, non-members and anchor-only topics to members', async () => {
    const refusal = (identity: typeof a, topic: string) =>
      next(clientOf(identity).subscribe(topic, { cursor: 0 })[Symbol.asyncIterator]()).catch(
        (error) => error,
      );
    expect(await refusal(revoked, POSTS)).toBeInstanceOf(RevokedError);
    expect(await refusal(mallory, POSTS)).toBeInstanceOf(UnauthorizedError);
    expect(await refusal(a, 'federation.peer.added')).toBeInstanceOf(UnauthorizedError);
  });

  it('never puts local-only topics on the wire', async () => {
    expect(() => clientOf().subscribe('emergency.mode.changed')).toThrow(
      expect.objectContaining({ code: 'local_only_topic' }),
    );
    expect(() => clientOf().subscribe('capability.registered')).toThrow(
      expect.objectContaining({ code: 'local_only_topic' }),
    );
    expect(() => clientOf().subscribe('market.post.created')).toThrow(
      expect.objectContaining({ code: 'unknown_topic' }),
    );
    // A hand-made signed request for a local-only topic is refused by the server too.
    for (const topic of ['emergency.mode.changed', 'capability.deregistered']) {
      const parameters = { topic, cursor: '0', wait_ms: '0' };
      const url = new URL(PUBSUB_SUBSCRIBE_PATH, served.url);
      for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
      const headers = signedRequestHeaders(
        { identity: a, community, now: Date.now },
        PUBSUB_ROUTES.subscribe,
        parameters,
      );
      const response = await fetch(url, { headers });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'bad_request' });
    }
  });

  it('refuses a request whose query differs from what was signed, and unsigned requests', async () => {
    const parameters = { topic: POSTS, cursor: '0', wait_ms: '0' };
    const headers = signedRequestHeaders(
      { identity: a, community, now: Date.now },
      PUBSUB_ROUTES.subscribe,
      parameters,
    );
    const url = new URL(PUBSUB_SUBSCRIBE_PATH, served.url);
    url.search = new URLSearchParams({ ...parameters, topic: chatTopic(a.nodeId) }).toString();
    const tampered = await fetch(url, { headers });
    expect(tampered.status).toBe(401);
    expect(await tampered.json()).toMatchObject({ error: 'invalid_signature' });
    const unsigned = await fetch(new URL(`${PUBSUB_SUBSCRIBE_PATH}?topic=${POSTS}`, served.url));
    expect(unsigned.status).toBe(400);
    const post = await fetch(new URL(PUBSUB_SUBSCRIBE_PATH, served.url), { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    expect(await post.json()).toMatchObject({ error: 'bad_request' });
  });

  it('rejects answers that do not come from the expected peer', async () => {
    await postOnB('x');
    const client = createPubSubClient({ identity: a, community, node: served.url, peer: mallory.nodeId });
    const refusal = await next(client.subscribe(POSTS, { cursor: 0 })[Symbol.asyncIterator]()).catch(
      (e) => e,
    );
    expect(refusal).toBeInstanceOf(InvalidSignatureError);
  });

  it('refuses an answer in which a key repeats (the signed event would read otherwise elsewhere)', async () => {
    const doubled: typeof fetch = async (input, init) => {
      const text = await (await fetch(input, init)).text();
      return new Response(text.replace('"title":', '"title":"FREE MONEY","title":'), { status: 200 });
    };
    const client = createPubSubClient({ identity: a, community, node: served.url, fetch: doubled });
    await postOnB('Wasser');
    const refusal = await next(client.subscribe(POSTS, { cursor: 0 })[Symbol.asyncIterator]()).catch(
      (error: unknown) => error,
    );
    expect(refusal).toMatchObject({ code: 'pubsub_protocol' });
    expect((refusal as Error).message).toMatch(/duplicate key "title" at \$\.items\[0\]\..*title/);
  });

  it('resumes from its cursor with backoff after network failures', async () => {
    const delays: number[] = [];
    const attempts: number[] = [];
    let failures = 2;
    const flaky: typeof fetch = (input, init) => {
      if (failures > 0) {
        failures -= 1;
        return Promise.reject(new TypeError('connection refused'));
      }
      return fetch(input, init);
    };
    const client = createPubSubClient({
      identity: a,
      community,
      node: served.url,
      fetch: flaky,
      retry: {
        backoff: (attempt) => 100 * 2 ** attempt,
        sleep: async (ms) => {
          delays.push(ms);
        },
        onRetry: (_error, attempt) => attempts.push(attempt),
      },
    });
    await postOnB('nach dem Ausfall');
    const controller = new AbortController();
    const iterator = client
      .subscribe(POSTS, { cursor: 0, signal: controller.signal })
      [Symbol.asyncIterator]();
    expect(titleOf(await next(iterator))).toBe('nach dem Ausfall');
    expect(delays).toEqual([100, 200]);
    expect(attempts).toEqual([0, 1]);
    controller.abort();
  });

  it('answers a bad query with bad_request', async () => {
    const parameters = { topic: POSTS, cursor: '-1' };
    const url = new URL(PUBSUB_SUBSCRIBE_PATH, served.url);
    url.search = new URLSearchParams(parameters).toString();
    const headers = signedRequestHeaders(
      { identity: a, community, now: Date.now },
      PUBSUB_ROUTES.subscribe,
      parameters,
    );
    const response = await fetch(url, { headers });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: 'bad_request',
      message: expect.stringContaining('cursor'),
    });
  });

  it('lowers wait_ms to maxWaitMs', async () => {
    const handler = createPubSubHandler({
      identity: b,
      hub,
      trust: staticTrust({ [a.nodeId]: 'member' }),
      maxWaitMs: 0,
    });
    const parameters = { topic: POSTS, wait_ms: '600000' };
    const url = new URL(PUBSUB_SUBSCRIBE_PATH, 'http://node.test');
    url.search = new URLSearchParams(parameters).toString();
    const headers = signedRequestHeaders(
      { identity: a, community, now: Date.now },
      PUBSUB_ROUTES.subscribe,
      parameters,
    );
    const response = await handler(new Request(url, { headers }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ items: [], cursor: 0, gap: false });
  });
});
