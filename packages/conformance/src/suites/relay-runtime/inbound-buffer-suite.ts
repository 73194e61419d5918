import {
  type BufferedEntry,
  type BufferedFrame,
  encodeBufferedFrame,
  type InboundBuffer,
} from '@agentwire/relay';
import { assertEqual, assertRefuses, assertTrue, formatValue } from '../../assert.js';
import type { ConformanceCase, ConformanceSuite } from '../../suite.js';
import {
  INBOUND_BUFFER_SUITE_VERSION,
  RELAY_RUNTIME_SUITE_VERSION,
  SHARED_BACKEND_NEEDS,
  uniqueTenant,
  withInstances,
} from './runtime-support.js';

type Case = ConformanceCase<InboundBufferContext>;

const since = RELAY_RUNTIME_SUITE_VERSION;
const SECTION = 'InboundBuffer rules (@agentwire/relay buffer/inbound-buffer.ts); relay-reference §2.6';
const SECTION_SHARED = 'InboundBuffer rules; relay-reference §2.6; ARCHITECTURE decision 7';
const READ_ALL = 1000;
const ACK_ORDER_ENTRIES = 300;

/**
 * The order `ack.many-in-any-order` acknowledges `count` entries in: the oldest 60 % mostly from the
 * front (the pending run moves), then the rest scattered (holes), the first of them last.
 */
function scrambledAckOrder(count: number): number[] {
  const front = Math.floor(count * 0.6);
  const order: number[] = [];
  for (let i = 1; i < front; i += 1) order.push(i);
  order.push(0);
  const rest = Array.from({ length: count - front }, (_, i) => front + i);
  // A fixed shuffle (multiplication by a number prime to the length), the first entry of the rest last.
  const step = 7;
  for (let k = 1; k < rest.length; k += 1) order.push(rest[(k * step) % rest.length]!);
  order.push(rest[0]!);
  return order;
}

/** An inbound frame that says which one it is. */
function numberedFrame(index: number): BufferedFrame {
  return {
    type: 'inbound',
    event: {
      text: `message ${index}`,
      message_id: `m-${index}`,
      source: { platform: 'discord', chat_type: 'group', chat_id: '42', user_id: '7' },
      index,
    },
  };
}

/** Frames of both kinds with awkward content: non-ASCII, escapes, nesting, every JSON type. */
const VERBATIM_FRAMES: readonly BufferedFrame[] = [
  {
    type: 'inbound',
    event: {
      text: 'héllo 👋 "quoted" \\ back\nslash\u0000',
      message_type: 'text',
      source: { platform: 'telegram', chat_type: 'dm', chat_id: '-100123', user_id: '7', thread_id: null },
      media_urls: [],
      reply_to: null,
      metadata: {
        ratio: 1.5,
        largest_safe: 9007199254740991,
        negative: -3,
        flag: false,
        nested: { list: [1, 'two', null, { three: 3 }, [true]] },
        '': 'empty key',
      },
    },
  },
  {
    type: 'passthrough_forward',
    forward: {
      route: 'discord/interactions',
      headers: { 'content-type': 'application/json', 'x-signature-ed25519': 'ab01' },
      body_b64: 'eyJ0eXBlIjoxfQ==',
      session_key: 'agent:main:discord:group:42:7',
    },
  },
];

/** Appends `count` numbered frames one after another; resolves with their ids in append order. */
async function appendNumbered(buffer: InboundBuffer, tenant: string, count: number, from = 0) {
  const ids: string[] = [];
  for (let i = from; i < from + count; i += 1) ids.push(await buffer.append(tenant, numberedFrame(i)));
  return ids;
}

function idsOf(entries: readonly BufferedEntry[]): string[] {
  return entries.map((entry) => entry.bufferId);
}

function withBuffer<R>(ctx: InboundBufferContext, body: (buffer: InboundBuffer) => Promise<R>): Promise<R> {
  return withInstances(ctx.create, 1, ([buffer]) => body(buffer!));
}

