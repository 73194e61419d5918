import { z } from 'zod';
import { formatJsonPath } from '../canonical-json/strict-json.js';
import { parseCapabilityName, parseCapabilityVersion } from '../capabilities/capability-name.js';
import { parseNodeId } from '../crypto/key-pair.js';
import { HearthNetLocalError } from '../errors.js';
import { type EventType, type SignedEvent, validateEvent } from '../events/event.js';
import { jsonObjectSchema, signedNodeManifestSchema, timestampSchema } from '../manifests/node-manifest.js';
import { localOnlyTopic } from './subscribe-protocol.js';

/**
 * What a topic carries (contract §8 "Payload"): a signed event envelope of §7.1, a signed node
 * manifest of §6.1, a capability descriptor, a capability's `{name, version}`, or the emergency-mode
 * state `{online, since}`.
 */
export type TopicPayloadKind =
  | 'event_envelope'
  | 'node_manifest'
  | 'capability_descriptor'
  | 'capability_ref'
  | 'connectivity';

const capabilityNameSchema = z.string().refine(succeeds(parseCapabilityName), {
  message: 'expected a capability name such as llm.chat',
});
const capabilityVersionSchema = z.string().refine(succeeds(parseCapabilityVersion), {
  message: 'expected a capability version major.minor',
});

/** `{name, version}` of a capability (the `capability.deregistered` payload). */
export const capabilityRefPayloadSchema = z.strictObject({
  name: capabilityNameSchema,
  version: capabilityVersionSchema,
});

/** `{online, since}` (the `emergency.mode.changed` payload). */
export const connectivityPayloadSchema = z.strictObject({ online: z.boolean(), since: timestampSchema });

/** A `CapabilityDescriptor` as data (the `capability.registered` payload); the three schemas stay opaque JSON objects. */
export const capabilityDescriptorPayloadSchema = z.strictObject({
  name: capabilityNameSchema,
  version: capabilityVersionSchema,
  stability: z.enum(['stable', 'beta', 'unstable']),
  trust: z.strictObject({
    level: z.enum(['member', 'trusted']),
    condition: z.enum(['own_resource', 'self_only', 'can_invite', 'three_trusted_co_signers']).optional(),
  }),
  idempotency: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('none') }),
    z.strictObject({ kind: z.literal('idempotent') }),
    z.strictObject({ kind: z.literal('by_key'), key: z.string().min(1) }),
  ]),
  streaming: z.enum(['none', 'server', 'bidirectional']),
  requestSchema: jsonObjectSchema,
  responseSchema: jsonObjectSchema.nullable(),
  streamSchema: jsonObjectSchema.nullable(),
});

/**
 * A signed event envelope (contract §7.1) whose `event_type` is one of `types`: its shape and `data`
 * are checked as `validateEvent` checks them (the signature is not: see `verifyEvent`).
 */
export function eventEnvelopePayloadSchema(types: readonly EventType[]): z.ZodType<SignedEvent> {
  return z.unknown().transform((value, context) => {
    const verdict = validateEvent(value);
    if (!verdict.valid) {
      context.addIssue({ code: 'custom', message: `${verdict.message} (at ${verdict.path})` });
      return z.NEVER;
    }
    if (!types.includes(verdict.event.event_type)) {
      context.addIssue({
        code: 'custom',
        path: ['event_type'],
        message: `expected an event of type ${types.join(' or ')}, got ${verdict.event.event_type}`,
      });
      return z.NEVER;
    }
    return verdict.event;
  });
}

/** The validator of each payload kind but `event_envelope` (whose validator depends on the topic's event types). */
export const payloadSchemas = {
  node_manifest: signedNodeManifestSchema,
  capability_descriptor: capabilityDescriptorPayloadSchema,
  capability_ref: capabilityRefPayloadSchema,
  connectivity: connectivityPayloadSchema,
} as const;

/**
 * Parses `payload` with `schema`; throws {@link HearthNetLocalError} `invalid_topic_payload` with the first
 * issue's JSON path otherwise.
 */
export function parseTopicPayload<T>(topic: string, schema: z.ZodType<T>, payload: unknown): T {
  const parsed = schema.safeParse(payload);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = formatJsonPath(
    (issue?.path ?? []).filter((segment): segment is string | number => typeof segment !== 'symbol'),
  );
  throw new HearthNetLocalError(
    'invalid_topic_payload',
    `${topic}: ${path}: ${issue?.message ?? 'invalid payload'}`,
    {
      path,
      details: { topic },
    },
  );
}

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

/**
 * The event-log types published on a topic, and the topic each goes to. Where contract §8 leaves the
 * mapping open, this SDK decides:
 * - `community.member.added` carries `community.member.joined`: a member is added when the invitee
 *   joins; `community.member.invited` is a pending offer and is not published;
 * - `chat.message.sent` goes to `chat.message.<data.recipient>`; `chat.message.delivered`/`read`
 *   name no sender in their `data` and have no topic (they reach the sender through sync);
 * - `node.manifest.updated` publishes the manifest (`data.manifest`), not the envelope, because §8
 *   gives that topic the payload "manifest";
 * - `market.post.updated`, promotions, demotions, policy, file, RAG, `federation.peer.removed` and
 *   the reference's extra types have no topic.
 */
export const EVENT_TOPICS: { readonly [T in EventType]?: string } = Object.freeze({
  'community.member.joined': 'community.member.added',
  'community.member.revoked': 'community.member.revoked',
  'node.manifest.updated': 'node.manifest.updated',
  'market.post.created': 'marketplace.post.created',
  'market.post.expired': 'marketplace.post.expired',
  'chat.message.sent': 'chat.message.<recipient>',
  'federation.peer.added': 'federation.peer.added',
});

/** What one event becomes on the pub-sub side: the concrete topic and the payload. */
export interface TopicPublication {
  readonly topic: string;
  readonly payload: unknown;
}

/**
 * The topic and payload an appended event is published with (see `EVENT_TOPICS`), or
 * `undefined` for an event type without a topic.
 *
 * @throws {HearthNetLocalError} `unknown_topic` for a `chat.message.sent` whose recipient is not a full node
 *   id (an event the store's validation would have refused).
 * @example
 * topicForEvent(chatEvent); // { topic: 'chat.message.ed25519:…', payload: chatEvent }
 */
export function topicForEvent(event: SignedEvent): TopicPublication | undefined {
  switch (event.event_type) {
    case 'chat.message.sent':
      return { topic: chatTopic(event.data.recipient), payload: event };
    case 'node.manifest.updated':
      return { topic: 'node.manifest.updated', payload: event.data.manifest };
    default: {
      const topic = EVENT_TOPICS[event.event_type];
      return topic === undefined ? undefined : { topic, payload: event };
    }
  }
}

function succeeds(parse: (text: string) => unknown): (text: string) => boolean {
  return (text) => {
    try {
      parse(text);
      return true;
    } catch {
      return false;
    }
  };
}
