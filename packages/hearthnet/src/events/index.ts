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
export {
  CONTRACT_EVENT_TYPES,
  type CommunityPolicy,
  type CoSigner,
  type CreateEventOptions,
  communityPolicySchema,
  coSignerSchema,
  createEvent,
  EVENT_SCHEMA_VERSION,
  EVENT_TYPES,
  type EventData,
  type EventInput,
  type EventRejection,
  type EventRejectionReason,
  type EventType,
  type EventVerdict,
  eventDataSchemas,
  eventEnvelopeSchema,
  isEventType,
  locationSchema,
  MARKET_CATEGORIES,
  MARKET_EXPIRY_REASONS,
  MEMBER_LEVELS,
  type MemberLevel,
  REFERENCE_EXTRA_EVENT_TYPES,
  RESERVED_EVENT_TYPES,
  type SignedEvent,
  type UnsignedEvent,
  validateEvent,
  verifyEvent,
} from './event.js';
export type { AppendResult, EventStore, LamportRange } from './event-store.js';
export {
  compareEvents,
  InMemoryEventStore,
  LamportClock,
  lamportAfterReceive,
  lamportForSend,
  type ReplayKey,
  sortForReplay,
} from './event-store.js';
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
