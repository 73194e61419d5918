import { z } from 'zod';
import { HEARTHNET_ERROR_CODES } from '../capabilities/hearthnet-errors.js';
import type { SignedEvent } from '../events/envelope.js';
import type { EventStore } from '../events/event-store.js';
import { sortForReplay } from '../events/ordering.js';
import { blake3Hex } from '../hashing/index.js';
import { countSchema, nodeIdSchema } from '../manifests/field-schemas.js';
import type { ReplayRejectionReason } from '../replay/rejection.js';

/** The request paths of the sync protocol (contract §7.6, with this SDK's reconciliation endpoints). */
export const SYNC_PATHS = {
  /** `GET`: `{ [community_id]: head lamport }` (contract §7.6 step 1). */
  heads: '/sync/v1/heads',
  /** `POST {community_id, bucket_width}`: a digest per Lamport bucket ({@link SyncDigests}). */
  digests: '/sync/v1/digests',
  /** `POST {community_id, bucket_width, buckets}`: the ids of the events in those buckets. */
  ids: '/sync/v1/ids',
  /** `POST {community_id, event_ids}`: those events, as stored. */
  fetch: '/sync/v1/events/fetch',
  /** `POST {community_id, events}`: verify, authorise and store ({@link SyncEventsResult}, contract §7.6 step 3). */
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
  /** A {@link ReplayRejectionReason} from this SDK; any string from other peers. */
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
