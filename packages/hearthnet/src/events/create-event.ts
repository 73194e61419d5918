import type { KeyPair } from '../crypto/key-pair.js';
import { signPayload } from '../crypto/payload-signature.js';
import { HearthNetLocalError } from '../errors.js';
import { formatTimestamp } from '../manifests/index.js';
import { EVENT_SCHEMA_VERSION, type SignedEvent } from './envelope.js';
import type { EventData } from './event-data.js';
import type { EventType } from './event-types.js';
import { createUlidFactory, type UlidFactory } from './ulid.js';
import { validateEvent } from './verify-event.js';

/** What {@link createEvent} takes: the fields an author chooses. */
export interface EventInput<T extends EventType> {
  readonly community_id: string;
  readonly event_type: T;
  readonly data: EventData<T>;
  /** The Lamport value, from the community's clock (`EventStore.appendLocal` passes it). */
  readonly lamport: number;
  /** A ULID to use instead of a fresh one (e.g. to re-create a known event). */
  readonly event_id?: string;
  /** A timestamp to use instead of the clock's time. */
  readonly wall_clock?: string;
}

/** Where {@link createEvent} gets time and ids. */
export interface CreateEventOptions {
  /** Milliseconds since the epoch (default `Date.now`): the ULID's time and `wall_clock` (whole seconds). */
  readonly clock?: () => number;
  /** The ULID factory (default: one monotonic factory shared by the process). */
  readonly ulid?: UlidFactory;
}

let sharedUlidFactory: UlidFactory | undefined;

/**
 * Builds and signs a community event (contract §7.1): `schema_version` 1, a fresh monotonic ULID,
 * `wall_clock` from the clock, `author` = the key's node id, the signature over the canonical JSON
 * of the eight other fields. `data` is checked against its type's schema first; its numbers are
 * normalised to their canonical value (what is signed is what is sent).
 *
 * @throws {HearthNetLocalError} `invalid_event` when the input breaks the envelope or `data` schema
 *   (`details.reason`, `path`).
 * @throws {HearthNetLocalError} when `data` holds something JSON cannot carry.
 * @example
 * const event = createEvent(
 *   {
 *     community_id,
 *     event_type: 'chat.message.sent',
 *     data: { client_id: 'c-1', recipient: bob.nodeId, body: 'hi' },
 *     lamport: 7,
 *   },
 *   alice,
 * );
 */
export function createEvent<T extends EventType>(
  input: EventInput<T>,
  key: KeyPair,
  options: CreateEventOptions = {},
): SignedEvent<T> {
  const now = (options.clock ?? Date.now)();
  const ulid = options.ulid ?? sharedFactory();
  const unsigned = {
    schema_version: EVENT_SCHEMA_VERSION,
    event_id: input.event_id ?? ulid(now),
    lamport: input.lamport,
    wall_clock: input.wall_clock ?? formatTimestamp(now),
    community_id: input.community_id,
    author: key.nodeId,
    event_type: input.event_type,
    data: input.data,
  };
  const verdict = validateEvent({ ...unsigned, signature: '' });
  if (!verdict.valid)
    throw new HearthNetLocalError('invalid_event', verdict.message, {
      path: verdict.path,
      details: { reason: verdict.reason },
    });
  return signPayload(unsigned, key) as unknown as SignedEvent<T>;
}

function sharedFactory(): UlidFactory {
  sharedUlidFactory ??= createUlidFactory();
  return sharedUlidFactory;
}
