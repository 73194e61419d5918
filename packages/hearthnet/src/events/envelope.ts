import { z } from 'zod';
import { countSchema, jsonObjectSchema, nodeIdSchema, timestampSchema } from '../manifests/index.js';
import type { EventData } from './event-data.js';
import type { EventType } from './event-types.js';
import { isUlid } from './ulid.js';

/** `schema_version` of the events this SDK writes and reads (contract §2.3, §7.1). */
export const EVENT_SCHEMA_VERSION = 1;

/**
 * The envelope of contract §7.1, field by field, with `event_type` and `data` left open (they are
 * checked against the type's schema next). No other field is allowed: the signature covers exactly
 * these eight plus nothing else.
 */
export const eventEnvelopeSchema = z.strictObject({
  schema_version: z.literal(EVENT_SCHEMA_VERSION),
  event_id: z
    .string()
    .refine(isUlid, { message: 'expected a ULID (26 upper-case Crockford base32 characters)' }),
  lamport: countSchema,
  wall_clock: timestampSchema,
  community_id: nodeIdSchema,
  author: nodeIdSchema,
  event_type: z.string(),
  data: jsonObjectSchema,
  signature: z.string(),
});

/**
 * A signed community event (contract §7.1), narrowed by `event_type`:
 * `if (event.event_type === 'chat.message.sent') event.data.recipient`.
 */
export type SignedEvent<T extends EventType = EventType> = T extends EventType
  ? {
      readonly schema_version: typeof EVENT_SCHEMA_VERSION;
      /** A ULID, unique across all communities. */
      readonly event_id: string;
      readonly lamport: number;
      /** The author's clock when the event was made (RFC 3339 UTC); informative, never used for order. */
      readonly wall_clock: string;
      /** The community's id: the full node id of its root key. */
      readonly community_id: string;
      /** The full node id of the key that signed the event. */
      readonly author: string;
      readonly event_type: T;
      readonly data: EventData<T>;
      /** `ed25519:<base64url>` over the canonical JSON of the eight other fields. */
      readonly signature: string;
    }
  : never;

/** An event before signing: {@link SignedEvent} without `signature`. */
export type UnsignedEvent<T extends EventType = EventType> = T extends EventType
  ? Omit<SignedEvent<T>, 'signature'>
  : never;
