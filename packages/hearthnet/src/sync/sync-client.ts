import type { z } from 'zod';
import { parseStrictJsonBytes } from '../canonical-json/strict-json.js';
import { errorFromBody } from '../capabilities/error-body.js';
import { PartitionError } from '../capabilities/hearthnet-errors.js';
import { HearthNetLocalError } from '../errors.js';
import type { EventStore } from '../events/event-store.js';
import { nodeIdSchema } from '../manifests/node-manifest.js';
import {
  digestsOf,
  eventsById,
  idsByBucket,
  ingestEvents,
  SYNC_BATCH_SIZE,
  SYNC_BUCKET_WIDTH,
  SYNC_PATHS,
  type SyncEventsResult,
  syncResponseSchemas,
} from './sync-protocol.js';

/** Options of {@link syncWith}. */
export interface SyncWithOptions {
  /** This node's event store: what is pushed comes from it, what is pulled goes into it. */
  readonly store: EventStore;
  /** Sync only these communities. Default: every community either side has events of. */
  readonly communities?: readonly string[];
  /** The `fetch` to use. Default: the global one. */
  readonly fetch?: typeof fetch;
  /** Events per request when pulling and pushing. Default `SYNC_BATCH_SIZE`. */
  readonly batchSize?: number;
  /** Lamport bucket width of the digests. Default `SYNC_BUCKET_WIDTH`. */
  readonly bucketWidth?: number;
  readonly signal?: AbortSignal;
}

/** What one community's sync did: the pulled events as this store took them, and the peer's answers to the pushes. */
export interface CommunitySyncReport {
  readonly community_id: string;
  readonly pulled: SyncEventsResult;
  readonly pushed: SyncEventsResult;
}

/**
 * The client role of gossip sync (contract §7.6) against the sync handler at `peerUrl`: for each
 * community it compares heads and per-bucket digests of event ids, lists the ids of the buckets that
 * differ, pulls the events this store lacks (verified and authorised by replay before they are
 * stored) and pushes the events the peer lacks, by id. Histories that overlap in Lamport values
 * therefore converge, not only those where one side is ahead.
 *
 * @throws {HearthNetLocalError} `invalid_sync_options` for a bad URL, store, community id, batch size or
 *   bucket width.
 * @throws {PartitionError} when the peer cannot be reached.
 * @throws {HearthNetError} (the §5.4 body's class) when the peer answers an error.
 * @throws {HearthNetLocalError} `sync_protocol` when a 2xx answer is not the protocol's.
 * @example
 * const reports = await syncWith('http://127.0.0.1:7080', { store });
 * for (const report of reports) console.log(report.community_id, report.pulled.accepted.length);
 */
