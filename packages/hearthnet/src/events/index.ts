/**
 * `@agentwire/hearthnet/events` — the community event log core (contract §7.1–§7.4): the signed
 * envelope with Crockford ULID ids, typed `data` for every event type, Lamport clocks, replay order
 * and the {@link EventStore} interface with an in-memory store.
 *
 * @example
 * ```ts
 * import { createEvent, InMemoryEventStore, verifyEvent } from '@agentwire/hearthnet/events';
 *
 * const store = new InMemoryEventStore();
 * const event = await store.appendLocal(communityId, (lamport) =>
 *   createEvent(
 *     { community_id: communityId, event_type: 'chat.message.sent', data: { client_id: 'c-1', recipient, body: 'hi' }, lamport },
 *     me,
 *   ),
 * );
 * verifyEvent(event); // { valid: true, event }
 * ```
 *
 * @packageDocumentation
 */
export {
  type CreateEventOptions,
  createEvent,
  type EventData,
  type EventType,
  eventEnvelopeSchema,
  isSealedEvent,
  type SignedEvent,
  validateEvent,
  verifyEvent,
} from './event.js';
export {
  type AppendResult,
  type EventStore,
  InMemoryEventStore,
  type LamportRange,
  lamportRules,
  sortForReplay,
} from './event-store.js';
export { createUlidFactory, type UlidFactoryOptions } from './ulid.js';
