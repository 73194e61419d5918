import { afterAll, describe, expect, it } from 'vitest';
import pubsubTopicsFixture from '../../../fixtures/hearthnet/pubsub-topics.json' with { type: 'json' };
import { runSuite } from '../../run-suite.js';
import { registerSuite } from '../../vitest/index.js';
import { agentwirePubSub } from './agentwire-pubsub.js';
import { type PubSubImplementation, pubsubSuite } from './pubsub.js';

async function failedCases(implementation: PubSubImplementation): Promise<string[]> {
  const report = await runSuite(pubsubSuite(implementation));
  expect(report.errors).toEqual([]);
  return report.results
    .filter((r) => r.status === 'failed')
    .map((r) => r.id.replace('hearthnet.pubsub.', ''));
}

describe('fixture hearthnet/pubsub-topics.json', () => {
  it('covers every topic, every event type, and valid and invalid payloads', () => {
    const of = (operation: string) => pubsubTopicsFixture.cases.filter((c) => c.operation === operation);
    expect(of('resolve_topic').length).toBeGreaterThanOrEqual(10);
    expect(of('event_topic')).toHaveLength(22);
    const payloads = of('validate_payload') as { expected?: unknown; error?: unknown }[];
    expect(payloads.some((c) => c.expected === 'valid')).toBe(true);
    expect(payloads.some((c) => c.error !== undefined)).toBe(true);
  });
});

describe('pubsubSuite', () => {
  it('passes every case against @agentwire/hearthnet/pubsub', async () => {
    const report = await runSuite(pubsubSuite(agentwirePubSub));
    expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
    const topics = pubsubTopicsFixture.cases.filter((c) => c.operation === 'resolve_topic').length;
    // One case per fixture entry, and a wire case per topic name.
    expect(report.counts.passed).toBe(pubsubTopicsFixture.cases.length + topics);
  });

  it('checks local-only topics as refused on the wire and wire topics as allowed', () => {
    const cases = pubsubSuite(agentwirePubSub).cases;
    expect(cases.find((c) => c.id === 'hearthnet.pubsub.topic-emergency-mode-changed.wire')?.title).toContain(
      'local-only',
    );
    expect(cases.find((c) => c.id === 'hearthnet.pubsub.topic-chat-pattern.wire')?.requires).toBe(
      'wire-topic',
    );
  });

  it('skips the wire, event and payload cases for a catalogue-only implementation', async () => {
    const report = await runSuite(
      pubsubSuite({ resolveTopic: agentwirePubSub.resolveTopic, errorCode: agentwirePubSub.errorCode }),
    );
    expect(report.ok).toBe(true);
    expect(report.counts.passed).toBe(
      pubsubTopicsFixture.cases.filter((c) => c.operation === 'resolve_topic').length,
    );
  });

  it('fails an implementation that serves local-only topics on the wire', async () => {
    const failed = await failedCases({ ...agentwirePubSub, checkWireTopic: () => undefined });
    expect(failed.sort()).toEqual(
      [
        'topic-emergency-mode-changed.wire',
        'topic-capability-registered.wire',
        'topic-capability-deregistered.wire',
        'topic-unknown-market-prefix.wire',
        'topic-bare-pattern.wire',
        'topic-chat-short-id.wire',
        'topic-chat-no-recipient.wire',
        'topic-empty.wire',
        'topic-case.wire',
        'topic-chat-lookalike-prefix.wire',
      ].sort(),
    );
  });

  it('fails an implementation that publishes market.post.updated and skips the recipient check', async () => {
    const failed = await failedCases({
      ...agentwirePubSub,
      topicForEvent: async (event) => {
        const type = (event as { event_type: string }).event_type;
        if (type === 'market.post.updated') return { topic: 'marketplace.post.created', payload: event };
        return agentwirePubSub.topicForEvent?.(event);
      },
      validatePayload: (topic, payload) =>
        agentwirePubSub.validatePayload?.(
          topic.startsWith('chat.message.')
            ? 'chat.message.ed25519:7UkoxijRwsbq6QM4kFmVYSlZJzpcY_k2NsFGFKyHN9E'
            : topic,
          payload,
        ),
    });
    expect(failed.sort()).toEqual(['event-market-post-updated', 'payload-chat-to-other']);
  });

  it('fails a mapping whose payload its own topic refuses', async () => {
    // A validator that wants community.member.added events on community.member.added, while the
    // mapping (rightly) publishes community.member.joined events there.
    const failed = await failedCases({
      ...agentwirePubSub,
      validatePayload: (topic, payload) => {
        const type = (payload as { event_type?: unknown } | null)?.event_type;
        if (topic === 'community.member.added' && type !== topic)
          throw Object.assign(new Error(`expected ${topic} events`), { code: 'invalid_topic_payload' });
        return agentwirePubSub.validatePayload?.(topic, payload);
      },
    });
    expect(failed).toContain('event-community-member-joined');
    expect(failed.filter((id) => id.startsWith('event-'))).toEqual(['event-community-member-joined']);
  });

  it('fails a descriptor check that knows only the stable, member-trust, non-streaming capability', async () => {
    const failed = await failedCases({
      ...agentwirePubSub,
      validatePayload: (topic, payload) => {
        const descriptor = payload as {
          stability?: unknown;
          trust?: { condition?: unknown };
          streaming?: unknown;
        };
        if (
          topic === 'capability.registered' &&
          (descriptor.stability !== 'stable' ||
            descriptor.streaming !== 'none' ||
            descriptor.trust?.condition !== undefined)
        )
          throw Object.assign(new Error('unsupported descriptor'), { code: 'invalid_topic_payload' });
        return agentwirePubSub.validatePayload?.(topic, payload);
      },
    });
    expect(failed).toEqual([
      'payload-registered-beta-server',
      'payload-registered-unstable-bidirectional',
      'payload-registered-can-invite',
      'payload-registered-co-signers',
    ]);
  });
});

describe('pubsubSuite through registerSuite', () => {
  registerSuite(pubsubSuite(agentwirePubSub), { describe, it, afterAll });
});
