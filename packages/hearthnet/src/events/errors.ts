/** Why a string is not a ULID. */
export type InvalidUlidReason =
  /** Not a string of 26 characters. */
  | 'wrong_length'
  /** A character outside upper-case Crockford base32 (`0–9 A–Z` without `I L O U`). */
  | 'invalid_character'
  /** The first character is above `7`: the time would not fit 48 bits. */
  | 'time_overflow';

/** Thrown when a string is not a canonical ULID (26 upper-case Crockford base32 characters). */
export class InvalidUlidError extends Error {
  override readonly name = 'InvalidUlidError';
  readonly code = 'invalid_ulid';
  readonly reason: InvalidUlidReason;
  /** The rejected value, as received. */
  readonly value: unknown;

  constructor(reason: InvalidUlidReason, value: unknown, message: string) {
    super(message);
    this.reason = reason;
    this.value = value;
  }
}

/** Thrown when a ULID cannot be made: a time outside 0 … 2⁴⁸−1 ms, or randomness that is not 10 bytes. */
export class UlidInputError extends Error {
  override readonly name = 'UlidInputError';
  readonly code = 'ulid_input';
}

/**
 * Thrown by a monotonic ULID factory when the 80 random bits of the current millisecond are used up
 * (2⁸⁰ ids in one millisecond, or randomness that started near the top).
 */
export class UlidOverflowError extends Error {
  override readonly name = 'UlidOverflowError';
  readonly code = 'ulid_overflow';
}

/** Thrown for a Lamport value that is not a non-negative safe integer, or a counter that would pass 2⁵³−1. */
export class InvalidLamportError extends Error {
  override readonly name = 'InvalidLamportError';
  readonly code = 'invalid_lamport';
  /** The rejected value, as received. */
  readonly value: unknown;

  constructor(value: unknown, message: string) {
    super(message);
    this.value = value;
  }
}

/**
 * Why an event was refused, by {@link verifyEvent} (a received event) or {@link createEvent} (input):
 * - `malformed_envelope`: not an object, or an envelope field missing, mistyped or unknown (§7.1);
 * - `unsupported_schema_version`: `schema_version` is not 1 (§2.3);
 * - `unknown_event_type`: `event_type` is not one of the known types (§7.2);
 * - `invalid_data`: `data` does not match the schema of its type;
 * - `invalid_signature`: the signature does not verify under `author`.
 */
export type EventRejectionReason =
  | 'malformed_envelope'
  | 'unsupported_schema_version'
  | 'unknown_event_type'
  | 'invalid_data'
  | 'invalid_signature';

/** Thrown when an event cannot be built or stored: the {@link EventRejectionReason} and the path of the field. */
export class InvalidEventError extends Error {
  override readonly name = 'InvalidEventError';
  readonly code = 'invalid_event';
  readonly reason: EventRejectionReason;
  /** The JSON path of the offending field (`$` for the envelope as a whole). */
  readonly path: string;

  constructor(reason: EventRejectionReason, path: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.reason = reason;
    this.path = path;
  }
}

/**
 * Thrown by an event store when an event arrives with the `event_id` of a stored event but different
 * content: a stored event is never replaced.
 */
export class EventConflictError extends Error {
  override readonly name = 'EventConflictError';
  readonly code = 'event_conflict';
  readonly eventId: string;

  constructor(eventId: string) {
    super(`event ${eventId} is already stored with different content`);
    this.eventId = eventId;
  }
}

/**
 * Thrown by `EventStore.appendLocal` when the event the callback made does not carry the community
 * or the Lamport value the store gave it.
 */
export class LocalEventMismatchError extends Error {
  override readonly name = 'LocalEventMismatchError';
  readonly code = 'local_event_mismatch';
}
