import { z } from 'zod';
import { canonicalJsonString } from '../canonical-json/canonical-json.js';
import { HEARTHNET_ERROR_CODES } from '../capabilities/hearthnet-errors.js';
import { HearthNetLocalError } from '../errors.js';
import { type SignedEvent, verifyEvent } from '../events/event.js';
import { type EventStore, sortForReplay } from '../events/event-store.js';
import { blake3Hex } from '../hashing.js';
import { countSchema, nodeIdSchema } from '../manifests/node-manifest.js';
import { compareForReplay, replay } from '../replay/replay.js';
import type { ReplayRejectionReason } from '../replay/replay-state.js';

/** The request paths of the sync protocol (contract §7.6, with this SDK's reconciliation endpoints). */
export const SYNC_PATHS = {
  /** `GET`: `{ [community_id]: head lamport }` (contract §7.6 step 1). */
  heads: '/sync/v1/heads',
  /** `POST {community_id, bucket_width}`: a digest per Lamport bucket (`SyncDigests`). */
  digests: '/sync/v1/digests',
  /** `POST {community_id, bucket_width, buckets}`: the ids of the events in those buckets. */
  ids: '/sync/v1/ids',
  /** `POST {community_id, event_ids}`: those events, as stored. */
  fetch: '/sync/v1/events/fetch',
  /** `POST {community_id, events}`: verify, authorise and store (`SyncEventsResult`, contract §7.6 step 3). */
  events: '/sync/v1/events',
} as const;

/** The default width of a Lamport bucket: bucket `b` holds the events with `b·w <= lamport < (b+1)·w`. */
export const SYNC_BUCKET_WIDTH = 64;
/** The largest bucket width a handler accepts. */
export const MAX_SYNC_BUCKET_WIDTH = 1 << 20;
/** The default number of events (or ids) in one `events` or `fetch` request. */
export const SYNC_BATCH_SIZE = 500;

/** One Lamport bucket of a community: how many events it holds and the digest of their ids. */
export interface SyncBucket {
  readonly bucket: number;
  readonly count: number;
  /** `blake3:` + hex BLAKE3 of the bucket's event ids, sorted, joined by `\n`. */
  readonly digest: string;
}

/** The answer of `POST /sync/v1/digests`: the non-empty buckets of a community, ascending. */
export interface SyncDigests {
  readonly community_id: string;
  readonly bucket_width: number;
  readonly buckets: readonly SyncBucket[];
}

/** A refused event in a `POST /sync/v1/events` answer. */
export interface SyncRejection {
  /** Null when the event carried no readable id. */
  readonly event_id: string | null;
  /** A `ReplayRejectionReason` from this SDK; any string from other peers. */
  readonly reason: ReplayRejectionReason | (string & {});
  readonly code: (typeof HEARTHNET_ERROR_CODES)[number];
  readonly message: string;
}

/**
 * The answer of `POST /sync/v1/events` (contract §7.6 step 3): the ids of the events now stored
 * (new or already there), the refused ones with their reasons, and the community's head afterwards
 * (null while it has no events).
 */
export interface SyncEventsResult {
  readonly accepted: readonly string[];
  readonly rejected: readonly SyncRejection[];
  readonly new_head_lamport: number | null;
}

const bucketWidthSchema = z.number().int().min(1).max(MAX_SYNC_BUCKET_WIDTH);

/** Request bodies, as the handler checks them (unknown fields are ignored). */
export const syncRequestSchemas = {
  digests: z.looseObject({ community_id: nodeIdSchema, bucket_width: bucketWidthSchema.optional() }),
  ids: z.looseObject({
    community_id: nodeIdSchema,
    bucket_width: bucketWidthSchema,
    buckets: z.array(countSchema),
  }),
  fetch: z.looseObject({ community_id: nodeIdSchema, event_ids: z.array(z.string()) }),
  events: z.looseObject({ community_id: nodeIdSchema, events: z.array(z.unknown()) }),
};

/** Response bodies, as the client checks them. */
export const syncResponseSchemas = {
  heads: z.record(z.string(), countSchema),
  digests: z.looseObject({
    community_id: nodeIdSchema,
    bucket_width: bucketWidthSchema,
    buckets: z.array(z.looseObject({ bucket: countSchema, count: countSchema, digest: z.string() })),
  }),
  ids: z.looseObject({ community_id: nodeIdSchema, event_ids: z.array(z.string()) }),
  fetch: z.looseObject({ community_id: nodeIdSchema, events: z.array(z.unknown()) }),
  events: z.looseObject({
    accepted: z.array(z.string()),
    rejected: z.array(
      z.looseObject({
        event_id: z.string().nullable(),
        reason: z.string(),
        code: z.enum(HEARTHNET_ERROR_CODES),
        message: z.string(),
      }),
    ),
    new_head_lamport: countSchema.nullable(),
  }),
};

/** The bucket of a Lamport value. */
export function bucketOf(lamport: number, width: number): number {
  return Math.floor(lamport / width);
}