export async function syncWith(peerUrl: string, options: SyncWithOptions): Promise<CommunitySyncReport[]> {
  const {
    store,
    communities,
    batchSize = SYNC_BATCH_SIZE,
    bucketWidth = SYNC_BUCKET_WIDTH,
    signal,
  } = options ?? {};
  const fetchImpl = options?.fetch ?? globalThis.fetch;
  let base: URL;
  try {
    base = new URL(peerUrl);
  } catch (error) {
    throw new HearthNetLocalError('invalid_sync_options', `peerUrl is not a URL: ${String(peerUrl)}`, {
      cause: error,
    });
  }
  if (typeof store !== 'object' || store === null)
    throw new HearthNetLocalError('invalid_sync_options', 'a store is required');
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) {
    throw new HearthNetLocalError(
      'invalid_sync_options',
      `batchSize must be a positive integer, got ${String(batchSize)}`,
    );
  }
  if (!Number.isSafeInteger(bucketWidth) || bucketWidth < 1) {
    throw new HearthNetLocalError(
      'invalid_sync_options',
      `bucketWidth must be a positive integer, got ${String(bucketWidth)}`,
    );
  }
  if (communities !== undefined && !communities.every((id) => nodeIdSchema.safeParse(id).success)) {
    throw new HearthNetLocalError('invalid_sync_options', 'communities must be full node ids');
  }

  async function call<S extends z.ZodType>(path: string, schema: S, body?: unknown): Promise<z.infer<S>> {
    const url = new URL(path, base);
    let response: Response;
    try {
      response = await fetchImpl(url, {
        method: body === undefined ? 'GET' : 'POST',
        ...(body === undefined
          ? {}
          : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
        ...(signal === undefined ? {} : { signal }),
      });
    } catch (error) {
      throw new PartitionError(`${url.origin} is unreachable`, { cause: error });
    }
    // The events in an answer are signed: read it as strictly as a signed body (see parseStrictJson).
    // An honest peer's serializer never writes a repeated key, an inexact number or bytes that are not UTF-8.
    const read = parseStrictJsonBytes(new Uint8Array(await response.arrayBuffer()));
    if (!response.ok)
      throw errorFromBody(read.ok || read.problem !== 'syntax' ? read.value : {}, response.status);
    if (!read.ok) {
      throw read.problem === 'syntax'
        ? new HearthNetLocalError('sync_protocol', `${path}: the answer is not UTF-8 JSON`, {
            cause: read.cause,
            details: { requestPath: path },
          })
        : new HearthNetLocalError('sync_protocol', `${path}: the answer holds a ${read.message}`, {
            details: { requestPath: path },
          });
    }
    const parsed = schema.safeParse(read.value);
    if (!parsed.success)
      throw new HearthNetLocalError(
        'sync_protocol',
        `${path}: ${parsed.error.issues[0]?.message ?? 'invalid answer'}`,
        { details: { requestPath: path } },
      );
    return parsed.data;
  }

  const peerHeads = await call(SYNC_PATHS.heads, syncResponseSchemas.heads);
  const ids =
    communities ?? [...new Set([...(await store.heads()).keys(), ...Object.keys(peerHeads)])].sort();
  const reports: CommunitySyncReport[] = [];
  for (const community_id of ids) {
    const theirs = await call(SYNC_PATHS.digests, syncResponseSchemas.digests, {
      community_id,
      bucket_width: bucketWidth,
    });
    const ours = await digestsOf(store, community_id, theirs.bucket_width);
    const theirDigests = new Map(theirs.buckets.map(({ bucket, digest }) => [bucket, digest]));
    const ourDigests = new Map(ours.buckets.map(({ bucket, digest }) => [bucket, digest]));
    const differing = [...new Set([...theirDigests.keys(), ...ourDigests.keys()])]
      .filter((bucket) => theirDigests.get(bucket) !== ourDigests.get(bucket))
      .sort((a, b) => a - b);
    const empty: SyncEventsResult = {
      accepted: [],
      rejected: [],
      new_head_lamport: (await store.head(community_id)) ?? null,
    };
    if (differing.length === 0) {
      reports.push({
        community_id,
        pulled: empty,
        pushed: { ...empty, new_head_lamport: peerHeads[community_id] ?? null },
      });
      continue;
    }

    const askable = differing.filter((bucket) => theirDigests.has(bucket));
    const theirIds = new Set(
      askable.length === 0
        ? []
        : (
            await call(SYNC_PATHS.ids, syncResponseSchemas.ids, {
              community_id,
              bucket_width: theirs.bucket_width,
              buckets: askable,
            })
          ).event_ids,
    );
    const groups = await idsByBucket(store, community_id, theirs.bucket_width);
    const ourIds = new Set(differing.flatMap((bucket) => groups.get(bucket) ?? []));

    const wanted = [...theirIds].filter((id) => !ourIds.has(id));
    const pulledEvents: unknown[] = [];
    for (const chunk of chunks(wanted, batchSize)) {
      const answer = await call(SYNC_PATHS.fetch, syncResponseSchemas.fetch, {
        community_id,
        event_ids: chunk,
      });
      pulledEvents.push(...answer.events);
    }
    const pulled = pulledEvents.length === 0 ? empty : await ingestEvents(store, community_id, pulledEvents);

    const missing = await eventsById(
      store,
      community_id,
      [...ourIds].filter((id) => !theirIds.has(id)),
    );
    const answers: SyncEventsResult[] = [];
    for (const chunk of chunks(missing, batchSize)) {
      answers.push(
        await call(SYNC_PATHS.events, syncResponseSchemas.events, { community_id, events: chunk }),
      );
    }
    reports.push({ community_id, pulled, pushed: mergeResults(answers, peerHeads[community_id] ?? null) });
  }
  return reports;
}

function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}

function mergeResults(answers: readonly SyncEventsResult[], headBefore: number | null): SyncEventsResult {
  return {
    accepted: answers.flatMap((answer) => answer.accepted),
    rejected: answers.flatMap((answer) => answer.rejected),
    new_head_lamport: answers.at(-1)?.new_head_lamport ?? headBefore,
  };
}
