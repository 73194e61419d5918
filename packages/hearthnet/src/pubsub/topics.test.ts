import { describe, expect, it } from 'vitest';
import { createEvent } from '../events/event.js';
import { alice, bob, communityId, sampleData } from '../events/event-samples.test-support.js';
import { InMemoryEventStore } from '../events/event-store.js';
import { PublishingEventStore, publishFromEventLog, TopicHub } from './topic-hub.js';
import {
  chatTopic,
  EVENT_TOPICS,
  isLocalOnlyTopic,
  LOCAL_ONLY_TOPICS,
  resolveWireTopic,
  TOPIC_DEFINITIONS,
  validateTopicPayload,
} from './topics.js';

describe('topic catalogue', () => {
  it('holds the ten topics of contract §8, three of them local-only', () => {
    expect(TOPIC_DEFINITIONS.map((topic) => topic.name)).toEqual([
      'community.member.added',
      'community.member.revoked',
      'node.manifest.updated',
      'marketplace.post.created',
      'marketplace.post.expired',
      'chat.message.<recipient>',
      'emergency.mode.changed',
      'federation.peer.added',
      'capability.registered',
      'capability.deregistered',
    ]);
    expect(LOCAL_ONLY_TOPICS).toEqual([
      'emergency.mode.changed',
      'capability.registered',
      'capability.deregistered',
    ]);
    expect(isLocalOnlyTopic('capability.registered')).toBe(true);
    expect(isLocalOnlyTopic('marketplace.post.created')).toBe(false);
    expect(isLocalOnlyTopic(42)).toBe(false);
  });

  it('maps every event type with a topic onto a wire topic that carries it', () => {
    for (const [type, topic] of Object.entries(EVENT_TOPICS)) {
      const definition = TOPIC_DEFINITIONS.find((row) => row.name === topic);
      expect(definition?.scope).toBe('wire');
      expect(definition?.eventTypes).toContain(type);
    }
  });

  it('refuses local-only topics on the wire and malformed names with typed errors', () => {
    expect(() => resolveWireTopic('emergency.mode.changed', 'subscribe to')).toThrow(
      expect.objectContaining({ code: 'local_only_topic' }),
    );
    expect(() => resolveWireTopic('capability.deregistered', 'publish')).toThrow(/cannot be published/);
    expect(resolveWireTopic(chatTopic(bob.nodeId), 'subscribe to').recipient).toBe(bob.nodeId);
    expect(() => resolveWireTopic(undefined, 'subscribe to')).toThrow(
      expect.objectContaining({ code: 'unknown_topic' }),
    );
    expect(() => chatTopic('bob')).toThrow(expect.objectContaining({ code: 'unknown_topic' }));
  });

  it('names the offending field of an invalid payload', () => {
    const error = (() => {
      try {
        validateTopicPayload('capability.deregistered', { name: 'llm.chat', version: 1 });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toMatchObject({
      code: 'invalid_topic_payload',
      path: '$.version',
      details: { topic: 'capability.deregistered' },
    });
  });
});

describe('publishing the event log', () => {
  const post = () =>
    createEvent(
      {
        community_id: communityId,
        event_type: 'market.post.created',
        data: sampleData['market.post.created'],
        lamport: 1,
      },
      alice,
    );

  it('publishes each event once, whether made here or received, and skips types without a topic', async () => {
    const hub = new TopicHub();
    const store = new PublishingEventStore(new InMemoryEventStore(), hub);
    const received = post();
    await store.append(received);
    await store.append(received);
    const local = await store.appendLocal(communityId, (lamport) =>
      createEvent(
        {
          community_id: communityId,
          event_type: 'market.post.updated',
          data: sampleData['market.post.updated'],
          lamport,
        },
        alice,
      ),
    );
    expect(hub.lastSeq).toBe(1);
    expect((await hub.read('marketplace.post.created', 0)).items.map((item) => item.payload)).toEqual([
      received,
    ]);
    expect(publishFromEventLog(hub, received)).toBeUndefined();
    expect(await store.get(local.event_id)).toEqual(local);
    expect(await store.count()).toBe(2);
    expect(await store.clock(communityId)).toBe(local.lamport);
    expect(await store.head(communityId)).toBe(local.lamport);
    expect([...(await store.heads()).keys()]).toEqual([communityId]);
    expect(await store.list(communityId)).toHaveLength(2);
  });

  it('publishes a node manifest update as the manifest', () => {
    const hub = new TopicHub();
    const event = createEvent(
      {
        community_id: communityId,
        event_type: 'node.manifest.updated',
        data: sampleData['node.manifest.updated'],
        lamport: 3,
      },
      alice,
    );
    expect(publishFromEventLog(hub, event)?.payload).toEqual(sampleData['node.manifest.updated'].manifest);
  });
});
