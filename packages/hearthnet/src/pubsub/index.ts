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
export { createPubSubClient, type PubSubClientOptions } from './pubsub-client.js';
export { createPubSubHandler, type PubSubHandlerOptions } from './pubsub-handler.js';
export { PUBSUB_ROUTES, PUBSUB_SUBSCRIBE_PATH } from './subscribe-protocol.js';
export { PublishingEventStore, TopicHub, type TopicHubOptions } from './topic-hub.js';
export {
  resolveTopic,
  resolveWireTopic,
  TOPIC_DEFINITIONS,
  topicForEvent,
  validateTopicPayload,
} from './topics.js';
