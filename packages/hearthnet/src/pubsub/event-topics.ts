import type { SignedEvent } from '../events/envelope.js';
import type { EventType } from '../events/event-types.js';
import { chatTopic } from './topics.js';

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
 * The topic and payload an appended event is published with (see {@link EVENT_TOPICS}), or
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