/** Every rule of the `InboundBuffer` interface. */
export function bufferCases(suiteName: string): Case[] {
  const id = (rest: string) => `${suiteName}.${rest}`;
  return [
    {
      id: id('append.unique-ids'),
      title: 'append resolves with a non-empty string id, a different one each time',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withBuffer(ctx, async (buffer) => {
          const ids = await appendNumbered(buffer, uniqueTenant('buffer'), 30);
          assertTrue(
            ids.every((bufferId) => typeof bufferId === 'string' && bufferId !== ''),
            `ids are non-empty strings: ${formatValue(ids)}`,
          );
          assertEqual(new Set(ids).size, ids.length, `ids are unique: ${formatValue(ids)}`);
        }),
    },
    {
      id: id('read.append-order'),
      title: 'read from the start returns every pending entry in append order, with its id and frame',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withBuffer(ctx, async (buffer) => {
          const tenant = uniqueTenant('buffer');
          const ids = await appendNumbered(buffer, tenant, 12);
          const entries = await buffer.read(tenant, null, READ_ALL);
          assertEqual(
            entries,
            ids.map((bufferId, i) => ({ bufferId, frameJson: encodeBufferedFrame(numberedFrame(i)) })),
            'entries read',
          );
        }),
    },
    {
      id: id('read.does-not-consume'),
      title: 'reading does not remove entries: a second read returns them again',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withBuffer(ctx, async (buffer) => {
          const tenant = uniqueTenant('buffer');
          const ids = await appendNumbered(buffer, tenant, 3);
          await buffer.read(tenant, null, READ_ALL);
          assertEqual(idsOf(await buffer.read(tenant, null, READ_ALL)), ids, 'ids of the second read');
          assertEqual(await buffer.size(tenant), 3, 'size');
        }),
    },
    {
      id: id('read.after-exclusive'),
      title: 'read after an id returns only the entries appended after it',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withBuffer(ctx, async (buffer) => {
          const tenant = uniqueTenant('buffer');
          const ids = await appendNumbered(buffer, tenant, 8);
          assertEqual(idsOf(await buffer.read(tenant, ids[4]!, READ_ALL)), ids.slice(5), 'ids after the 5th');
          assertEqual(await buffer.read(tenant, ids[7]!, READ_ALL), [], 'entries after the last');
        }),
    },
    {
      id: id('read.limit'),
      title: 'read returns at most limit entries, the oldest first, and paging by the last id sees each once',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withBuffer(ctx, async (buffer) => {
          const tenant = uniqueTenant('buffer');
          const ids = await appendNumbered(buffer, tenant, 7);
          assertEqual(idsOf(await buffer.read(tenant, null, 1)), ids.slice(0, 1), 'limit 1');
          assertEqual(idsOf(await buffer.read(tenant, ids[1]!, 3)), ids.slice(2, 5), 'limit 3 after the 2nd');
          const paged: string[] = [];
          let after: string | null = null;
          for (let page = 0; page < 10; page += 1) {
            const entries: readonly BufferedEntry[] = await buffer.read(tenant, after, 2);
            assertTrue(entries.length <= 2, `a page of limit 2 has ${entries.length} entries`);
            if (entries.length === 0) break;
            paged.push(...idsOf(entries));
            after = entries[entries.length - 1]!.bufferId;
          }
          assertEqual(paged, ids, 'ids paged through with limit 2');
        }),
    },
    {
      id: id('ack.removes'),
      title: 'ack of a pending entry resolves true; the entry is never read again and size drops',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withBuffer(ctx, async (buffer) => {
          const tenant = uniqueTenant('buffer');
          const ids = await appendNumbered(buffer, tenant, 4);
          assertEqual(await buffer.ack(tenant, ids[1]!), true, 'ack of a pending entry');
          assertEqual(await buffer.size(tenant), 3, 'size after one ack');
          assertEqual(idsOf(await buffer.read(tenant, null, READ_ALL)), [ids[0], ids[2], ids[3]], 'ids read');
          assertEqual(
            idsOf(await buffer.read(tenant, ids[0]!, READ_ALL)),
            [ids[2], ids[3]],
            'ids after the 1st',
          );
        }),
    },
    {
      id: id('ack.idempotent'),
      title: 'a second ack of the same id resolves false and changes nothing',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withBuffer(ctx, async (buffer) => {
          const tenant = uniqueTenant('buffer');
          const ids = await appendNumbered(buffer, tenant, 2);
          assertEqual(await buffer.ack(tenant, ids[0]!), true, 'first ack');
          assertEqual(await buffer.ack(tenant, ids[0]!), false, 'second ack');
          assertEqual(idsOf(await buffer.read(tenant, null, READ_ALL)), [ids[1]], 'ids read');
        }),
    },
    {
      id: id('ack.unknown-id'),
      title: 'ack of an id the buffer never issued resolves false',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withBuffer(ctx, async (buffer) => {
          const tenant = uniqueTenant('buffer');
          const ids = await appendNumbered(buffer, tenant, 1);
          assertEqual(await buffer.ack(tenant, 'conformance-never-issued'), false, 'ack of a made-up id');
          assertEqual(await buffer.ack(tenant, ''), false, 'ack of ""');
          assertEqual(
            await buffer.ack(uniqueTenant('buffer'), ids[0]!),
            false,
            'ack on a tenant with no entries',
          );
          assertEqual(await buffer.size(tenant), 1, 'size');
        }),
    },
    {
      id: id('ack.other-tenant'),
      title: "ack of another tenant's pending id resolves false and leaves the entry pending",
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withBuffer(ctx, async (buffer) => {
          const [owner, intruder] = [uniqueTenant('buffer-a'), uniqueTenant('buffer-b')];
          const [ownerId] = await appendNumbered(buffer, owner, 1);
          assertEqual(await buffer.ack(intruder, ownerId!), false, "ack of the owner's id by another tenant");
          assertEqual(idsOf(await buffer.read(owner, null, READ_ALL)), [ownerId], "the owner's pending ids");
          assertEqual(await buffer.ack(owner, ownerId!), true, "ack of the owner's id by the owner");
        }),
    },
    {
      id: id('read.after-acknowledged-position'),
      title: 'an afterId acknowledged meanwhile still works as a position',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withBuffer(ctx, async (buffer) => {
          const tenant = uniqueTenant('buffer');
          const ids = await appendNumbered(buffer, tenant, 5);
          await buffer.ack(tenant, ids[1]!);
          await buffer.ack(tenant, ids[2]!);
          assertEqual(
            idsOf(await buffer.read(tenant, ids[1]!, READ_ALL)),
            ids.slice(3),
            'ids after an acked id',
          );
          for (const bufferId of ids) await buffer.ack(tenant, bufferId);
          assertEqual(await buffer.read(tenant, ids[4]!, READ_ALL), [], 'entries after the last, all acked');
          const [next] = await appendNumbered(buffer, tenant, 1, 5);
          assertEqual(
            idsOf(await buffer.read(tenant, ids[4]!, READ_ALL)),
            [next],
            'ids after it, appended later',
          );
        }),
    },
    {
      id: id('ids.never-reused'),
      title: 'after every entry is acknowledged, new entries get new ids that sort after the old ones',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withBuffer(ctx, async (buffer) => {
          const tenant = uniqueTenant('buffer');
          const old = await appendNumbered(buffer, tenant, 3);
          for (const bufferId of old)
            assertEqual(await buffer.ack(tenant, bufferId), true, `ack of ${bufferId}`);
          assertEqual(await buffer.size(tenant), 0, 'size after acking everything');
          const fresh = await appendNumbered(buffer, tenant, 3, 3);
          const reused = fresh.filter((bufferId) => old.includes(bufferId));
          assertEqual(reused, [], 'ids issued again');
          assertEqual(
            idsOf(await buffer.read(tenant, old[2]!, READ_ALL)),
            fresh,
            'ids after the last old one',
          );
          assertEqual(await buffer.ack(tenant, old[0]!), false, 'ack of an old id');
        }),
    },
    {
      id: id('tenant.isolation'),
      title: "tenants never see each other's entries in read or size",
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withBuffer(ctx, async (buffer) => {
          const [tenantA, tenantB] = [uniqueTenant('buffer-a'), uniqueTenant('buffer-b')];
          const idsA = await appendNumbered(buffer, tenantA, 3);
          const idsB = await appendNumbered(buffer, tenantB, 2, 100);
          assertEqual(idsOf(await buffer.read(tenantA, null, READ_ALL)), idsA, "tenant A's ids");
          assertEqual(
            await buffer.read(tenantB, null, READ_ALL),
            idsB.map((bufferId, i) => ({ bufferId, frameJson: encodeBufferedFrame(numberedFrame(100 + i)) })),
            "tenant B's entries",
          );
          assertEqual([await buffer.size(tenantA), await buffer.size(tenantB)], [3, 2], 'sizes');
        }),
    },
    {
      id: id('read.unknown-tenant-empty'),
      title: 'a tenant that never appended reads as empty with size 0',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withBuffer(ctx, async (buffer) => {
          const tenant = uniqueTenant('buffer');
          assertEqual(await buffer.read(tenant, null, READ_ALL), [], 'entries');
          assertEqual(await buffer.size(tenant), 0, 'size');
        }),
    },
    {
      id: id('frame.verbatim'),
      title:
        'inbound and passthrough_forward frames come back as the text encodeBufferedFrame writes for them',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withBuffer(ctx, async (buffer) => {
          const tenant = uniqueTenant('buffer');
          const ids: string[] = [];
          for (const frame of VERBATIM_FRAMES) ids.push(await buffer.append(tenant, frame));
          assertEqual(
            await buffer.read(tenant, null, READ_ALL),
            VERBATIM_FRAMES.map((frame, i) => ({ bufferId: ids[i], frameJson: encodeBufferedFrame(frame) })),
            'entries read',
          );
        }),
    },
    {
      id: id('frame.key-order-kept'),
      title: 'frames come back with type first and the payload keys in the order they were appended with',
      section: SECTION,
      level: 'recommended',
      since,
      run: (ctx) =>
        withBuffer(ctx, async (buffer) => {
          const tenant = uniqueTenant('buffer');
          for (const frame of VERBATIM_FRAMES) await buffer.append(tenant, frame);
          const read = (await buffer.read(tenant, null, READ_ALL)).map((entry) => entry.frameJson);
          assertEqual(
            read,
            VERBATIM_FRAMES.map((frame) => JSON.stringify(frame)),
            'frames as JSON text',
          );
        }),
    },
    {
      id: id('append.concurrent'),
      title: 'concurrent appends each get their own id, and read pairs every id with its frame',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withBuffer(ctx, async (buffer) => {
          const tenant = uniqueTenant('buffer');
          const frames = Array.from({ length: 25 }, (_, i) => numberedFrame(i));
          const ids = await Promise.all(frames.map((frame) => buffer.append(tenant, frame)));
          assertEqual(new Set(ids).size, ids.length, `ids are unique: ${formatValue(ids)}`);
          const entries = await buffer.read(tenant, null, READ_ALL);
          const byId = new Map(entries.map((e) => [e.bufferId, e.frameJson]));
          assertEqual(byId.size, frames.length, 'entries read');
          for (const [i, bufferId] of ids.entries()) {
            assertEqual(
              byId.get(bufferId),
              encodeBufferedFrame(frames[i]!),
              `the frame read under ${bufferId}`,
            );
          }
        }),
    },
    {
      id: id('arguments.refused'),
      title:
        'a malformed tenant, frame, limit, afterId or bufferId is refused with invalid_buffer_argument naming it (path)',
      section: SECTION,
      level: 'recommended',
      since,
      run: (ctx) =>
        withBuffer(ctx, async (buffer) => {
          const tenant = uniqueTenant('buffer');
          const refused = (action: () => Promise<unknown>, path: string, what: string) =>
            assertRefuses(action, { code: 'invalid_buffer_argument', path }, what);
          const asTenant = (value: unknown) => value as string;
          for (const [what, bad] of [
            ['""', ''],
            ['42', 42],
            ['null', null],
            ['a lone high surrogate', '\uD800'],
            ['a lone low surrogate', 'tenant-\uDC00'],
            ['a lone high surrogate inside', 'a\uD800b'],
          ] as const) {
            await refused(
              () => buffer.append(asTenant(bad), numberedFrame(0)),
              'tenant',
              `append to tenant ${what}`,
            );
            await refused(() => buffer.read(asTenant(bad), null, 1), 'tenant', `read of tenant ${what}`);
            await refused(() => buffer.ack(asTenant(bad), '1'), 'tenant', `ack on tenant ${what}`);
            await refused(() => buffer.size(asTenant(bad)), 'tenant', `size of tenant ${what}`);
          }
          const asFrame = (value: unknown) => value as BufferedFrame;
          const frames: readonly [string, string, BufferedFrame][] = [
            ['null', 'frame', asFrame(null)],
            ['an array', 'frame', asFrame([numberedFrame(0)])],
            ['of type "outbound"', 'frame.type', asFrame({ type: 'outbound', event: {} })],
            ['of type "outbound" with a forward', 'frame.type', asFrame({ type: 'outbound', forward: {} })],
            ['whose event is a string', 'frame.event', asFrame({ type: 'inbound', event: 'hello' })],
            [
              'whose forward is an array',
              'frame.forward',
              asFrame({ type: 'passthrough_forward', forward: [] }),
            ],
            ['with an extra key', 'frame.extra', asFrame({ type: 'inbound', event: {}, extra: 1 })],
            ['holding NaN', 'frame.event', asFrame({ type: 'inbound', event: { n: Number.NaN } })],
          ];
          for (const [what, path, frame] of frames) {
            await refused(() => buffer.append(tenant, frame), path, `append of a frame ${what}`);
          }
          for (const limit of [0, -1, 1.5, Number.NaN, '2']) {
            await refused(
              () => buffer.read(tenant, null, limit as number),
              'limit',
              `read with limit ${formatValue(limit)}`,
            );
          }
          for (const afterId of ['not-an-id', 'x1', '1x', '', 42]) {
            await refused(
              () => buffer.read(tenant, afterId as string, 1),
              'afterId',
              `read after ${formatValue(afterId)}`,
            );
          }
          await refused(() => buffer.ack(tenant, 42 as unknown as string), 'bufferId', 'ack of bufferId 42');
          assertEqual(await buffer.size(tenant), 0, 'size after the refused appends');
          const astral = `${uniqueTenant('buffer')}-\uD83D\uDE00`;
          await buffer.append(astral, numberedFrame(1));
          assertEqual(await buffer.size(astral), 1, 'size of a tenant with an astral character');
        }),
    },
    {
      id: id('close.refuses-use'),
      title: 'after close, append, read, ack and size reject with buffer_closed',
      section: SECTION,
      level: 'recommended',
      since,
      run: async (ctx) => {
        const buffer = await ctx.create();
        const tenant = uniqueTenant('buffer');
        const [bufferId] = await appendNumbered(buffer, tenant, 1);
        await buffer.close();
        const closed = (action: () => Promise<unknown>, what: string) =>
          assertRefuses(action, { code: 'buffer_closed' }, what);
        await closed(() => buffer.append(tenant, numberedFrame(0)), 'append after close');
        await closed(() => buffer.read(tenant, null, 1), 'read after close');
        await closed(() => buffer.ack(tenant, bufferId!), 'ack after close');
        await closed(() => buffer.size(tenant), 'size after close');
      },
    },
    {
      id: id('ack.many-in-any-order'),
      title: `${ACK_ORDER_ENTRIES} entries acknowledged in a scrambled order: every read sees exactly the pending ones, in order`,
      section: SECTION,
      level: 'required',
      since: INBOUND_BUFFER_SUITE_VERSION,
      run: (ctx) =>
        withBuffer(ctx, async (buffer) => {
          const tenant = uniqueTenant('buffer');
          const ids = await appendNumbered(buffer, tenant, ACK_ORDER_ENTRIES);
          const pending = new Set(ids);
          for (const [step, index] of scrambledAckOrder(ACK_ORDER_ENTRIES).entries()) {
            assertEqual(await buffer.ack(tenant, ids[index]!), true, `ack of entry ${index}`);
            pending.delete(ids[index]!);
            if (step % 25 !== 24 && step !== ACK_ORDER_ENTRIES - 1) continue;
            const expected = ids.filter((bufferId) => pending.has(bufferId));
            assertEqual(
              idsOf(await buffer.read(tenant, null, READ_ALL)),
              expected,
              `ids read after ${step + 1} acks`,
            );
            const middle = ids[Math.floor(ACK_ORDER_ENTRIES / 2)]!;
            assertEqual(
              idsOf(await buffer.read(tenant, middle, READ_ALL)),
              expected.filter((bufferId) => ids.indexOf(bufferId) > ids.indexOf(middle)),
              `ids read after the middle entry, after ${step + 1} acks`,
            );
            assertEqual(await buffer.size(tenant), expected.length, `size after ${step + 1} acks`);
          }
          const [next] = await appendNumbered(buffer, tenant, 1, ACK_ORDER_ENTRIES);
          assertEqual(
            idsOf(await buffer.read(tenant, null, READ_ALL)),
            [next],
            'ids read after a new append',
          );
        }),
    },
    {
      id: id('shared.survives-into-another-instance'),
      title: 'entries appended on one instance are read and acknowledged on one created afterwards',
      section: SECTION_SHARED,
      level: 'required',
      requires: 'shared-backend',
      since,
      run: async (ctx) => {
        const tenant = uniqueTenant('buffer');
        const ids = await withBuffer(ctx, (writer) => appendNumbered(writer, tenant, 4));
        await withInstances(ctx.create, 2, async ([reader, other]) => {
          assertEqual(
            await reader!.read(tenant, null, READ_ALL),
            ids.map((bufferId, i) => ({ bufferId, frameJson: encodeBufferedFrame(numberedFrame(i)) })),
            'entries read on the new instance',
          );
          assertEqual(await reader!.ack(tenant, ids[0]!), true, 'ack on the new instance');
          assertEqual(await other!.ack(tenant, ids[0]!), false, 'ack of the same id on a third instance');
          assertEqual(await other!.size(tenant), 3, 'size on a third instance');
          const [next] = await appendNumbered(other!, tenant, 1, 4);
          assertTrue(!ids.includes(next!), `an id appended on a third instance is new (${next})`);
          assertEqual(
            idsOf(await reader!.read(tenant, ids[3]!, READ_ALL)),
            [next],
            'ids after the last old one',
          );
        });
      },
    },
  ];
}

