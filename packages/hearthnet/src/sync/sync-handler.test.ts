import { describe, expect, it } from 'vitest';
import { PartitionError } from '../capabilities/hearthnet-errors.js';
import type { SignedEvent } from '../events/event.js';
import { createEvent } from '../events/event.js';
import { InMemoryEventStore } from '../events/event-store.js';
import { alice, communityId, dave, foundedCommunity, outsider } from '../replay/replay.test-support.js';
import { syncWith } from './sync-client.js';
import { createSyncHandler } from './sync-handler.js';
import { SYNC_PATHS, type SyncDigests, type SyncEventsResult } from './sync-protocol.js';

async function nodeWith(events: readonly unknown[]) {
  const store = new InMemoryEventStore();
  for (const event of events) await store.append(event as never);
  return { store, handler: createSyncHandler({ store, maxBatch: 3 }) };
}

const read = async <T>(response: Promise<Response> | Response): Promise<T> =>
  (await (await response).json()) as T;

const post = (handler: (request: Request) => Promise<Response>, path: string, body: unknown) =>
  handler(new Request(`http://node${path}`, { method: 'POST', body: JSON.stringify(body) }));

describe('sync handler', () => {
  it('answers heads, digests, ids and events by id', async () => {
    const log = foundedCommunity();
    const { handler } = await nodeWith(log.events);
    const head = log.events.at(-1)!.lamport;
    expect(await (await handler(new Request(`http://node${SYNC_PATHS.heads}`))).json()).toEqual({
      [communityId]: head,
    });
    const digests = await read<SyncDigests>(
      post(handler, SYNC_PATHS.digests, { community_id: communityId, bucket_width: 4 }),
    );
    expect(digests.buckets.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(log.events.length);
    const ids = await read<{ event_ids: string[] }>(
      post(handler, SYNC_PATHS.ids, { community_id: communityId, bucket_width: 4, buckets: [0] }),
    );
    expect(ids.event_ids).toEqual(
      log.events
        .filter((e) => e.lamport < 4)
        .map((e) => e.event_id)
        .sort(),
    );
    const fetched = await read<{ events: SignedEvent[] }>(
      post(handler, SYNC_PATHS.fetch, {
        community_id: communityId,
        event_ids: [log.events[1]!.event_id, 'nope'],
      }),
    );
    expect(fetched.events).toEqual([log.events[1]]);
  });

  it('verifies and authorises pushed events, with a reason for each refusal', async () => {
    const log = foundedCommunity();
    const { store, handler } = await nodeWith(log.events.slice(0, 1));
    const good = log.events[1]!;
    const forged = { ...log.events[2]!, lamport: 99 };
    const stranger = createEvent(
      {
        community_id: communityId,
        event_type: 'market.post.created',
        lamport: 50,
        data: { client_id: 'x', category: 'offer', title: 't', ttl_seconds: 60 },
      },
      outsider,
    );
    const response = await post(handler, SYNC_PATHS.events, {
      community_id: communityId,
      events: [good, forged, stranger],
    });
    expect(response.status).toBe(200);
    const result = await read<SyncEventsResult>(response);
    expect(result.accepted).toEqual([good.event_id]);
    expect(result.rejected).toEqual([
      expect.objectContaining({
        event_id: forged.event_id,
        reason: 'invalid_signature',
        code: 'invalid_signature',
      }),
      expect.objectContaining({ event_id: stranger.event_id, reason: 'not_a_member', code: 'unauthorized' }),
    ]);
    expect(result.new_head_lamport).toBe(good.lamport);
    expect(await store.count()).toBe(2);

    const again = await read<SyncEventsResult>(
      post(handler, SYNC_PATHS.events, { community_id: communityId, events: [good] }),
    );
    expect(again.accepted).toEqual([good.event_id]);
    const other = await read<SyncEventsResult>(
      post(handler, SYNC_PATHS.events, { community_id: alice.nodeId, events: [log.events[2]] }),
    );
    expect(other.rejected).toEqual([expect.objectContaining({ reason: 'wrong_community' })]);
  });

  it('answers §5.4 errors for bad requests', async () => {
    const { handler } = await nodeWith([]);
    const cases: [Request, number, string][] = [
      [new Request('http://node/sync/v1/nope'), 404, 'not_found'],
      [new Request(`http://node${SYNC_PATHS.events}`), 400, 'bad_request'],
      [new Request(`http://node${SYNC_PATHS.events}`, { method: 'POST', body: '{' }), 400, 'bad_request'],
      [new Request(`http://node${SYNC_PATHS.heads}`, { method: 'POST', body: '{}' }), 400, 'bad_request'],
      [
        new Request(`http://node${SYNC_PATHS.digests}`, { method: 'POST', body: '{"community_id":"x"}' }),
        400,
        'bad_request',
      ],
      [
        new Request(`http://node${SYNC_PATHS.fetch}`, {
          method: 'POST',
          body: JSON.stringify({ community_id: communityId, event_ids: ['a', 'b', 'c', 'd'] }),
        }),
        400,
        'bad_request',
      ],
    ];
    for (const [request, status, code] of cases) {
      const response = await handler(request);
      expect(response.status).toBe(status);
      expect((await read<{ error: string }>(response)).error).toBe(code);
    }
  });

  it('refuses bad options', () => {
    expect(() => createSyncHandler({ store: undefined as never })).toThrow(
      expect.objectContaining({ code: 'invalid_sync_options' }),
    );
    expect(() => createSyncHandler({ store: new InMemoryEventStore(), maxBatch: 0 })).toThrow(
      expect.objectContaining({ code: 'invalid_sync_options' }),
    );
  });
});

describe('syncWith', () => {
  const store = new InMemoryEventStore();

  it('refuses bad options', async () => {
    await expect(syncWith('not a url', { store })).rejects.toThrow(
      expect.objectContaining({ code: 'invalid_sync_options' }),
    );
    await expect(syncWith('http://node', { store, batchSize: 0 })).rejects.toThrow(
      expect.objectContaining({ code: 'invalid_sync_options' }),
    );
    await expect(syncWith('http://node', { store, communities: ['x'] })).rejects.toThrow(
      expect.objectContaining({ code: 'invalid_sync_options' }),
    );
  });

  it('throws PartitionError when the peer is unreachable and sync_protocol for a foreign answer', async () => {
    const failing = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch;
    await expect(syncWith('http://node', { store, fetch: failing })).rejects.toThrow(PartitionError);
    const foreign = (async () => new Response('{"heads":"no"}')) as typeof fetch;
    await expect(syncWith('http://node', { store, fetch: foreign })).rejects.toThrow(
      expect.objectContaining({ code: 'sync_protocol' }),
    );
    const refusing = (async () => new Response('{"error":"unauthorized"}', { status: 401 })) as typeof fetch;
    await expect(syncWith('http://node', { store, fetch: refusing })).rejects.toMatchObject({
      code: 'unauthorized',
    });
  });

  it('refuses a body over maxBodyBytes, also one streamed without a Content-Length, and stops reading it', async () => {
    const store = new InMemoryEventStore();
    const handler = createSyncHandler({ store, maxBodyBytes: 1024 });
    const declared = await handler(
      new Request(`http://node${SYNC_PATHS.events}`, { method: 'POST', body: 'x'.repeat(2048) }),
    );
    expect(declared.status).toBe(400);
    expect(await declared.json()).toMatchObject({
      error: 'bad_request',
      message: expect.stringContaining('1024'),
    });
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(256).fill(0x20));
      },
    });
    const streamed = await handler(
      new Request(`http://node${SYNC_PATHS.events}`, {
        method: 'POST',
        body: endless,
        duplex: 'half',
      } as RequestInit),
    );
    expect(streamed.status).toBe(400);
    expect(pulled).toBeLessThan(10);
    expect(() => createSyncHandler({ store, maxBodyBytes: 0 })).toThrow(
      expect.objectContaining({ code: 'invalid_sync_options' }),
    );
  });

  it('pulls and pushes through an in-process handler', async () => {
    const log = foundedCommunity();
    log.post(dave, 'p');
    const peer = await nodeWith(log.events.slice(0, 6));
    const local = new InMemoryEventStore();
    for (const event of log.events.slice(4)) await local.append(event);
    const fetchViaHandler = ((input: URL, init?: RequestInit) =>
      peer.handler(new Request(input, init))) as typeof fetch;
    const [report] = await syncWith('http://node', { store: local, fetch: fetchViaHandler, batchSize: 3 });
    expect(report!.pulled.accepted).toHaveLength(4);
    expect(report!.pushed.accepted.length).toBe(log.events.length - 6);
    expect(await peer.store.count()).toBe(log.events.length);
    expect(await local.count()).toBe(log.events.length);
  });
});
