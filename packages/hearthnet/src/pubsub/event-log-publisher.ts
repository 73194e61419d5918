import type { SignedEvent } from '../events/envelope.js';
import type { AppendResult, EventStore, LamportRange } from '../events/event-store.js';
import { topicForEvent } from './event-topics.js';
import type { TopicHub, TopicItem } from './topic-hub.js';

/**
 * Publishes an event of the community log on its topic (see `EVENT_TOPICS`), once per `event_id`:
 * the hub remembers the key `event:<event_id>`, so an event seen again (a sync duplicate) is skipped.
 *
 * @returns the published item; `undefined` when the event type has no topic or was published before.
 * @example
 * const result = await store.append(event);
 * if (result.status === 'appended') publishFromEventLog(hub, event);
 */
export function publishFromEventLog(hub: TopicHub, event: SignedEvent): TopicItem | undefined {
  const publication = topicForEvent(event);
  if (publication === undefined) return undefined;
  return hub.publish(publication.topic, publication.payload, { dedupeKey: `event:${event.event_id}` });
}

/**
 * An {@link EventStore} that publishes every event it stores, made here (`appendLocal`) or received
 * (`append`, which is what gossip sync calls), exactly once (see {@link publishFromEventLog}).
 * Reads go to the wrapped store unchanged.
 *
 * @example
 * const store = new PublishingEventStore(new InMemoryEventStore(), hub);
 * const sync = createSyncHandler({ store }); // events accepted by sync reach subscribers too
 */
export class PublishingEventStore implements EventStore {
  readonly #inner: EventStore;
  readonly #hub: TopicHub;

  constructor(inner: EventStore, hub: TopicHub) {
    this.#inner = inner;
    this.#hub = hub;
  }

  async append(event: SignedEvent): Promise<AppendResult> {
    const result = await this.#inner.append(event);
    if (result.status === 'appended') publishFromEventLog(this.#hub, event);
    return result;
  }

  async appendLocal<E extends SignedEvent>(communityId: string, create: (lamport: number) => E): Promise<E> {
    const event = await this.#inner.appendLocal(communityId, create);
    publishFromEventLog(this.#hub, event);
    return event;
  }

  get(eventId: string): Promise<SignedEvent | undefined> {
    return this.#inner.get(eventId);
  }

  list(communityId: string, range?: LamportRange): Promise<SignedEvent[]> {
    return this.#inner.list(communityId, range);
  }

  head(communityId: string): Promise<number | undefined> {
    return this.#inner.head(communityId);
  }

  heads(): Promise<ReadonlyMap<string, number>> {
    return this.#inner.heads();
  }

  clock(communityId: string): Promise<number> {
    return this.#inner.clock(communityId);
  }

  count(communityId?: string): Promise<number> {
    return this.#inner.count(communityId);
  }
}
