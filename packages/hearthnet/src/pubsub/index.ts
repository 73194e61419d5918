/**
 * `@agentwire/hearthnet/pubsub` — the pub-sub topics of contract §8: the topic catalogue as data
 * (payload kinds and validators, producers, subscribers, local-only topics, the event-log mapping),
 * an in-memory {@link TopicHub} with cursors and bounded retention, an event store that publishes
 * what the log stores, and the long-poll transport `GET /pubsub/v1/subscribe` (handler and client)
 * on the signed wire. Runtime-neutral: the WebSocket transport is `@agentwire/hearthnet/pubsub-ws`.
 *
 * @example
 * ```ts
 * import { createPubSubClient, createPubSubHandler, PublishingEventStore, TopicHub } from '@agentwire/hearthnet/pubsub';
 *
 * // node B
 * const hub = new TopicHub();
 * const store = new PublishingEventStore(new InMemoryEventStore(), hub); // every stored event is published once
 * const served = await serveBusHandler(createPubSubHandler({ identity: b, hub, trust, community }));
 *
 * // node A
 * const client = createPubSubClient({ identity: a, community, node: served.url });
 * for await (const event of client.subscribe('marketplace.post.created', { signal })) console.log(event);
 * ```
 *
 * @packageDocumentation
 */
export {
  HearthNetLocalError,
  type HearthNetLocalErrorCode,
  type HearthNetLocalErrorDetails,
  type HearthNetLocalErrorOptions,
} from '../errors.js';
export {
  type BackoffPolicy,
  type CursorGap,
  createPubSubClient,
  type DeliveredItem,
  type ExponentialBackoffOptions,
  exponentialBackoff,
  isRetryableFailure,
  type PubSubClient,
  type PubSubClientOptions,
  type RetryOptions,
  type Sleep,
  type SubscribeOptions,
  type Subscription,
  type SubscriptionEvent,
} from './pubsub-client.js';
export {
  authoriseSubscriber,
  createPubSubHandler,
  DEFAULT_MAX_SUBSCRIPTIONS,
  DEFAULT_MAX_SUBSCRIPTIONS_PER_CALLER,
  type PubSubHandlerOptions,
} from './pubsub-handler.js';
export {
  DEFAULT_WAIT_MS,
  MAX_READ_LIMIT,
  MAX_WAIT_MS,
  PUBSUB_ROUTES,
  PUBSUB_SUBSCRIBE_PATH,
  type SignedParameters,
  type SignedRoute,
  topicReadSchema,
} from './subscribe-protocol.js';
export {
  DEFAULT_READ_LIMIT,
  DEFAULT_TOPIC_RETENTION,
  PublishingEventStore,
  type PublishOptions,
  publishFromEventLog,
  TopicHub,
  type TopicHubOptions,
  type TopicItem,
  type TopicRead,
  type TopicReadOptions,
} from './topic-hub.js';
export {
  type CapabilityRefPayload,
  type ConnectivityPayload,
  capabilityDescriptorPayloadSchema,
  capabilityRefPayloadSchema,
  chatTopic,
  connectivityPayloadSchema,
  EVENT_TOPICS,
  eventEnvelopePayloadSchema,
  isLocalOnlyTopic,
  LOCAL_ONLY_TOPICS,
  type ResolvedTopic,
  resolveTopic,
  resolveWireTopic,
  TOPIC_DEFINITIONS,
  TOPIC_PATTERN_PREFIX,
  type TopicAudience,
  type TopicDefinition,
  type TopicPayloadKind,
  type TopicProducer,
  type TopicPublication,
  type TopicScope,
  topicForEvent,
  validateTopicPayload,
} from './topics.js';