/** Options of {@link inboundBufferSuite}. */
export interface InboundBufferSuiteOptions {
  /** Creates a fresh, open buffer. Cases call it once or more and close every buffer they create. */
  readonly create: () => InboundBuffer | Promise<InboundBuffer>;
  /**
   * `true` when buffers from `create` share one backend (e.g. Redis): what one appends, another
   * reads and acknowledges, also one created afterwards. Capability `shared-backend`.
   */
  readonly sharedBackend?: boolean;
  /** Releases what the caller set up for the run; called after the last case. */
  readonly dispose?: () => void | Promise<void>;
}

/** The context every case of {@link inboundBufferSuite} receives. */
export interface InboundBufferContext {
  readonly create: () => Promise<InboundBuffer>;
}

const SUITE_NAME = 'relay-runtime.buffer';

/**
 * The `InboundBuffer` rules (relay-reference §2.6): unique ids never reused, reads in append order
 * strictly after a position (also one acknowledged meanwhile) and at most `limit` long, idempotent
 * `ack` that never crosses tenants, `size`, frames replayed verbatim, and — with capability
 * `shared-backend` — entries surviving into another instance. Tenants are fresh per case, so a
 * shared backend needs no cleaning between cases.
 *
 * @example
 * ```ts
 * import { InMemoryInboundBuffer } from '@agentwire/relay/testing';
 * const report = await runSuite(inboundBufferSuite({ create: () => new InMemoryInboundBuffer() }));
 * ```
 */
export function inboundBufferSuite(
  options: InboundBufferSuiteOptions,
): ConformanceSuite<InboundBufferContext> {
  const capabilities = new Set<string>();
  if (options.sharedBackend === true) capabilities.add('shared-backend');
  return {
    name: SUITE_NAME,
    version: INBOUND_BUFFER_SUITE_VERSION,
    description:
      'The InboundBuffer rules: unique, never reused ids; ordered, exclusive, limited reads; idempotent, ' +
      'tenant-bound acks; size; verbatim frames; entries shared between instances of one backend.',
    cases: bufferCases(SUITE_NAME),
    needs: SHARED_BACKEND_NEEDS,
    setup: () => ({
      ctx: { create: async () => options.create() },
      capabilities,
      ...(options.dispose === undefined ? {} : { dispose: options.dispose }),
    }),
  };
}
