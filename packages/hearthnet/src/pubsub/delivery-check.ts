import { HearthNetLocalError } from '../errors.js';
import { verifyEvent } from '../events/verify-event.js';
import { type ResolvedTopic, validateTopicPayload } from './topics.js';

/**
 * Checks a payload a node delivered on `topic`: it must match the topic (`validateTopicPayload`)
 * and, when `verifyEvents` is set, an event envelope's signature must verify under its author
 * (`verifyEvent`), so a relaying node cannot forge or alter events.
 *
 * @throws {HearthNetLocalError} `pubsub_protocol` naming what is wrong.
 */
export function checkDeliveredPayload(topic: ResolvedTopic, payload: unknown, verifyEvents: boolean): void {
  try {
    validateTopicPayload(topic, payload);
  } catch (error) {
    if (error instanceof HearthNetLocalError && error.code === 'invalid_topic_payload') {
      throw new HearthNetLocalError(
        'pubsub_protocol',
        `the node delivered an invalid payload: ${error.message}`,
        {
          cause: error,
        },
      );
    }
    throw error;
  }
  if (verifyEvents && topic.definition.payload === 'event_envelope') {
    const verdict = verifyEvent(payload);
    if (!verdict.valid) {
      throw new HearthNetLocalError(
        'pubsub_protocol',
        `the node delivered an event on ${topic.topic} that fails verification: ${verdict.message}`,
      );
    }
  }
}
