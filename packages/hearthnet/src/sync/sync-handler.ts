import type { z } from 'zod';
import { readStrictJson } from '../canonical-json/strict-json.js';
import { asHearthNetError, toErrorBody } from '../capabilities/error-body.js';
import { BadRequestError, NotFoundError } from '../capabilities/hearthnet-errors.js';
import { HearthNetLocalError } from '../errors.js';
import type { EventStore } from '../events/event-store.js';
import { readBodyWithin } from '../wire/call-streams.js';
import {
  digestsOf,
  eventsById,
  idsByBucket,
  ingestEvents,
  SYNC_BATCH_SIZE,
  SYNC_BUCKET_WIDTH,
  SYNC_PATHS,
  syncRequestSchemas,
} from './sync-protocol.js';

const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Options of {@link createSyncHandler}. */
export interface SyncHandlerOptions {
  /** The node's event store: read for heads, digests and events, written by `POST /sync/v1/events`. */
  readonly store: EventStore;
  /** The most events (or ids) one `events` or `fetch` request may carry. Default `SYNC_BATCH_SIZE`. */
  readonly maxBatch?: number;
  /**
   * The largest request body read, in bytes (also when it arrives without a `Content-Length`); a larger
   * one answers 400 `bad_request`. Default 10 MiB.
   */
  readonly maxBodyBytes?: number;
}

/**
 * The server role of gossip sync (contract §7.6), as a web-standard `Request → Response` handler for
 * the paths of {@link SYNC_PATHS}: heads, bucket digests, ids per bucket, events by id, and
 * `POST /sync/v1/events`, which stores only verified events that replay authorises
 * (`{accepted, rejected, new_head_lamport}`). Errors answer the contract §5.4 body
 * (`{error, message}`) with the code's status; an unknown path is `not_found`.
 *
 * Requests are not signed: every event carries its author's signature and is judged by replay, so a
 * request can neither forge nor unlock anything. Put the handler behind whatever access control
 * decides who may read the community's log.
 *
 * @throws {HearthNetLocalError} `invalid_sync_options` for a missing store or a bad `maxBatch`.
 * @example
 * const served = await serveBusHandler(createSyncHandler({ store }), { port: 0 });
 * await syncWith(served.url, { store: otherStore });
 */
export function createSyncHandler(options: SyncHandlerOptions): (request: Request) => Promise<Response> {
  const { store, maxBatch = SYNC_BATCH_SIZE, maxBodyBytes = DEFAULT_MAX_BODY_BYTES } = options ?? {};
  if (typeof store !== 'object' || store === null)
    throw new HearthNetLocalError('invalid_sync_options', 'a store is required');
  if (!Number.isSafeInteger(maxBatch) || maxBatch < 1) {
    throw new HearthNetLocalError(
      'invalid_sync_options',
      `maxBatch must be a positive integer, got ${String(maxBatch)}`,
    );
  }
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1) {
    throw new HearthNetLocalError(
      'invalid_sync_options',
      `maxBodyBytes must be a positive integer, got ${String(maxBodyBytes)}`,
    );
  }

  async function route(request: Request): Promise<unknown> {
    const path = new URL(request.url).pathname;
    if (path === SYNC_PATHS.heads) {
      expectMethod(request, 'GET');
      return Object.fromEntries(await store.heads());
    }
    if (path === SYNC_PATHS.digests) {
      const body = await readBody(request, maxBodyBytes, syncRequestSchemas.digests);
      return digestsOf(store, body.community_id, body.bucket_width ?? SYNC_BUCKET_WIDTH);
    }
    if (path === SYNC_PATHS.ids) {
      const body = await readBody(request, maxBodyBytes, syncRequestSchemas.ids);
      const groups = await idsByBucket(store, body.community_id, body.bucket_width);
      const event_ids = [...new Set(body.buckets)].flatMap((bucket) => groups.get(bucket) ?? []);
      return { community_id: body.community_id, event_ids };
    }
    if (path === SYNC_PATHS.fetch) {
      const body = await readBody(request, maxBodyBytes, syncRequestSchemas.fetch);
      checkBatch(body.event_ids.length, 'event_ids');
      return {
        community_id: body.community_id,
        events: await eventsById(store, body.community_id, body.event_ids),
      };
    }
    if (path === SYNC_PATHS.events) {
      const body = await readBody(request, maxBodyBytes, syncRequestSchemas.events);
      checkBatch(body.events.length, 'events');
      return ingestEvents(store, body.community_id, body.events);
    }
    throw new NotFoundError(`no sync endpoint at ${path}`);
  }

  function checkBatch(length: number, field: string): void {
    if (length > maxBatch) throw new BadRequestError(`${field} holds ${length} items; at most ${maxBatch}`);
  }

  return async (request) => {
    try {
      return json(200, await route(request));
    } catch (error) {
      const converted = asHearthNetError(error);
      return json(converted.status, toErrorBody(converted));
    }
  };
}

function expectMethod(request: Request, method: string): void {
  if (request.method !== method) throw new BadRequestError(`use ${method} here, not ${request.method}`);
}

async function readBody<S extends z.ZodType>(
  request: Request,
  maxBodyBytes: number,
  schema: S,
): Promise<z.infer<S>> {
  expectMethod(request, 'POST');
  const bytes = await readBodyWithin(request, maxBodyBytes);
  // Events in the body are signed: a repeated key or an inexact number would verify while another
  // reader of the same bytes sees another event (see parseStrictJson); neither is ever needed.
  const value = readStrictJson(
    bytes,
    'the body',
    (message, options) => new BadRequestError(message, options),
  );
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BadRequestError(`${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid body'}`);
  }
  return parsed.data;
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
