// hearthnetNodeSuite against live nodes on 127.0.0.1: ours (a bus handler with a deterministic
// backend), and copies of it with one flaw each, which must fail exactly the cases about that flaw.

import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { keyPairFromSeed } from '@agentwire/hearthnet';
import { InMemoryBlobStore, registerFileCapabilities } from '@agentwire/hearthnet/blobs';
import { CapabilityRegistry, catalogueDescriptor } from '@agentwire/hearthnet/capabilities';
import { InMemoryEventStore } from '@agentwire/hearthnet/events';
import { createManifestHandler } from '@agentwire/hearthnet/manifests';
import { type ServedBusHandler, serveBusHandler, type WebHandler } from '@agentwire/hearthnet/node-http';
import { createPubSubHandler, PublishingEventStore, TopicHub } from '@agentwire/hearthnet/pubsub';
import { trustFromLog } from '@agentwire/hearthnet/replay';
import { createSyncHandler } from '@agentwire/hearthnet/sync';
import {
  type BusHandlerOptions,
  type CapabilityHandler,
  createBusHandler,
  routeByPath,
  type TrustPolicy,
} from '@agentwire/hearthnet/wire';
import { afterEach, describe, expect, it } from 'vitest';
import { runSuite, type SuiteReport } from '../../run-suite.js';
import { foundedCommunityLog, revocationLog, startAgentwireNode } from './agentwire-node.js';
import { type HearthNetNodeSuiteOptions, hearthnetNodeSuite } from './node-suite.js';

const server = keyPairFromSeed(new Uint8Array(32).fill(41));
const member = keyPairFromSeed(new Uint8Array(32).fill(42));
const stranger = keyPairFromSeed(new Uint8Array(32).fill(43));
const revokedNode = keyPairFromSeed(new Uint8Array(32).fill(44));
const community = server.nodeId;
const MAX_CONCURRENT_CHATS = 2;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/** A backend flaw: `llm.chat` streams hold a lock that only a stream run to its end gives back. */
function leakyLock() {
  let held = false;
  const waiting: (() => void)[] = [];
  return {
    async acquire() {
      while (held) await new Promise<void>((resolve) => waiting.push(resolve));
      held = true;
    },
    release() {
      held = false;
      waiting.shift()?.();
    },
  };
}

/**
 * Our node: `market.post` and `llm.chat` from a deterministic backend (token `t<i>` every 2 ms up to
 * `max_tokens`), `max_concurrent` 2 for chats, the `file.*` capabilities over an in-memory blob store,
 * and the pub-sub long poll beside the bus. The member is trusted, so it may `file.put`.
 */
function nodeHandler(
  options: Partial<BusHandlerOptions> = {},
  flaws: {
    leakyChat?: boolean;
    openPubSub?: boolean;
    forgetfulStore?: boolean;
    manifest?: 'unsigned' | 'foreign-community' | 'wrong-schema-hash';
    credulousSync?: boolean;
  } = {},
) {
  const registry = new CapabilityRegistry<CapabilityHandler>({});
  let posts = 0;
  registry.register(
    catalogueDescriptor('market.post'),
    () => {
      posts += 1;
      return { output: { event_id: `evt-${posts}`, lamport: posts }, meta: { ms: 0 } };
    },
    { maxConcurrent: 8 },
  );
  const lock = leakyLock();
  registry.register(
    catalogueDescriptor('llm.chat'),
    ({ input }, context) => {
      const max = input['max_tokens'] as number;
      return (async function* () {
        if (flaws.leakyChat === true) await lock.acquire();
        for (let i = 0; i < max; i += 1) {
          await sleep(2, context.signal);
          yield { event: 'token', data: { text: `t${i} ` } };
        }
        // The flaw: not in a `finally`, so a cancelled stream never gets here.
        if (flaws.leakyChat === true) lock.release();
        yield { event: 'done', data: { tokens_out: max, stop_reason: 'max_tokens' } };
      })();
    },
    { maxConcurrent: MAX_CONCURRENT_CHATS, params: { model: 'echo' } },
  );
  registerFileCapabilities(registry, {
    store: flaws.forgetfulStore === true ? new ForgetfulBlobStore() : new InMemoryBlobStore(),
  });
  // Events stored by sync reach the long poll, as in agentwire's bundled node.
  const hub = new TopicHub();
  const store = new PublishingEventStore(new InMemoryEventStore(), hub);
  const seeded = (async () => {
    for (const event of [
      ...foundedCommunityLog(server, member),
      ...revocationLog(server, member, revokedNode),
    ]) {
      await store.append(event);
    }
  })();
  // Trust follows the community log, as in the bundled node: the member trusted, revokedNode revoked,
  // and a member that sync brings in counted.
  const fromLog = trustFromLog({ store, communityId: community });
  const trust: TrustPolicy = {
    trustOf: async (nodeId) => {
      await seeded;
      return fromLog.trustOf(nodeId);
    },
  };
  const sync = createSyncHandler({ store });
  return routeByPath({
    '/manifest': manifestHandler(registry, flaws.manifest),
    '/sync/v1/': async (request) => {
      await seeded;
      const response = await sync(request);
      return flaws.credulousSync === true ? acceptingEverything(response) : response;
    },
    '/bus/v1/call': createBusHandler({
      identity: server,
      registry,
      community,
      trust,
      retryAfterMs: 250,
      ...options,
    }),
    '/pubsub/v1/subscribe':
      flaws.openPubSub === true
        ? openSubscribeHandler
        : createPubSubHandler({ identity: server, hub, trust, community }),
  });
}

