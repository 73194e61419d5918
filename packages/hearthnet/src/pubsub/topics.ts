import type { z } from 'zod';
import { parseNodeId } from '../crypto/node-id.js';
import { HearthNetLocalError } from '../errors.js';
import type { EventType } from '../events/event-types.js';
import { localOnlyTopic } from './errors.js';
import {
  eventEnvelopePayloadSchema,
  parseTopicPayload,
  payloadSchemas,
  type TopicPayloadKind,
} from './topic-payloads.js';

/** `wire`: served to peers; `local_only`: for this node's own UI, never on the wire (contract §8). */
export type TopicScope = 'wire' | 'local_only';

/**
 * Who may produce a topic's items (contract §8 "Producer"). For event-envelope topics this is the
 * rule of the event type, already enforced by replay before the event reaches the log (and so the hub).
 */
export type TopicProducer =
  | 'any_member'
  | 'trusted'
  | 'author_or_trusted'
  | 'sender'
  | 'anchor'
  | 'each_node'
  | 'local_node'
  | 'local_bus';

/**
 * Who may subscribe (contract §8 "Subscriber"): `members` ("all": member trust or above), `recipient`
 * (only the node named in the topic), `anchors` ("all anchors"), `local_ui` (nobody over the wire).
 */
export type TopicAudience = 'members' | 'recipient' | 'anchors' | 'local_ui';

/** One row of the topic table of contract §8, as data. */
export interface TopicDefinition {
  /** The topic name, or for a pattern its template (`chat.message.<recipient>`). */
  readonly name: string;
  /** Whether {@link name} is a template: concrete topics append a full node id to {@link TOPIC_PATTERN_PREFIX}. */
  readonly pattern: boolean;
  readonly scope: TopicScope;
  readonly payload: TopicPayloadKind;
  readonly producer: TopicProducer;
  readonly audience: TopicAudience;
  /** The event-log types published on this topic (see `EVENT_TOPICS`); empty for non-event payloads. */
  readonly eventTypes: readonly EventType[];
  /** The payload validator. For the chat pattern it checks the envelope only; {@link validateTopicPayload} also matches the recipient. */
  readonly payloadSchema: z.ZodType;
}

/** The prefix of the one pattern topic: `chat.message.` + the recipient's full node id. */
export const TOPIC_PATTERN_PREFIX = 'chat.message.';

function definition(
  name: string,
  scope: TopicScope,
  payload: TopicPayloadKind,
  producer: TopicProducer,
  audience: TopicAudience,
  eventTypes: readonly EventType[] = [],
): TopicDefinition {
  return Object.freeze({
    name,
    pattern: name.endsWith('<recipient>'),
    scope,
    payload,
    producer,
    audience,
    eventTypes: Object.freeze([...eventTypes]),
    payloadSchema:
      payload === 'event_envelope' ? eventEnvelopePayloadSchema(eventTypes) : payloadSchemas[payload],
  });
}

/**
 * The ten topics of contract §8, in its order. `federation.peer.added` is reserved for Phase 2, as
 * its event type is (§7.2). The table names one `chat.message.<recipient>` pattern and no topic for
 * `market.post.updated`, `chat.message.delivered`/`read` or the other event types: those reach peers
 * through sync only.
 */
export const TOPIC_DEFINITIONS: readonly TopicDefinition[] = Object.freeze([
  definition('community.member.added', 'wire', 'event_envelope', 'any_member', 'members', [
    'community.member.joined',
  ]),
  definition('community.member.revoked', 'wire', 'event_envelope', 'trusted', 'members', [
    'community.member.revoked',
  ]),
  definition('node.manifest.updated', 'wire', 'node_manifest', 'each_node', 'members', [
    'node.manifest.updated',
  ]),
  definition('marketplace.post.created', 'wire', 'event_envelope', 'any_member', 'members', [
    'market.post.created',
  ]),
  definition('marketplace.post.expired', 'wire', 'event_envelope', 'author_or_trusted', 'members', [
    'market.post.expired',
  ]),
  definition(`${TOPIC_PATTERN_PREFIX}<recipient>`, 'wire', 'event_envelope', 'sender', 'recipient', [
    'chat.message.sent',
  ]),
  definition('emergency.mode.changed', 'local_only', 'connectivity', 'local_node', 'local_ui'),
  definition('federation.peer.added', 'wire', 'event_envelope', 'anchor', 'anchors', [
    'federation.peer.added',
  ]),
  definition('capability.registered', 'local_only', 'capability_descriptor', 'local_bus', 'local_ui'),
  definition('capability.deregistered', 'local_only', 'capability_ref', 'local_bus', 'local_ui'),
]);

