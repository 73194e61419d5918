// The `sync.*` cases of `hearthnet.node`: the gossip endpoints of contract §7.6.

import { parseNodeId } from '@agentwire/hearthnet';
import { createEvent, type SignedEvent } from '@agentwire/hearthnet/events';
import { SYNC_PATHS } from '@agentwire/hearthnet/sync';
import { JSON_CONTENT_TYPE } from '@agentwire/hearthnet/wire';
import { isJsonObject } from '@agentwire/internal';
import { assertTrue, fail } from '../../assert.js';
import type { ConformanceCase } from '../../suite.js';
import type { HearthNetNodeSuiteContext } from './node-suite-checks.js';
import { clip, expectError, expectStatus, nodeCase, readJsonBody } from './node-suite-checks.js';

type Ctx = HearthNetNodeSuiteContext;

/** The version the `sync.*` cases arrived in. */
const SINCE = '1.2.0';

/** The sync cases. */
export function syncCases(): readonly ConformanceCase<Ctx>[] {
  return [
    nodeCase(
      'sync.heads',
      'GET /sync/v1/heads answers {community_id: head lamport} with full community ids and counts',
      'HearthNet §7.6',
      'required',
      'sync',
      async (ctx) => {
        await fetchHeads(ctx);
      },
      SINCE,
    ),
    nodeCase(
      'sync.events-forged-refused',
      'POST /sync/v1/events with an event altered after signing: not accepted, listed as rejected, {accepted, rejected, new_head_lamport}',
      'HearthNet §7.1, §7.6',
      'required',
      'sync',
      async (ctx) => {
        const head = (await fetchHeads(ctx)).get(ctx.community) ?? 0;
        const signed = probeEvent(ctx, head + 1);
        const forged = { ...signed, data: { ...signed.data, title: 'Altered after signing' } };
        const result = await postEvents(ctx, [forged]);
        assertTrue(
          !accepts(result.accepted, forged.event_id),
          `an event altered after signing was accepted: ${clip(result.body)}`,
        );
        assertTrue(
          rejects(result.rejected, forged.event_id),
          `an event altered after signing is not listed in rejected: ${clip(result.body)}`,
        );
      },
      SINCE,
    ),
    nodeCase(
      'sync.events-malformed',
      'POST /sync/v1/events with a body that is not JSON, or JSON that is not {community_id, events}, answers 400 bad_request, and the node keeps serving',
      'HearthNet §5.4, §7.6, §9',
      'required',
      'sync',
      async (ctx) => {
        const post = (body: string) =>
          ctx.fetch(new URL(SYNC_PATHS.events, ctx.url), {
            method: 'POST',
            headers: { 'Content-Type': JSON_CONTENT_TYPE, Accept: JSON_CONTENT_TYPE },
            body,
          });
        await expectError(await post('{"community_id": '), ['bad_request'], 'a truncated sync body');
        // JSON, but not the §7.6 request: a node that reads it as one fails with internal_error.
        await expectError(
          await post('{"community_id": 42, "events": "none"}'),
          ['bad_request'],
          'a sync body whose community_id is a number and events a string',
        );
        await fetchHeads(ctx);
      },
      SINCE,
    ),
    nodeCase(
      'sync.events-push',
      "POST /sync/v1/events with a member's signed market.post.created: accepted, the head moves to its lamport, a second push changes nothing",
      'HearthNet §7.6',
      'recommended',
      'sync-push',
      async (ctx) => {
        const before = (await fetchHeads(ctx)).get(ctx.community) ?? 0;
        const event = probeEvent(ctx, before + 1);
        const first = await postEvents(ctx, [event]);
        assertTrue(
          accepts(first.accepted, event.event_id),
          `a member's signed event was not accepted: ${clip(first.body)}`,
        );
        assertTrue(
          first.newHead !== null && first.newHead >= event.lamport,
          `new_head_lamport is ${String(first.newHead)} after accepting lamport ${event.lamport}`,
        );
        const after = (await fetchHeads(ctx)).get(ctx.community);
        assertTrue(
          after !== undefined && after >= event.lamport,
          `GET ${SYNC_PATHS.heads} answers ${String(after)} for the community after an event at lamport ${event.lamport} was accepted`,
        );
        const again = await postEvents(ctx, [event]);
        assertTrue(
          !rejects(again.rejected, event.event_id),
          `pushing a stored event again rejected it: ${clip(again.body)}`,
        );
        const unchanged = (await fetchHeads(ctx)).get(ctx.community);
        assertTrue(
          unchanged === after,
          `pushing a stored event again moved the head from ${String(after)} to ${String(unchanged)}`,
        );
      },
      SINCE,
    ),
  ];
}

