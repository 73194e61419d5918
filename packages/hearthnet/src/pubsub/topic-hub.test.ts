import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEvent } from '../events/event.js';
import { alice, bob, communityId, sampleData } from '../events/event-samples.test-support.js';
import { TopicHub } from './topic-hub.js';
import { chatTopic } from './topics.js';

const post = (title: string) =>
  createEvent(
    {
      community_id: communityId,
      event_type: 'market.post.created',
      data: { ...sampleData['market.post.created'], title },
      lamport: 1,
    },
    alice,
  );
const offline = { online: false, since: '2026-05-26T08:14:22Z' };
const POSTS = 'marketplace.post.created';
const MODE = 'emergency.mode.changed';

describe('TopicHub', () => {
  it('assigns increasing seqs across topics and reads a topic after a cursor', async () => {
    const hub = new TopicHub();
    const first = hub.publish(POSTS, post('a'));
    const mode = hub.publish(MODE, offline);
    const second = hub.publish(POSTS, post('b'));
    expect([first?.seq, mode?.seq, second?.seq]).toEqual([1, 2, 3]);
    expect(hub.lastSeq).toBe(3);
    const all = await hub.read(POSTS, 0);
    expect(all.items.map((item) => item.seq)).toEqual([1, 3]);
    expect(all).toMatchObject({ cursor: 3, gap: false });
    const later = await hub.read(POSTS, 1);
    expect(later.items.map((item) => item.seq)).toEqual([3]);
    expect(await hub.read(MODE, 2)).toEqual({ items: [], cursor: 3, gap: false });
  });

  it('cuts an answer at limit and answers the last item as cursor', async () => {
    const hub = new TopicHub();
    for (const title of ['a', 'b', 'c']) hub.publish(POSTS, post(title));
    const page = await hub.read(POSTS, 0, { limit: 2 });
    expect(page.items.map((item) => item.seq)).toEqual([1, 2]);
    expect(page.cursor).toBe(2);
    expect((await hub.read(POSTS, page.cursor)).items.map((item) => item.seq)).toEqual([3]);
  });

  it('reports a gap with the oldest retained cursor when the cursor fell out of retention', async () => {
    const hub = new TopicHub({ retention: 2 });
    for (const title of ['a', 'b', 'c', 'd']) hub.publish(POSTS, post(title));
    expect(await hub.read(POSTS, 1)).toEqual({ items: [], cursor: 2, gap: true });
    expect(hub.oldestCursor(POSTS)).toBe(2);
    expect((await hub.read(POSTS, 2)).items.map((item) => item.seq)).toEqual([3, 4]);
  });

  it('reports a gap for a cursor ahead of the hub (a cursor from before a restart)', async () => {
    const hub = new TopicHub();
    hub.publish(POSTS, post('a'));
    expect(await hub.read(POSTS, 40)).toEqual({ items: [], cursor: 0, gap: true });
  });

  it('waits for the next item of the topic (long poll) and reads from now without a cursor', async () => {
    const hub = new TopicHub();
    hub.publish(POSTS, post('old'));
    const pending = hub.read(POSTS, undefined, { waitMs: 60_000 });
    hub.publish(MODE, offline);
    const item = hub.publish(POSTS, post('new'));
    const answer = await pending;
    expect(answer.items).toEqual([item]);
    expect(answer.cursor).toBe(3);
  });

  it('answers an empty read with the hub position when the wait times out', async () => {
    const hub = new TopicHub();
    hub.publish(MODE, offline);
    expect(await hub.read(POSTS, 0, { waitMs: 1 })).toEqual({ items: [], cursor: 1, gap: false });
  });

  it('rejects a waiting read with the abort reason', async () => {
    const hub = new TopicHub();
    const controller = new AbortController();
    const pending = hub.read(POSTS, 0, { waitMs: 60_000, signal: controller.signal });
    controller.abort(new Error('gone'));
    await expect(pending).rejects.toThrow('gone');
  });

  it('publishes a dedupe key once', () => {
    const hub = new TopicHub();
    const event = post('a');
    expect(hub.publish(POSTS, event, { dedupeKey: event.event_id })?.seq).toBe(1);
    expect(hub.publish(POSTS, event, { dedupeKey: event.event_id })).toBeUndefined();
    expect(hub.lastSeq).toBe(1);
  });

  it('validates topics and payloads', async () => {
    const hub = new TopicHub();
    expect(() => hub.publish('market.post.created', post('a'))).toThrow(
      expect.objectContaining({ code: 'unknown_topic' }),
    );
    expect(() => hub.publish(POSTS, { title: 'x' })).toThrow(
      expect.objectContaining({ code: 'invalid_topic_payload' }),
    );
    expect(() => hub.publish(MODE, { online: 'no', since: offline.since })).toThrow(
      expect.objectContaining({ code: 'invalid_topic_payload' }),
    );
    const toBob = createEvent(
      {
        community_id: communityId,
        event_type: 'chat.message.sent',
        data: sampleData['chat.message.sent'],
        lamport: 1,
      },
      alice,
    );
    expect(hub.publish(chatTopic(bob.nodeId), toBob)?.seq).toBe(1);
    expect(() => hub.publish(chatTopic(alice.nodeId), toBob)).toThrow(/data\.recipient/);
    await expect(hub.read(POSTS, -1)).rejects.toThrow(
      expect.objectContaining({ code: 'invalid_pubsub_options' }),
    );
    await expect(hub.read(POSTS, 0, { limit: 0 })).rejects.toThrow(
      expect.objectContaining({ code: 'invalid_pubsub_options' }),
    );
    expect(() => new TopicHub({ retention: 0 })).toThrow(
      expect.objectContaining({ code: 'invalid_pubsub_options' }),
    );
  });

  it('refuses a local-only topic published as coming from a peer', () => {
    const hub = new TopicHub();
    expect(() => hub.publish(MODE, offline, { origin: 'peer' })).toThrow(
      expect.objectContaining({ code: 'local_only_topic' }),
    );
    expect(hub.publish(MODE, offline, { origin: 'local' })?.seq).toBe(1);
    expect(hub.publish(POSTS, post('a'), { origin: 'peer' })?.seq).toBe(2);
  });

  it('never loses an item silently: reading from any cursor yields what is newer, or a gap', async () => {
    const topics = [POSTS, MODE] as const;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.constantFrom(0, 1), { maxLength: 30 }),
        fc.integer({ min: 0, max: 35 }),
        fc.integer({ min: 1, max: 5 }),
        async (retention, publishes, start, limit) => {
          const hub = new TopicHub({ retention });
          const published: number[][] = [[], []];
          for (const which of publishes) {
            const item = hub.publish(topics[which] as string, which === 0 ? post('p') : offline);
            published[which]?.push(item?.seq as number);
          }
          for (const [which, topic] of topics.entries()) {
            let cursor = Math.min(start, hub.lastSeq);
            const seen: number[] = [];
            let gapped = false;
            for (let round = 0; round < 40; round++) {
              const answer = await hub.read(topic, cursor, { limit });
              if (answer.gap) {
                gapped = true;
                expect(cursor).toBeLessThan(hub.oldestCursor(topic));
                expect(answer.cursor).toBe(hub.oldestCursor(topic));
              }
              seen.push(...answer.items.map((item) => item.seq));
              if (answer.cursor === cursor && answer.items.length === 0 && !answer.gap) break;
              cursor = answer.cursor;
            }
            const expected = (published[which] ?? []).filter((seq) => seq > Math.min(start, hub.lastSeq));
            if (gapped) {
              expect(expected.slice(-seen.length)).toEqual(seen);
              expect(seen.length).toBeLessThan(expected.length);
            } else expect(seen).toEqual(expected);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
