import { HearthNetLocalError } from '../errors.js';

/**
 * The `local_only_topic` error: a local-only topic (`emergency.mode.changed`, `capability.registered`,
 * `capability.deregistered`: contract §8 "never on the wire") subscribed to or published over the wire,
 * or published into a hub as coming from a peer.
 */
export function localOnlyTopic(
  topic: string,
  action: 'subscribe to' | 'publish',
  options?: ErrorOptions,
): HearthNetLocalError {
  return new HearthNetLocalError(
    'local_only_topic',
    `${topic} is a local-only topic (contract §8): it cannot be ${action === 'publish' ? 'published' : 'subscribed to'} over the wire`,
    { ...options, details: { topic } },
  );
}