/** The local-only topic names: never served, subscribed to or published over the wire. */
export const LOCAL_ONLY_TOPICS: readonly string[] = Object.freeze(
  TOPIC_DEFINITIONS.filter((topic) => topic.scope === 'local_only').map((topic) => topic.name),
);

const byName = new Map(
  TOPIC_DEFINITIONS.filter((topic) => !topic.pattern).map((topic) => [topic.name, topic]),
);
const chatDefinition = TOPIC_DEFINITIONS.find((topic) => topic.pattern) as TopicDefinition;

/** A concrete topic name with its catalogue row, and for a chat topic the recipient's node id. */
export interface ResolvedTopic {
  readonly topic: string;
  readonly definition: TopicDefinition;
  /** The node id of `chat.message.<recipient>`; `undefined` for the other topics. */
  readonly recipient?: string;
}

/**
 * The catalogue row of a concrete topic name.
 *
 * @throws {HearthNetLocalError} `unknown_topic` for a name outside the catalogue, the bare template, or a
 *   chat topic whose suffix is not a full node id.
 * @example
 * resolveTopic('marketplace.post.created').definition.audience; // 'members'
 * resolveTopic(chatTopic(bob.nodeId)).recipient; // bob.nodeId
 */
export function resolveTopic(topic: unknown): ResolvedTopic {
  if (typeof topic !== 'string')
    throw new HearthNetLocalError('unknown_topic', 'a topic must be a string', { details: { value: topic } });
  const fixed = byName.get(topic);
  if (fixed !== undefined) return { topic, definition: fixed };
  if (topic.startsWith(TOPIC_PATTERN_PREFIX)) {
    const recipient = topic.slice(TOPIC_PATTERN_PREFIX.length);
    try {
      parseNodeId(recipient);
    } catch (error) {
      throw new HearthNetLocalError(
        'unknown_topic',
        `${topic}: a chat topic is chat.message.<recipient full node id>`,
        { cause: error, details: { value: topic } },
      );
    }
    return { topic, definition: chatDefinition, recipient };
  }
  throw new HearthNetLocalError('unknown_topic', `${JSON.stringify(topic)} is not a topic of contract §8`, {
    details: { value: topic },
  });
}

/**
 * {@link resolveTopic} for a topic that is about to travel the wire.
 *
 * @throws {HearthNetLocalError} `unknown_topic`; `local_only_topic` for a local-only topic.
 */
export function resolveWireTopic(topic: unknown, action: 'subscribe to' | 'publish'): ResolvedTopic {
  const resolved = resolveTopic(topic);
  if (resolved.definition.scope === 'local_only') throw localOnlyTopic(resolved.topic, action);
  return resolved;
}

/** Whether `topic` names a local-only topic of the catalogue. */
export function isLocalOnlyTopic(topic: unknown): boolean {
  return typeof topic === 'string' && LOCAL_ONLY_TOPICS.includes(topic);
}

/**
 * The chat topic of a recipient: `chat.message.<recipient>`.
 *
 * @throws {HearthNetLocalError} `unknown_topic` when `recipient` is not a full node id.
 */
export function chatTopic(recipient: string): string {
  return resolveTopic(`${TOPIC_PATTERN_PREFIX}${recipient}`).topic;
}

/**
 * Checks a payload against its topic (contract §8 "Payload") and returns it parsed. A chat topic's
 * event must also be addressed to the topic's recipient (`data.recipient`).
 *
 * @throws {HearthNetLocalError} `unknown_topic`; `invalid_topic_payload` naming the first offending field.
 * @example
 * validateTopicPayload('emergency.mode.changed', { online: false, since: '2026-05-26T08:14:22Z' });
 */
export function validateTopicPayload(topic: string | ResolvedTopic, payload: unknown): unknown {
  const resolved = typeof topic === 'string' ? resolveTopic(topic) : topic;
  const value = parseTopicPayload(resolved.topic, resolved.definition.payloadSchema, payload);
  if (resolved.recipient !== undefined) {
    const recipient = (value as { readonly data: { readonly recipient?: unknown } }).data.recipient;
    if (recipient !== resolved.recipient) {
      throw new HearthNetLocalError(
        'invalid_topic_payload',
        `${resolved.topic}: $.data.recipient: the message is addressed to ${String(recipient)}, not to this topic's recipient`,
        { path: '$.data.recipient', details: { topic: resolved.topic } },
      );
    }
  }
  return value;
}
