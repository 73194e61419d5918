// Acceptance (issue 6): two in-process nodes over real loopback HTTP, each serving a bus handler.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LLM_CHAT, MARKET_POST } from './capabilities/catalogue/catalogue.js';
import { createHearthNetError, HEARTHNET_ERROR_CODES } from './capabilities/hearthnet-errors.js';
import {
  BadRequestError,
  type CapabilityDescriptor,
  CapabilityRegistry,
  CapacityExceededError,
  ExpiredError,
  type HearthNetError,
  HearthNetError as HearthNetErrorBase,
  httpStatusForErrorCode,
  InvalidSignatureError,
  NotFoundError,
  RevokedError,
  SchemaMismatchError,
  UnauthorizedError,
} from './capabilities/index.js';
import { keyPairFromSeed } from './crypto/key-pair.js';
import { type ServedBusHandler, serveBusHandler } from './node-http.js';
import {
  type CapabilityHandler,
  createBusHandler,
  createHearthNetClient,
  staticTrust,
  WIRE_HEADERS,
} from './wire/index.js';

const alice = keyPairFromSeed(new Uint8Array(32).fill(11));
const bob = keyPairFromSeed(new Uint8Array(32).fill(12));
const mallory = keyPairFromSeed(new Uint8Array(32).fill(13));
const revoked = keyPairFromSeed(new Uint8Array(32).fill(14));
const community = alice.nodeId;

/** A capability whose handler throws the error code it is given (to map every code end to end). */
const FAIL: CapabilityDescriptor = {
  name: 'experimental.fail',
  version: '1.0',
  stability: 'unstable',
  trust: { level: 'member' },
  idempotency: { kind: 'none' },
  streaming: 'none',
  requestSchema: {
    type: 'object',
    properties: {
      params: { type: 'object' },
      input: { type: 'object', properties: { code: { type: 'string' } } },
    },
    required: ['params', 'input'],
  },
  responseSchema: { type: 'object' },
  streamSchema: null,
};

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

interface Node {
  readonly served: ServedBusHandler;
  readonly chatAborts: { at: number }[];
  readonly posts: unknown[];
}

async function startNode(
  identity: typeof alice,
  trusted: Record<string, 'member' | 'trusted' | 'revoked'>,
): Promise<Node> {
  const chatAborts: { at: number }[] = [];
  const posts: unknown[] = [];
  const registry = new CapabilityRegistry<CapabilityHandler>({});
  registry.register(
    MARKET_POST,
    async ({ input }, context) => {
      posts.push({ input, caller: context.caller });
      return { output: { event_id: `evt-${posts.length}`, lamport: posts.length }, meta: { ms: 1 } };
    },
    { maxConcurrent: 4 },
  );
  // A deterministic LLM backend: token i is "t<i> ", one every 5 ms, up to max_tokens.
  registry.register(
    LLM_CHAT,
    async function chat({ input }, context) {
      const max = input['max_tokens'] as number;
      if (!context.stream)
        return { output: { message: { role: 'assistant', content: 't0' } }, meta: { tokens_out: 1 } };
      context.signal.addEventListener('abort', () => chatAborts.push({ at: Date.now() }));
      return (async function* () {
        for (let i = 0; i < max; i += 1) {
          await sleep(5, context.signal);
          yield { event: 'token', data: { text: `t${i} ` } };
        }
        yield { event: 'done', data: { tokens_out: max, stop_reason: 'max_tokens' } };
      })();
    },
    { maxConcurrent: 1, params: { model: 'echo' } },
  );
  registry.register(
    FAIL,
    ({ input }) => {
      throw createHearthNetError(input['code'] as never, `failing with ${String(input['code'])}`, {
        retryAfterMs: 250,
        schemaHashExpected: 'blake3:00',
      });
    },
    { maxConcurrent: 8 },
  );
  const handler = createBusHandler({
    identity,
    registry,
    community,
    trust: staticTrust(trusted),
    retryAfterMs: 500,
  });
  return { served: await serveBusHandler(handler), chatAborts, posts };
}

let nodeA: Node;
let nodeB: Node;

beforeAll(async () => {
  nodeA = await startNode(alice, { [bob.nodeId]: 'member', [revoked.nodeId]: 'revoked' });
  nodeB = await startNode(bob, { [alice.nodeId]: 'trusted' });
});

afterAll(async () => {
  await nodeA?.served.close();
  await nodeB?.served.close();
});

const post = {
  params: {},
  input: { client_id: 'c-1', category: 'offer', title: 'Wasserkanister, 20L' },
} as const;