/** The node's manifest handler, or one with a flaw. */
function manifestHandler(
  registry: CapabilityRegistry<CapabilityHandler>,
  flaw: 'unsigned' | 'foreign-community' | 'wrong-schema-hash' | undefined,
): WebHandler {
  const input = () => {
    const capabilities = registry.manifestEntries();
    return {
      display_name: 'conformance-node',
      community_id: flaw === 'foreign-community' ? stranger.nodeId : community,
      profile: 'hearth' as const,
      endpoints: [],
      capabilities:
        flaw === 'wrong-schema-hash'
          ? capabilities.map((entry) => ({ ...entry, schema_hash: `blake3:${'0'.repeat(64)}` }))
          : capabilities,
    };
  };
  if (flaw === 'unsigned') {
    // What the reference node serves: no signature, no timestamps, no endpoints.
    return async () => {
      const { endpoints: _, ...fields } = input();
      return Response.json({ version: 1, contract_version: '1.0', node_id: server.nodeId, ...fields });
    };
  }
  return createManifestHandler({ key: server, input });
}

/** A flaw: a sync endpoint that reports every pushed event as accepted. */
async function acceptingEverything(response: Response): Promise<Response> {
  const body = (await response.json()) as Record<string, unknown>;
  if (!Array.isArray(body['rejected'])) return Response.json(body, { status: response.status });
  const rejected = body['rejected'] as { event_id: string | null }[];
  return Response.json({
    ...body,
    accepted: [...(body['accepted'] as string[]), ...rejected.map((entry) => entry.event_id)],
    rejected: [],
  });
}

/** A flaw: a store that asks `file.put` for every chunk again, as if it kept none. */
class ForgetfulBlobStore extends InMemoryBlobStore {
  override async missingChunks(
    manifest: Parameters<InMemoryBlobStore['missingChunks']>[0],
  ): Promise<number[]> {
    return manifest.chunks.map((chunk) => chunk.i);
  }
}

/** A flaw: a long-poll endpoint that answers every topic to everyone, local-only and others' chats included. */
const openSubscribeHandler: WebHandler = async (request) =>
  new Response(JSON.stringify({ items: [], cursor: 0, gap: false }), {
    status: 200,
    headers: {
      'Content-Type': 'application/json',
      'X-HearthNet-From': server.nodeId,
      'X-HearthNet-Request-Id': request.headers.get('X-HearthNet-Request-Id') ?? '',
    },
  });

/** Rewrites the status and body of every JSON error response. */
function rewritingErrors(
  handler: WebHandler,
  rewrite: (status: number, body: Record<string, unknown>) => [number, Record<string, unknown>],
): WebHandler {
  return async (request) => {
    const response = await handler(request);
    if (response.status < 400) return response;
    const [status, body] = rewrite(response.status, (await response.json()) as Record<string, unknown>);
    return new Response(JSON.stringify(body), { status, headers: response.headers });
  };
}

/** Drops the `done` frame from every stream. */
function withoutDoneFrames(handler: WebHandler): WebHandler {
  const text = new TextDecoder();
  return async (request) => {
    const response = await handler(request);
    if (response.headers.get('Content-Type') !== 'text/event-stream' || response.body === null)
      return response;
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (!text.decode(chunk).startsWith('event: done')) controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: response.status, headers: response.headers });
  };
}

const served: ServedBusHandler[] = [];
afterEach(async () => {
  await Promise.all(served.splice(0).map((node) => node.close()));
});

async function serve(handler: WebHandler): Promise<string> {
  const node = await serveBusHandler(handler);
  served.push(node);
  return node.url;
}

const chat = (maxTokens: number) => ({
  capability: 'llm.chat',
  params: { model: 'echo' },
  input: { messages: [{ role: 'user', content: 'hallo' }], max_tokens: maxTokens },
});