/** The event ids of a community grouped by bucket, each group sorted. */
export async function idsByBucket(
  store: EventStore,
  communityId: string,
  width: number,
): Promise<Map<number, string[]>> {
  const groups = new Map<number, string[]>();
  for (const event of await store.list(communityId)) {
    const bucket = bucketOf(event.lamport, width);
    const ids = groups.get(bucket) ?? [];
    ids.push(event.event_id);
    groups.set(bucket, ids);
  }
  for (const ids of groups.values()) ids.sort();
  return groups;
}

/** The digests of a community's buckets. */
export async function digestsOf(store: EventStore, communityId: string, width: number): Promise<SyncDigests> {
  const groups = await idsByBucket(store, communityId, width);
  const buckets = [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([bucket, ids]) => ({ bucket, count: ids.length, digest: `blake3:${blake3Hex(ids.join('\n'))}` }));
  return { community_id: communityId, bucket_width: width, buckets };
}

/** The stored events with these ids in a community, in replay order; unknown ids are skipped. */
export async function eventsById(
  store: EventStore,
  communityId: string,
  eventIds: Iterable<string>,
): Promise<SignedEvent[]> {
  const events: SignedEvent[] = [];
  for (const eventId of new Set(eventIds)) {
    const event = await store.get(eventId);
    if (event?.community_id === communityId) events.push(event);
  }
  return sortForReplay(events);
}

/** The ingestion running on each store, so that two batches are never judged against the same log. */
const running = new WeakMap<EventStore, Promise<unknown>>();

/**
 * Takes events received from a peer into `store` (contract §7.6 step 3): each is verified
 * (`verifyEvent`), must be of `communityId`, and is stored only when replaying the stored log with
 * the batch applies it, so an event of a revoked author, of a non-member or with a forged
 * co-signature is refused with replay's reason. Events already stored are accepted again; a
 * different event under a stored id is refused (`duplicate_event_id`). An event refused because
 * what it depends on has not arrived yet can be sent again later.
 *
 * Batches on one store are judged one after another. Never throws for bad events; throws what the
 * store throws.
 */
export function ingestEvents(
  store: EventStore,
  communityId: string,
  incoming: readonly unknown[],
): Promise<SyncEventsResult> {
  const previous = running.get(store) ?? Promise.resolve();
  const next = previous.then(
    () => ingest(store, communityId, incoming),
    () => ingest(store, communityId, incoming),
  );
  running.set(store, next);
  return next;
}

async function ingest(
  store: EventStore,
  communityId: string,
  incoming: readonly unknown[],
): Promise<SyncEventsResult> {
  const accepted = new Set<string>();
  const rejected = new Map<string | null, SyncRejection>();
  const reject = (rejection: SyncRejection) => {
    if (!rejected.has(rejection.event_id)) rejected.set(rejection.event_id, rejection);
  };
  const candidates = new Map<string, SignedEvent>();
  const conflicting = new Set<string>();
  for (const value of incoming) {
    const verdict = verifyEvent(value);
    if (!verdict.valid) {
      reject({
        event_id: eventIdOf(value),
        reason: verdict.reason,
        code: verdict.code,
        message: verdict.message,
      });
      continue;
    }
    const event = verdict.event;
    if (event.community_id !== communityId) {
      reject({
        event_id: event.event_id,
        reason: 'wrong_community',
        code: 'bad_request',
        message: `the event belongs to ${event.community_id}`,
      });
      continue;
    }
    const stored = await store.get(event.event_id);
    if (stored !== undefined) {
      if (canonicalJsonString(stored) === canonicalJsonString(event)) accepted.add(event.event_id);
      else reject(conflict(event.event_id));
      continue;
    }
    const other = candidates.get(event.event_id);
    if (other !== undefined && canonicalJsonString(other) !== canonicalJsonString(event)) {
      conflicting.add(event.event_id);
    }
    candidates.set(event.event_id, event);
  }
  for (const eventId of conflicting) {
    candidates.delete(eventId);
    reject(conflict(eventId));
  }

  if (candidates.size > 0) {
    const log = await store.list(communityId);
    const result = replay([...log, ...candidates.values()], { communityId });
    const applied = new Set(result.applied);
    const refusals = new Map(result.rejected.map((rejection) => [rejection.event_id, rejection]));
    for (const event of [...candidates.values()].sort(compareForReplay)) {
      if (applied.has(event.event_id)) {
        try {
          await store.append(event);
          accepted.add(event.event_id);
        } catch (error) {
          if (!(error instanceof HearthNetLocalError && error.code === 'event_conflict')) throw error;
          reject(conflict(event.event_id));
        }
        continue;
      }
      // Replay judges every verified event it is given: an event it did not apply, it refused.
      const { reason, code, message } = refusals.get(event.event_id)!;
      reject({ event_id: event.event_id, reason, code, message });
    }
  }
  return {
    accepted: [...accepted],
    rejected: [...rejected.values()],
    new_head_lamport: (await store.head(communityId)) ?? null,
  };
}

function conflict(eventId: string): SyncRejection {
  return {
    event_id: eventId,
    reason: 'duplicate_event_id',
    code: 'bad_request',
    message: 'a different event with this event_id is already known',
  };
}

function eventIdOf(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const id = (value as { event_id?: unknown }).event_id;
  return typeof id === 'string' ? id : null;
}