function clientOf(
  identity: typeof alice,
  node: Node,
  extra: Partial<Parameters<typeof createHearthNetClient>[0]> = {},
) {
  return createHearthNetClient({ identity, community, node: node.served.url, ...extra });
}

describe('two nodes over loopback HTTP', () => {
  it('market.post: signed both ways, the response signature verified against the expected peer', async () => {
    const response = await clientOf(bob, nodeA, { peer: alice.nodeId, verifyResponses: 'all' }).call(
      'market.post',
      post,
    );
    expect(response.output).toEqual({
      event_id: expect.stringMatching(/^evt-/),
      lamport: expect.any(Number),
    });
    expect(nodeA.posts.at(-1)).toMatchObject({ caller: bob.nodeId, input: { ttl_seconds: 7 * 24 * 3600 } });
    // And the other way round: node A calls node B.
    await expect(
      clientOf(alice, nodeB, { peer: bob.nodeId }).call('market.post', post),
    ).resolves.toMatchObject({
      output: { lamport: 1 },
    });
  });

  it('rejects a response whose body was altered, or that comes from another node than the peer', async () => {
    const tampering: typeof fetch = async (input, init) => {
      const real = await fetch(input, init);
      const text = (await real.text()).replace('evt-', 'evx-');
      return new Response(text, { status: real.status, headers: real.headers });
    };
    await expect(clientOf(bob, nodeA, { fetch: tampering }).call('market.post', post)).rejects.toThrow(
      InvalidSignatureError,
    );
    await expect(clientOf(bob, nodeA, { peer: mallory.nodeId }).call('market.post', post)).rejects.toThrow(
      InvalidSignatureError,
    );
  });

  it('llm.chat streams typed frames to the done frame', async () => {
    const stream = await clientOf(bob, nodeA).call(
      'llm.chat',
      { params: { model: 'echo' }, input: { messages: [{ role: 'user', content: 'hi' }], max_tokens: 3 } },
      { stream: true },
    );
    const frames = [];
    for await (const frame of stream) frames.push(frame);
    expect(frames).toEqual([
      { event: 'token', data: { text: 't0 ' } },
      { event: 'token', data: { text: 't1 ' } },
      { event: 'token', data: { text: 't2 ' } },
      { event: 'done', data: { tokens_out: 3, stop_reason: 'max_tokens' } },
    ]);
    expect(stream.from).toBe(alice.nodeId);
  });

  it('cancelling a stream mid-way aborts the handler signal within 200 ms (contract §4.1)', async () => {
    const controller = new AbortController();
    const before = nodeA.chatAborts.length;
    const stream = await clientOf(bob, nodeA).call(
      'llm.chat',
      {
        params: { model: 'echo' },
        input: { messages: [{ role: 'user', content: 'long' }], max_tokens: 100_000 },
      },
      { stream: true, signal: controller.signal },
    );
    let seen = 0;
    let abortedAt = 0;
    await expect(
      (async () => {
        for await (const frame of stream) {
          expect(frame.event).toBe('token');
          seen += 1;
          if (seen === 3) {
            abortedAt = Date.now();
            controller.abort(new Error('user stopped'));
          }
        }
      })(),
    ).rejects.toThrow('user stopped');
    await expect.poll(() => nodeA.chatAborts.length, { timeout: 2_000, interval: 5 }).toBe(before + 1);
    expect(nodeA.chatAborts.at(-1)!.at - abortedAt).toBeLessThan(200);
    // The slot is free again: max_concurrent is 1, and a new call succeeds.
    await expect
      .poll(async () => {
        try {
          await clientOf(bob, nodeA).call('llm.chat', {
            params: { model: 'echo' },
            input: { messages: [{ role: 'user', content: 'x' }] },
          });
          return 'ok';
        } catch (error) {
          return (error as HearthNetError).code;
        }
      })
      .toBe('ok');
  });

  it('answers capacity_exceeded with retry_after_ms while max_concurrent streams are open', async () => {
    const controller = new AbortController();
    const client = clientOf(bob, nodeA);
    const chat = {
      params: { model: 'echo' },
      input: { messages: [{ role: 'user' as const, content: 'x' }], max_tokens: 100_000 },
    };
    const open = await client.call('llm.chat', chat, { stream: true, signal: controller.signal });
    try {
      const error = await client.call('llm.chat', chat, { stream: true }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CapacityExceededError);
      expect((error as CapacityExceededError).retryAfterMs).toBe(500);
      expect((error as CapacityExceededError).status).toBe(429);
    } finally {
      await open.close();
      controller.abort();
    }
  });

  it('maps every one of the 13 error codes end to end, with its class and §5.5 status', async () => {
    for (const code of HEARTHNET_ERROR_CODES) {
      const raw: { status?: number } = {};
      const recording: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        raw.status = response.status;
        return response;
      };
      const error = await clientOf(bob, nodeA, { fetch: recording })
        .call('experimental.fail', { params: {}, input: { code } })
        .catch((e: unknown) => e);
      expect(error, code).toBeInstanceOf(HearthNetErrorBase);
      expect((error as HearthNetError).code).toBe(code);
      expect((error as HearthNetError).message).toBe(`failing with ${code}`);
      expect((error as HearthNetError).retryAfterMs).toBe(250);
      expect(raw.status).toBe(httpStatusForErrorCode(code));
      if (code === 'schema_mismatch')
        expect((error as SchemaMismatchError).schemaHashExpected).toBe('blake3:00');
    }
  });

  it('produces the bus-level codes itself: not_found, schema_mismatch, bad_request, unauthorized, revoked, expired', async () => {
    const failure = (promise: Promise<unknown>) => promise.catch((e: unknown) => e);
    const bobClient = clientOf(bob, nodeA);
    expect(await failure(bobClient.call('experimental.nothing', { params: {}, input: {} }))).toBeInstanceOf(
      NotFoundError,
    );
    const mismatch = await failure(bobClient.call('market.post', post, { version: '2.0' }));
    expect(mismatch).toBeInstanceOf(SchemaMismatchError);
    expect((mismatch as SchemaMismatchError).altCapabilities).toEqual(['market.post@1.0']);
    expect((mismatch as SchemaMismatchError).schemaHashExpected).toMatch(/^blake3:[0-9a-f]{64}$/);
    const bad = createHearthNetClient({
      identity: bob,
      community,
      node: nodeA.served.url,
      descriptorOf: () => undefined,
    });
    expect(
      await failure(bad.call('market.post', { params: {}, input: { title: 'no client id' } } as never)),
    ).toBeInstanceOf(BadRequestError);
    expect(await failure(clientOf(mallory, nodeA).call('market.post', post))).toBeInstanceOf(
      UnauthorizedError,
    );
    expect(await failure(clientOf(revoked, nodeA).call('market.post', post))).toBeInstanceOf(RevokedError);
    const otherCommunity = createHearthNetClient({
      identity: bob,
      community: bob.nodeId,
      node: nodeA.served.url,
    });
    expect(await failure(otherCommunity.call('market.post', post))).toBeInstanceOf(UnauthorizedError);
    const skewed = clientOf(bob, nodeA, { now: () => Date.now() - 120_000 });
    expect(await failure(skewed.call('market.post', post))).toBeInstanceOf(ExpiredError);
  });

  it('rejects a request tampered with in transit with invalid_signature', async () => {
    const tampering: typeof fetch = (input, init) =>
      fetch(input, { ...init, body: String(init?.body).replace('Wasserkanister', 'Benzinkanister') });
    await expect(clientOf(bob, nodeA, { fetch: tampering }).call('market.post', post)).rejects.toThrow(
      InvalidSignatureError,
    );
  });

  it('rejects a replayed request with invalid_signature', async () => {
    let captured: { url: string; init: RequestInit } | undefined;
    const capturing: typeof fetch = (input, init) => {
      captured = { url: String(input), init: { ...init, headers: new Headers(init?.headers) } };
      return fetch(input, init);
    };
    await clientOf(bob, nodeA, { fetch: capturing }).call('market.post', post);
    const replay = await fetch(captured!.url, captured!.init);
    expect(replay.status).toBe(401);
    expect(await replay.json()).toMatchObject({ error: 'invalid_signature' });
    expect(replay.headers.get(WIRE_HEADERS.requestId)).toBe(
      new Headers(captured!.init.headers).get(WIRE_HEADERS.requestId),
    );
  });

  it('answers a malformed call with a §5.4 body and no crash', async () => {
    const response = await fetch(`${nodeA.served.url}/bus/v1/call`, { method: 'POST', body: '{nope' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'bad_request' });
    const wrongPath = await fetch(`${nodeA.served.url}/elsewhere`, { method: 'POST', body: '{}' });
    expect(wrongPath.status).toBe(404);
    const get = await fetch(`${nodeA.served.url}/bus/v1/call`);
    expect(get.status).toBe(405);
  });
});
