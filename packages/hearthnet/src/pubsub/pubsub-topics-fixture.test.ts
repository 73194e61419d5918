// Runs packages/conformance/fixtures/hearthnet/pubsub-topics.json: topic names, the event → topic
// mapping and payload samples.
import { describe, expect, it } from 'vitest';
import { loadHearthnetFixture } from '../crypto/fixture-test-support.js';
import type { SignedEvent } from '../events/event.js';
import { TopicHub } from './topic-hub.js';
import { resolveTopic, topicForEvent, validateTopicPayload } from './topics.js';

interface ResolveCase {
  readonly id: string;
  readonly operation: 'resolve_topic';
  readonly topic: string;
  readonly expected?: {
    readonly scope: string;
    readonly payload: string;
    readonly producer: string;
    readonly audience: string;
    readonly recipient?: string;
  };
  readonly error?: 'unknown_topic';
}

interface EventTopicCase {
  readonly id: string;
  readonly operation: 'event_topic';
  readonly event: SignedEvent;
  readonly expected: { readonly topic: string; readonly payload: 'event' | 'data.manifest' } | null;
}

interface PayloadCase {
  readonly id: string;
  readonly operation: 'validate_payload';
  readonly topic: string;
  readonly payload: unknown;
  readonly expected?: 'valid';
  readonly error?: 'invalid_topic_payload';
}

type Case = ResolveCase | EventTopicCase | PayloadCase;

const fixture = loadHearthnetFixture<Case>('pubsub-topics.json');
const byOperation = <O extends Case['operation']>(operation: O) =>
  fixture.cases.filter((c): c is Extract<Case, { operation: O }> => c.operation === operation);

describe('pubsub-topics.json', () => {
  it('covers every topic, every event type and valid and invalid payloads', () => {
    expect(byOperation('resolve_topic').length).toBeGreaterThanOrEqual(10);
    expect(byOperation('event_topic')).toHaveLength(22);
    const payloads = byOperation('validate_payload');
    expect(payloads.some((c) => c.expected === 'valid')).toBe(true);
    expect(payloads.some((c) => c.error !== undefined)).toBe(true);
  });

  it.each(byOperation('resolve_topic'))('$id', (c) => {
    if (c.error !== undefined) {
      expect(() => resolveTopic(c.topic)).toThrow(expect.objectContaining({ code: 'unknown_topic' }));
      return;
    }
    const resolved = resolveTopic(c.topic);
    const { scope, payload, producer, audience } = resolved.definition;
    expect({
      scope,
      payload,
      producer,
      audience,
      ...(resolved.recipient === undefined ? {} : { recipient: resolved.recipient }),
    }).toEqual(c.expected);
  });

  it.each(byOperation('event_topic'))('$id', (c) => {
    const publication = topicForEvent(c.event);
    if (c.expected === null) {
      expect(publication).toBeUndefined();
      return;
    }
    expect(publication?.topic).toBe(c.expected.topic);
    const payload =
      c.expected.payload === 'event' ? c.event : (c.event.data as { manifest: unknown }).manifest;
    expect(publication?.payload).toEqual(payload);
    // What the mapping produces is accepted by the topic.
    expect(new TopicHub().publish(c.expected.topic, publication?.payload)?.seq).toBe(1);
  });

  it.each(byOperation('validate_payload'))('$id', (c) => {
    if (c.error !== undefined) {
      expect(() => validateTopicPayload(c.topic, c.payload)).toThrow(
        expect.objectContaining({ code: 'invalid_topic_payload' }),
      );
    } else {
      expect(() => validateTopicPayload(c.topic, c.payload)).not.toThrow();
    }
  });
});