function fullOptions(baseUrl: string): HearthNetNodeSuiteOptions {
  return {
    baseUrl,
    identity: member,
    community,
    expectNodeId: server.nodeId,
    patienceMs: 1000,
    capabilities: {
      call: {
        capability: 'market.post',
        input: { client_id: 'c-1', category: 'offer', title: 'Wasserkanister, 20L' },
      },
      stream: chat(3),
      longStream: { ...chat(1_000_000), maxConcurrent: MAX_CONCURRENT_CHATS },
      subscribe: {},
      blobs: { put: true },
      manifest: {},
      sync: { push: true, invite: true },
      revoked: revokedNode,
    },
  };
}

const shortIds = (report: SuiteReport, status: string) =>
  report.results.filter((r) => r.status === status).map((r) => r.id.replace('hearthnet.node.', ''));

describe('hearthnetNodeSuite', () => {
  it('passes our node with every case run', async () => {
    const report = await runSuite(hearthnetNodeSuite(fullOptions(await serve(nodeHandler()))));
    expect(report.errors).toEqual([]);
    expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
    expect(report.counts.passed).toBe(41);
    expect(report.ok).toBe(true);
  });

  it("passes agentwire's bundled node, whose market.post writes to the log that sync serves", async () => {
    const node = await startAgentwireNode();
    try {
      const report = await runSuite(hearthnetNodeSuite(node.suiteOptions));
      expect(report.errors).toEqual([]);
      expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
      const heads = (await (await fetch(new URL('/sync/v1/heads', node.url))).json()) as Record<
        string,
        number
      >;
      // Three founding events, the sync probe, and a post per market.post call.
      expect(heads[node.node.nodeId]).toBeGreaterThan(4);
    } finally {
      await node.close();
    }
  });

  it('aborts the requests of a case that runs past its timeout, so nothing stays open', async () => {
    const open = new Set<IncomingMessage>();
    let aborted = 0;
    const hanging = createServer((request) => {
      open.add(request);
      request.resume();
      request.socket.once('close', () => {
        open.delete(request);
        aborted += 1;
      });
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = hanging.address() as AddressInfo;
      const suite = hearthnetNodeSuite({ baseUrl: `http://127.0.0.1:${port}`, identity: member, community });
      const report = await runSuite(suite, { timeoutMs: 150, filter: (c) => c.id.endsWith('.call.ok') });
      expect(report.results.map((r) => [r.status, (r.error as { code?: string } | undefined)?.code])).toEqual(
        [['failed', 'case_timeout']],
      );
      while (open.size > 0) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(aborted).toBe(1);
    } finally {
      hanging.closeAllConnections();
      await new Promise((resolve) => hanging.close(resolve));
    }
  });

  it('exercises market.post by default and skips the stream cases', async () => {
    const report = await runSuite(
      hearthnetNodeSuite({ baseUrl: await serve(nodeHandler()), identity: member, community }),
    );
    expect(report.ok).toBe(true);
    expect(shortIds(report, 'skipped')).toEqual([
      'errors.revoked',
      'stream.frames',
      'stream.terminal',
      'stream.not-requested',
      'stream.abort',
      'capacity.retry-after',
      'subscribe.poll',
      'subscribe.local-only-refused',
      'subscribe.other-recipient-refused',
      'subscribe.delivers',
      'subscribe.unknown-cursor',
      'subscribe.gap-resume',
      'subscribe.no-silent-loss',
      'subscribe.other-community-refused',
      'subscribe.malformed-query',
      'blobs.read-unknown',
      'blobs.put-read',
      'blobs.put-client-frames',
      'sync.events-push',
      'sync.membership-below-head',
    ]);
    const skipped = report.results.find((r) => r.id === 'hearthnet.node.subscribe.poll');
    expect(skipped?.reason).toContain('"subscribe"');
    const signature = report.results.find((r) => r.id === 'hearthnet.node.call.response-signature');
    expect(signature?.level).toBe('required');
  });

  it('rates the response signature of a non-mutating call as recommended', () => {
    const suite = hearthnetNodeSuite({
      baseUrl: 'http://127.0.0.1:9',
      identity: member,
      community,
      capabilities: { call: { capability: 'market.list', input: {} } },
    });
    expect(suite.cases.find((c) => c.id.endsWith('call.response-signature'))?.level).toBe('recommended');
  });

  it.each([
    ['unsigned responses', () => nodeHandler({ signResponses: false }), ['call.response-signature']],
    [
      'every client error answered with 400',
      () => rewritingErrors(nodeHandler(), (status, body) => [status === 429 ? status : 400, body]),
      [
        'errors.unknown-capability',
        'signature.tampered',
        'signature.foreign-key',
        'signature.missing',
        'signature.replay',
        'signature.stale-timestamp',
        'errors.not-member',
        'errors.revoked',
        'sync.membership-below-head',
        'subscribe.other-recipient-refused',
        'subscribe.other-community-refused',
        'blobs.read-unknown',
      ],
    ],
    [
      'no replay protection',
      () => nodeHandler({ seenRequestIds: { add: () => true } }),
      ['signature.replay'],
    ],
    [
      'no timestamp window',
      () => nodeHandler({ clockSkewMs: Number.MAX_SAFE_INTEGER }),
      ['signature.stale-timestamp'],
    ],
    [
      'streams without a terminal frame',
      () => withoutDoneFrames(nodeHandler()),
      ['stream.terminal', 'blobs.put-read', 'blobs.put-client-frames'],
    ],
    [
      'capacity_exceeded without retry_after_ms',
      () => rewritingErrors(nodeHandler(), (status, { retry_after_ms: _, ...body }) => [status, body]),
      ['capacity.retry-after'],
    ],
    [
      'a cancelled stream that never frees its backend',
      () => nodeHandler({}, { leakyChat: true }),
      ['stream.abort', 'capacity.retry-after'],
    ],
    [
      'a long poll that serves every topic to everyone',
      () => nodeHandler({}, { openPubSub: true }),
      // It also answers no item, no gap and no refusal of a bad query or another community.
      [
        'subscribe.local-only-refused',
        'subscribe.other-recipient-refused',
        'subscribe.delivers',
        'subscribe.unknown-cursor',
        'subscribe.gap-resume',
        'subscribe.no-silent-loss',
        'subscribe.other-community-refused',
        'subscribe.malformed-query',
      ],
    ],
    [
      'a blob store that asks for chunks it holds',
      () => nodeHandler({}, { forgetfulStore: true }),
      ['blobs.put-read'],
    ],
    [
      "the reference node's unsigned manifest",
      () => nodeHandler({}, { manifest: 'unsigned' }),
      ['manifest.valid', 'manifest.community', 'manifest.answers-as', 'manifest.capabilities'],
    ],
    [
      "another community's manifest",
      () => nodeHandler({}, { manifest: 'foreign-community' }),
      ['manifest.community'],
    ],
    [
      'manifest schema hashes that match no catalogue form',
      () => nodeHandler({}, { manifest: 'wrong-schema-hash' }),
      ['manifest.capabilities'],
    ],
    [
      'a sync endpoint that accepts forged events',
      () => nodeHandler({}, { credulousSync: true }),
      ['sync.events-forged-refused'],
    ],
  ])('fails a node with %s in exactly the cases about it', async (_, handler, failing) => {
    const report = await runSuite(hearthnetNodeSuite(fullOptions(await serve(handler()))));
    expect(report.errors).toEqual([]);
    expect(shortIds(report, 'failed').sort()).toEqual([...failing].sort());
    expect(shortIds(report, 'skipped')).toEqual([]);
  });

  it('fails a node answering as another node id than the expected one', async () => {
    const options = { ...fullOptions(await serve(nodeHandler())), expectNodeId: stranger.nodeId };
    const report = await runSuite(hearthnetNodeSuite(options));
    expect(shortIds(report, 'failed').sort()).toEqual([
      'blobs.put-read',
      'call.ok',
      'call.response-signature',
      'manifest.valid',
      'stream.frames',
      'subscribe.poll',
    ]);
    const failure = report.results.find((r) => r.id === 'hearthnet.node.call.ok');
    expect(failure?.error?.message).toContain('X-HearthNet-From');
  });

  it('fails every case of a caller the node does not trust, naming the status it got', async () => {
    const options = { ...fullOptions(await serve(nodeHandler())), identity: stranger };
    const report = await runSuite(hearthnetNodeSuite(options));
    expect(shortIds(report, 'passed')).toContain('errors.unknown-capability');
    const failure = report.results.find((r) => r.id === 'hearthnet.node.call.ok');
    expect(failure?.status).toBe('failed');
    expect(failure?.error?.message).toMatch(/HTTP 401 .*unauthorized/);
  });

  it.each([
    ['a relative baseUrl', { baseUrl: '/bus' }],
    ['an identity that is not a key pair', { identity: { nodeId: 'x' } }],
    ['an empty community', { community: '' }],
    ['an expectNodeId that is not a node id', { expectNodeId: 'node-1' }],
    ['a maxConcurrent of 0', { capabilities: { longStream: { ...chat(1), maxConcurrent: 0 } } }],
    ['a call without input', { capabilities: { call: { capability: 'market.post' } } }],
    ['a patienceMs of 0', { patienceMs: 0 }],
  ])('reports %s as a setup error instead of running cases', async (_, override) => {
    const options = { ...fullOptions('http://127.0.0.1:9'), ...override } as HearthNetNodeSuiteOptions;
    const report = await runSuite(hearthnetNodeSuite(options));
    expect(report.ok).toBe(false);
    expect(report.errors).toEqual([expect.objectContaining({ code: 'suite_setup_failed' })]);
    expect(report.counts.passed).toBe(0);
  });
});
