import type { SignedEvent } from '@agentwire/hearthnet/events';
import {
  resolveTopic,
  resolveWireTopic,
  topicForEvent,
  validateTopicPayload,
} from '@agentwire/hearthnet/pubsub';
import type { PubSubImplementation } from './pubsub.js';

/** `pubsubSuite`'s view of `@agentwire/hearthnet/pubsub`: the topic catalogue, the event mapping and the payload validators. */
export const agentwirePubSub: PubSubImplementation = {
  resolveTopic: (topic) => {
    const { definition, recipient } = resolveTopic(topic);
    const { scope, payload, producer, audience } = definition;
    return { scope, payload, producer, audience, ...(recipient === undefined ? {} : { recipient }) };
  },
  checkWireTopic: (topic) => {
    resolveWireTopic(topic, 'subscribe to');
  },
  topicForEvent: (event) => topicForEvent(event as SignedEvent),
  validatePayload: (topic, payload) => {
    validateTopicPayload(topic, payload);
  },
  errorCode: (error) => {
    const code = (error as { code?: unknown } | null)?.code;
    return typeof code === 'string' ? code : undefined;
  },
};