/** A `market.post.created` of the suite's identity at `lamport`, short-lived. */
export function probeEvent(ctx: Ctx, lamport: number): SignedEvent<'market.post.created'> {
  return createEvent(
    {
      community_id: ctx.community,
      event_type: 'market.post.created',
      data: {
        client_id: `conformance-${crypto.randomUUID()}`,
        category: 'offer',
        title: 'Conformance sync probe',
        ttl_seconds: 60,
      },
      lamport,
    },
    ctx.identity,
  );
}

export async function fetchHeads(ctx: Ctx): Promise<Map<string, number>> {
  const response = await ctx.fetch(new URL(SYNC_PATHS.heads, ctx.url), {
    headers: { Accept: JSON_CONTENT_TYPE },
  });
  await expectStatus(response, 200, `GET ${SYNC_PATHS.heads}`);
  const body = await readJsonBody(response);
  if (!isJsonObject(body)) fail(`GET ${SYNC_PATHS.heads} answered ${clip(body)}, not an object`);
  const heads = new Map<string, number>();
  for (const [community, head] of Object.entries(body)) {
    try {
      parseNodeId(community);
    } catch (error) {
      fail(`GET ${SYNC_PATHS.heads}: the key ${JSON.stringify(community)} is not a full community id`, error);
    }
    assertTrue(
      Number.isSafeInteger(head) && (head as number) >= 0,
      `GET ${SYNC_PATHS.heads}: the head of ${community} is ${clip(head)}, not a lamport count`,
    );
    heads.set(community, head as number);
  }
  return heads;
}

export interface PushResult {
  readonly body: Record<string, unknown>;
  readonly accepted: unknown;
  readonly rejected: unknown;
  readonly newHead: number | null;
}

/** Posts events and checks the §7.6 answer `{accepted, rejected, new_head_lamport}`. */
export async function postEvents(ctx: Ctx, events: readonly unknown[]): Promise<PushResult> {
  const response = await ctx.fetch(new URL(SYNC_PATHS.events, ctx.url), {
    method: 'POST',
    headers: { 'Content-Type': JSON_CONTENT_TYPE, Accept: JSON_CONTENT_TYPE },
    body: JSON.stringify({ community_id: ctx.community, events }),
  });
  await expectStatus(response, 200, `POST ${SYNC_PATHS.events}`);
  const body = await readJsonBody(response);
  if (!isJsonObject(body)) fail(`POST ${SYNC_PATHS.events} answered ${clip(body)}, not an object`);
  for (const key of ['accepted', 'rejected', 'new_head_lamport']) {
    assertTrue(
      key in body,
      `POST ${SYNC_PATHS.events}: the answer has no "${key}" (§7.6 step 3): ${clip(body)}`,
    );
  }
  const newHead = body['new_head_lamport'];
  assertTrue(
    newHead === null || (Number.isSafeInteger(newHead) && (newHead as number) >= 0),
    `new_head_lamport is ${clip(newHead)}, not a lamport count or null`,
  );
  for (const key of ['accepted', 'rejected']) {
    const value = body[key];
    assertTrue(
      Array.isArray(value) || (Number.isSafeInteger(value) && (value as number) >= 0),
      `"${key}" is ${clip(value)}: neither a list nor a count`,
    );
  }
  return { body, accepted: body['accepted'], rejected: body['rejected'], newHead: newHead as number | null };
}

/** Whether an `accepted` answer (a list of ids, or a count for a single pushed event) includes the event. */
function accepts(accepted: unknown, eventId: string): boolean {
  return Array.isArray(accepted) ? accepted.includes(eventId) : accepted === 1;
}

/** Whether a `rejected` answer (ids, `{event_id, …}` entries, or a count) names the event. */
function rejects(rejected: unknown, eventId: string): boolean {
  if (!Array.isArray(rejected)) return typeof rejected === 'number' && rejected > 0;
  return rejected.some(
    (entry) => entry === eventId || (isJsonObject(entry) && entry['event_id'] === eventId),
  );
}
