// Concurrent long polls (issue #17): a peer opening many `GET /pubsub/v1/subscribe` waits holds at
// most `maxSubscriptionsPerCaller` of them; one more is refused with 429 `capacity_exceeded`, and the
// waits of requests that close are freed. Over real loopback HTTP.
import { afterEach, describe, expect, it } from 'vitest';
import { keyPairFromSeed } from '../crypto/key-pair.js';
import { createEvent } from '../events/event.js';
import { sampleData } from '../events/event-samples.test-support.js';
import { type ServedBusHandler, serveBusHandler } from '../node-http.js';
import { staticTrust } from '../wire/index.js';
import {
  createPubSubHandler,
  PUBSUB_ROUTES,
  PUBSUB_SUBSCRIBE_PATH,
  type PubSubHandlerOptions,
  TopicHub,
} from './index.js';
import { signedRequestHeaders } from './subscribe-protocol.js';

const a = keyPairFromSeed(new Uint8Array(32).fill(51));
const b = keyPairFromSeed(new Uint8Array(32).fill(52));
const c = keyPairFromSeed(new Uint8Array(32).fill(53));
const community = b.nodeId;
const POSTS = 'marketplace.post.created';
const trust = staticTrust({ [a.nodeId]: 'member', [c.nodeId]: 'member' });

let hub: TopicHub;
let served: ServedBusHandler | undefined;

async function start(options: Partial<PubSubHandlerOptions>) {
  hub = new TopicHub();
  served = await serveBusHandler(createPubSubHandler({ identity: b, hub, trust, community, ...options }));
}

afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** A signed long poll of `identity` on the posts topic, waiting up to `waitMs`; abort it to close the request. */
function longPoll(identity: typeof a, waitMs: number) {
  const parameters = { topic: POSTS, wait_ms: String(waitMs) };
  const headers = signedRequestHeaders(
    { identity, community, now: Date.now },
    PUBSUB_ROUTES.subscribe,
    parameters,
  );
  const controller = new AbortController();
  const url = `${served?.url}${PUBSUB_SUBSCRIBE_PATH}?${new URLSearchParams(parameters)}`;
  const response = fetch(url, { headers, signal: controller.signal }).then(async (answer) => ({
    status: answer.status,
    body: (await answer.json()) as Record<string, unknown>,
  }));
  response.catch(() => undefined);
  return { response, close: () => controller.abort() };
}

/** The status of a poll that does not wait (200 when a slot was free). */
const statusOfQuickPoll = async (identity: typeof a) => (await longPoll(identity, 0).response).status;

describe('concurrent long polls', () => {
  it('refuses the caller’s N+1th waiting poll with 429 capacity_exceeded; closed polls free their slots and waiters', async () => {
    await start({ maxSubscriptionsPerCaller: 3 });
    const waiting = [longPoll(a, 60_000), longPoll(a, 60_000), longPoll(a, 60_000)];
    await expect.poll(() => statusOfQuickPoll(a), { timeout: 3000 }).toBe(429);
    const refused = await longPoll(a, 60_000).response;
    expect(refused).toMatchObject({
      status: 429,
      body: { error: 'capacity_exceeded', retry_after_ms: 1000 },
    });
    // Another caller still has its own slots.
    expect(await statusOfQuickPoll(c)).toBe(200);
    expect(hub.waiting).toBe(3);

    for (const poll of waiting) poll.close();
    await expect.poll(() => hub.waiting).toBe(0);
    await expect.poll(() => statusOfQuickPoll(a)).toBe(200);
    // A new wait is served as before.
    const fresh = longPoll(a, 60_000);
    await expect.poll(() => hub.waiting).toBe(1);
    const post = createEvent(
      {
        community_id: community,
        event_type: 'market.post.created',
        data: sampleData['market.post.created'],
        lamport: 1,
      },
      b,
    );
    hub.publish(POSTS, post);
    expect(await fresh.response).toMatchObject({ status: 200, body: { items: [{ topic: POSTS }] } });
    expect(hub.waiting).toBe(0);
  });

  it('refuses any caller past maxSubscriptions waits in all', async () => {
    await start({ maxSubscriptions: 2 });
    const waiting = [longPoll(a, 60_000), longPoll(c, 60_000)];
    await expect.poll(() => statusOfQuickPoll(a), { timeout: 3000 }).toBe(429);
    expect((await longPoll(c, 0).response).body).toMatchObject({ error: 'capacity_exceeded' });
    waiting[0]?.close();
    await expect.poll(() => statusOfQuickPoll(c)).toBe(200);
    waiting[1]?.close();
  });

  it.each([
    ['maxSubscriptionsPerCaller', 0],
    ['maxSubscriptions', 1.5],
  ])('refuses %s %s', (name, value) => {
    expect(() =>
      createPubSubHandler({ identity: b, hub: new TopicHub(), trust, community, [name]: value }),
    ).toThrow(expect.objectContaining({ code: 'invalid_pubsub_options' }));
  });
});
