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
  HearthNetLocalError,
  type HearthNetLocalErrorCode,
  type HearthNetLocalErrorDetails,
  type HearthNetLocalErrorOptions,
  type InvalidUlidReason,
} from '../errors.js';
export { type CreateEventOptions, createEvent, type EventInput } from './create-event.js';
export {
  EVENT_SCHEMA_VERSION,
  eventEnvelopeSchema,
  type SignedEvent,
  type UnsignedEvent,
} from './envelope.js';
export {
  type CommunityPolicy,
  type CoSigner,
  communityPolicySchema,
  coSignerSchema,
  type EventData,
  eventDataSchemas,
  locationSchema,
  MARKET_CATEGORIES,
  MARKET_EXPIRY_REASONS,
  MEMBER_LEVELS,
  type MemberLevel,
} from './event-data.js';
export type { AppendResult, EventStore, LamportRange } from './event-store.js';
export {
  CONTRACT_EVENT_TYPES,
  EVENT_TYPES,
  type EventType,
  isEventType,
  REFERENCE_EXTRA_EVENT_TYPES,
  RESERVED_EVENT_TYPES,
} from './event-types.js';
export { InMemoryEventStore } from './in-memory-event-store.js';
export { LamportClock, lamportAfterReceive, lamportForSend } from './lamport.js';
export { compareEvents, type ReplayKey, sortForReplay } from './ordering.js';
export {
  createUlidFactory,
  type DecodedUlid,
  decodeUlid,
  encodeUlid,
  isUlid,
  MAX_ULID_TIME,
  ULID_LENGTH,
  ULID_RANDOM_BYTES,
  type UlidFactory,
  type UlidFactoryOptions,
} from './ulid.js';
export {
  type EventRejection,
  type EventRejectionReason,
  type EventVerdict,
  validateEvent,
  verifyEvent,
} from './verify-event.js';
