import { formatJsonPath } from '../canonical-json/json-path.js';
import { HearthNetLocalError } from '../errors.js';
import { EVENT_SCHEMA_VERSION, type SignedEvent, type UnsignedEvent } from '../events/envelope.js';
import { validateEvent } from '../events/verify-event.js';
import { PythonFloat } from './python-float.js';
import { assertReferenceEvent, type UnsignedReferenceEvent } from './reference-event.js';
import { isReferenceEventId, referenceEventIdToUlid, ulidToReferenceEventId } from './reference-event-id.js';
import { contractTimestampToReference, referenceTimestampToContract } from './reference-timestamp.js';

type JsonObject = { [key: string]: unknown };

/** Payload fields that hold an event id (converted between the two id forms). */
const EVENT_ID_FIELDS = ['target_event_id', 'invite_event_id'] as const;

/**
 * Carries a reference event into the contract envelope (contract §7.1) without a signature — the
 * reference signs other bytes, so only the author can sign the result (`signPayload`).
 *
 * - `payload` → `data`, `issued_at` → `wall_clock` (cut to milliseconds), the base32 `event_id` →
 *   a ULID of the same millisecond ({@link referenceEventIdToUlid}), and so `target_event_id` and
 *   `invite_event_id` inside the payload;
 * - `chat.message.sent`: `to` → `recipient`; market posts: `location.lon` → `location.lng`
 *   (also in `market.post.updated` `fields`);
 * - numbers: integral Python floats become plain numbers (`1.0` → `1`).
 *
 * The result must pass the contract's envelope and `data` schemas. Reference events that do not
 * (authors such as `local-1a2b3c4d`, `community.member.joined` with the reference's payload,
 * `market.post.expired` without `client_id`, `evt:…` ids) are refused.
 *
 * @throws {HearthNetLocalError} `malformed_reference_event` for a value without the reference envelope's
 *   fields.
 * @throws {HearthNetLocalError} `event_conversion` for an event the contract cannot carry (`details.reason`,
 *   `path`).
 * @example
 * const unsigned = referenceEventToContract(received);
 * unsigned.wall_clock; // '2026-05-26T08:14:22.281Z'
 */
export function referenceEventToContract(event: UnsignedReferenceEvent): UnsignedEvent {
  assertReferenceEvent(event, false);
  const eventId = convertId(event.event_id, '$.event_id', referenceEventIdToUlid);
  let wallClock: string;
  try {
    wallClock = referenceTimestampToContract(event.issued_at);
  } catch (error) {
    throw new HearthNetLocalError('event_conversion', messageOf(error), {
      cause: error,
      path: '$.issued_at',
      details: { reason: 'unconvertible_timestamp' },
    });
  }
  const data = plainJson(event.payload, ['payload']) as JsonObject;
  for (const field of EVENT_ID_FIELDS) {
    const id = data[field];
    if (isReferenceEventId(id)) data[field] = convertId(id, `$.payload.${field}`, referenceEventIdToUlid);
  }
  if (event.event_type === 'chat.message.sent') rename(data, 'to', 'recipient');
  for (const location of locationsOf(event.event_type, data)) rename(location, 'lon', 'lng');
  const unsigned = {
    schema_version: event.schema_version,
    event_id: eventId,
    lamport: event.lamport,
    wall_clock: wallClock,
    community_id: event.community_id,
    author: event.author,
    event_type: event.event_type,
    data,
  };
  const verdict = validateEvent({ ...unsigned, signature: '' });
  if (!verdict.valid) {
    throw new HearthNetLocalError('event_conversion', verdict.message, {
      path: fromDataPath(verdict.path),
      details: { reason: 'invalid_contract_event' },
    });
  }
  return unsigned as UnsignedEvent;
}

/**
 * Carries a contract event into the reference envelope, unsigned (sign it with `signReferenceEvent`
 * when you hold the author's key). The inverse of {@link referenceEventToContract}: `data` →
 * `payload`, `wall_clock` → `issued_at` with six fraction digits, ULIDs → reference ids (the low 30
 * of the ULID's 80 random bits are lost), `recipient` → `to`, `lng` → `lon`. A `signature` on the
 * input is dropped.
 *
 * @throws {HearthNetLocalError} `event_conversion` (`invalid_contract_event`) for an event that breaks the
 *   contract's schemas.
 * @example
 * const forReference = signReferenceEvent(contractEventToReference(event), me);
 */
export function contractEventToReference(event: UnsignedEvent | SignedEvent): UnsignedReferenceEvent {
  const verdict = validateEvent({ signature: '', ...event });
  if (!verdict.valid)
    throw new HearthNetLocalError('event_conversion', verdict.message, {
      path: verdict.path,
      details: { reason: 'invalid_contract_event' },
    });
  const payload = structuredClone(event.data) as JsonObject;
  for (const field of EVENT_ID_FIELDS) {
    const id = payload[field];
    if (typeof id === 'string') payload[field] = ulidToReferenceEventId(id);
  }
  if (event.event_type === 'chat.message.sent') rename(payload, 'recipient', 'to');
  for (const location of locationsOf(event.event_type, payload)) rename(location, 'lng', 'lon');
  return {
    schema_version: EVENT_SCHEMA_VERSION,
    event_id: ulidToReferenceEventId(event.event_id),
    event_type: event.event_type,
    community_id: event.community_id,
    author: event.author,
    lamport: event.lamport,
    payload,
    issued_at: contractTimestampToReference(event.wall_clock),
  };
}

function convertId(id: string, path: string, convert: (id: string) => string): string {
  try {
    return convert(id);
  } catch (error) {
    throw new HearthNetLocalError('event_conversion', messageOf(error), {
      cause: error,
      path,
      details: { reason: 'unconvertible_event_id' },
    });
  }
}

/** The `location` objects of a market event's data (reference `lon`, contract `lng`). */
function locationsOf(type: string, data: JsonObject): JsonObject[] {
  const holder =
    type === 'market.post.updated' ? data.fields : type === 'market.post.created' ? data : undefined;
  if (!isObject(holder)) return [];
  const location = holder.location;
  return isObject(location) ? [location] : [];
}

function rename(object: JsonObject, from: string, to: string): void {
  if (!Object.hasOwn(object, from) || Object.hasOwn(object, to)) return;
  const entries = Object.entries(object).map(([key, value]) => [key === from ? to : key, value] as const);
  for (const key of Object.keys(object)) delete object[key];
  for (const [key, value] of entries) object[key] = value;
}

/** A deep copy with Python floats as numbers; integers beyond 2⁵³ are refused. */
function plainJson(value: unknown, path: (string | number)[]): unknown {
  if (value instanceof PythonFloat) return value.value;
  if (typeof value === 'bigint') {
    throw new HearthNetLocalError(
      'event_conversion',
      `${formatJsonPath(path)}: the integer ${value} does not fit the contract's 53 bits`,
      { path: formatJsonPath(path), details: { reason: 'unconvertible_number' } },
    );
  }
  if (Array.isArray(value)) return value.map((item, index) => plainJson(item, [...path, index]));
  if (isObject(value)) {
    const copy: JsonObject = {};
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(copy, key, {
        value: plainJson(item, [...path, key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  }
  return value;
}

/** Contract paths name `data`; a reference reader knows the field as `payload`. */
function fromDataPath(path: string): string {
  return path.replace(/^\$\.data\b/, '$.payload');
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
