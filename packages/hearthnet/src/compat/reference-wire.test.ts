// The reference-compat wire (hearthnet-reference.md §6, §7, §19), client and handler, in process.
import { describe, expect, it } from 'vitest';
import { LLM_COMPLETE, MARKET_LIST, MARKET_POST, RAG_QUERY } from '../capabilities/catalogue/catalogue.js';
import {
  BadRequestError,
  CapabilityRegistry,
  InternalError,
  NotFoundError,
  NotImplementedError,
} from '../capabilities/index.js';
import { keyPairFromSeed } from '../crypto/key-pair.js';
import { signPayload } from '../crypto/payload-signature.js';
import type { CapabilityHandler } from '../wire/bus-handler.js';
import { createBusHandler, routeByPath, staticTrust } from '../wire/bus-handler.js';
import { WIRE_HEADERS } from '../wire/envelope.js';
import { createHearthNetClient } from '../wire/hearthnet-client.js';
import { referenceNodeRoutes } from './reference-node-routes.js';
import { referenceWire } from './reference-wire.js';

const server = keyPairFromSeed(new Uint8Array(32).fill(21));
const caller = keyPairFromSeed(new Uint8Array(32).fill(22));

function referenceNode(options: { acceptUnsigned?: boolean } = {}) {
  const registry = new CapabilityRegistry<CapabilityHandler>();
  registry.register(
    RAG_QUERY,
    ({ params, input }) => {
      if (params['corpus'] !== 'known') throw new NotFoundError(`not_found: ${String(params['corpus'])}`);
      return { output: { chunks: [{ rank: 1, score: 0.5, text: String(input['query']) }] }, meta: { ms: 1 } };
    },
    { maxConcurrent: 2 },
  );
  registry.register(
    LLM_COMPLETE,
    (_, context) =>
      (async function* () {
        expect(context.stream).toBe(true);
        yield { event: 'token', data: { text: 'ok' } };
        yield { event: 'done', data: { tokens_out: 1 } };
      })(),
    { maxConcurrent: 2 },
  );
  const handler = createBusHandler({
    identity: server,
    registry,
    wire: referenceWire,
    trust: staticTrust({ [caller.nodeId]: 'member' }, options.acceptUnsigned === true ? 'member' : 'unknown'),
    ...options,
  });
  const fetchHandler: typeof fetch = async (input, init) => handler(new Request(input as string, init));
  return { handler, fetchHandler };
}

const query = { params: { corpus: 'known' }, input: { query: 'Regenwasser' } };

describe('reference wire', () => {
  it('client and handler agree: body routing, body-only signature, typed output', async () => {
    const { fetchHandler } = referenceNode();
    let sent: { body: unknown; headers: Headers } | undefined;
    const spy: typeof fetch = (input, init) => {
      sent = { body: JSON.parse(String(init?.body)), headers: new Headers(init?.headers) };
      return fetchHandler(input, init);
    };
    const client = createHearthNetClient({
      identity: caller,
      community: server.nodeId,
      node: 'http://node.test',
      fetch: spy,
      wire: referenceWire,
    });
    const response = await client.call('rag.query', query);
    expect(response.output.chunks[0]?.text).toBe('Regenwasser');
    expect(sent?.body).toEqual({ capability: 'rag.query', version: '1.0', ...query });
    expect(sent?.headers.get(WIRE_HEADERS.capability)).toBeNull();
    expect(sent?.headers.get(WIRE_HEADERS.signature)).toBe(
      signPayload(sent!.body as Record<string, unknown>, caller).signature,
    );
  });

  it('carries service errors in-band with HTTP 200 and bus errors with 500, mapped onto the typed errors', async () => {
    const { handler, fetchHandler } = referenceNode();
    const client = createHearthNetClient({
      identity: caller,
      community: server.nodeId,
      node: 'http://node.test',
      fetch: fetchHandler,
      wire: referenceWire,
    });
    const body = {
      capability: 'rag.query',
      version: '1.0',
      params: { corpus: 'other' },
      input: { query: 'q' },
    };
    const raw = await handler(
      new Request('http://node.test/bus/v1/call', {
        method: 'POST',
        body: JSON.stringify(body),
        headers: {
          [WIRE_HEADERS.from]: caller.nodeId,
          [WIRE_HEADERS.signature]: signPayload(body, caller).signature,
        },
      }),
    );
    expect(raw.status).toBe(200);
    expect(await raw.json()).toMatchObject({ error: 'not_found', message: 'not_found: other' });
    await expect(
      client.call('rag.query', { params: { corpus: 'other' }, input: { query: 'q' } }),
    ).rejects.toThrow(NotFoundError);
    const unknown = await client
      .call('experimental.none', { params: {}, input: {} })
      .catch((e: unknown) => e);
    // A reference node's `call_error` "no provider" (500): nothing serves it there — not_found, code kept.
    expect(unknown).toBeInstanceOf(NotFoundError);
    expect(unknown).toMatchObject({
      remoteCode: 'call_error',
      message: 'no provider for experimental.none@(1, 0)',
    });
  });

  it('maps what a real reference node answers onto the typed errors (note §19)', async () => {
    const answers: [number, unknown, unknown, string][] = [
      [200, { error: 'bad_request', message: 'too many texts' }, BadRequestError, 'too many texts'],
      [200, { error: 'not_found: blake3:00' }, NotFoundError, 'blake3:00'],
      [
        500,
        { error: 'call_error', message: 'no provider for x@(1, 0)' },
        NotFoundError,
        'no provider for x@(1, 0)',
      ],
      // A peer's failure the node passed on: still the node's internal error.
      [500, { error: 'call_error', message: 'peer failed' }, InternalError, 'peer failed'],
      [400, { detail: 'invalid_json' }, BadRequestError, 'invalid_json'],
      // A service whose backend is not installed (OCR, speech, TTS) says why in `reason`.
      [
        200,
        { error: 'unavailable', reason: 'no OCR backend installed' },
        NotImplementedError,
        'no OCR backend installed',
      ],
      [200, { error: 'unavailable' }, NotImplementedError, 'the service is unavailable on this node'],
      [200, { error: 'bad_request', reason: 'image too large' }, BadRequestError, 'image too large'],
    ];
    for (const [status, body, expected, message] of answers) {
      const fake: typeof fetch = async () =>
        new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
      const client = createHearthNetClient({
        identity: caller,
        community: server.nodeId,
        node: 'http://node.test',
        fetch: fake,
        wire: referenceWire,
        descriptorOf: () => undefined,
      });
      const error = await client.call('rag.query', query).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(expected as typeof Error);
      expect(error).toMatchObject({ message });
    }
  });

  it("speaks the reference node's market shapes: posts a lon location, reads null and lon locations back", async () => {
    const sent: unknown[] = [];
    const answers: Record<string, unknown> = {
      'market.post': { output: { event_id: 'evt:1a2b', lamport: 3 }, meta: {}, _routed_via: 'local' },
      'market.list': {
        output: {
          posts: [
            { event_id: 'A1', lamport: 1, title: 'Wasser', location: null },
            {
              event_id: 'A2',
              lamport: 2,
              title: 'Brot',
              location: { lat: 51.79, lon: 6.14, label: 'Kleve' },
            },
            { event_id: 'A3', lamport: 3, title: 'Holz', location: { lat: 1, lon: 2, label: null } },
          ],
          max_lamport: 3,
        },
        meta: {},
        _routed_via: 'local',
      },
    };
    const fake: typeof fetch = async (_url, init) => {
      const body = JSON.parse(String(init?.body)) as { capability: string };
      sent.push(body);
      return new Response(JSON.stringify(answers[body.capability]), {
        headers: { 'Content-Type': 'application/json' },
      });
    };
    const client = createHearthNetClient({
      identity: caller,
      community: server.nodeId,
      node: 'http://node.test',
      fetch: fake,
      wire: referenceWire,
    });
    await client.call('market.post', {
      params: {},
      input: {
        client_id: 'c1',
        category: 'offer',
        title: 'Brot',
        location: { lat: 51.79, lng: 6.14, label: 'Kleve' },
      },
    });
    expect(sent[0]).toMatchObject({ input: { location: { lat: 51.79, lon: 6.14, label: 'Kleve' } } });
    expect(JSON.stringify(sent[0])).not.toContain('lng');
    const listed = (await client.call('market.list', { params: {}, input: {} })) as {
      output: { posts: Record<string, unknown>[] };
    };
    expect(listed.output.posts).toEqual([
      { event_id: 'A1', lamport: 1, title: 'Wasser' },
      { event_id: 'A2', lamport: 2, title: 'Brot', location: { lat: 51.79, lng: 6.14, label: 'Kleve' } },
      { event_id: 'A3', lamport: 3, title: 'Holz', location: { lat: 1, lng: 2 } },
    ]);
  });

  it('reads the reference stream: one untyped message frame, then done {"done": true}', async () => {
    const sse =
      'data: {"output": {"text": "Gr\\u00fc\\u00dfe"}, "meta": {}}\n\nevent: done\ndata: {"done": true}\n\n';
    const fake: typeof fetch = async () =>
      new Response(sse, { headers: { 'Content-Type': 'text/event-stream; charset=utf-8' } });
    const client = createHearthNetClient({
      identity: caller,
      community: server.nodeId,
      node: 'http://node.test',
      fetch: fake,
      wire: referenceWire,
    });
    const stream = await client.call(
      'llm.complete',
      { params: { model: 'm' }, input: { prompt: 'p' } },
      { stream: true },
    );
    const frames = [];
    for await (const frame of stream) frames.push(frame);
    expect(frames).toEqual([
      { event: 'message', data: { output: { text: 'Grüße' }, meta: {} } },
      { event: 'done', data: { done: true } },
    ]);
  });

  it('reads a plain JSON answer to a stream call (a reference Space ignores stream) as that one-frame stream', async () => {
    const answer = { output: { text: 'Grüße' }, meta: {} };
    const client = createHearthNetClient({
      identity: caller,
      community: server.nodeId,
      node: 'http://space.test',
      fetch: async () =>
        new Response(JSON.stringify(answer), { headers: { 'Content-Type': 'application/json' } }),
      wire: referenceWire,
    });
    const stream = await client.call(
      'llm.complete',
      { params: { model: 'm' }, input: { prompt: 'p' } },
      { stream: true },
    );
    const frames = [];
    for await (const frame of stream) frames.push(frame);
    expect(frames).toEqual([
      { event: 'message', data: answer },
      { event: 'done', data: { done: true } },
    ]);
    // The contract wire still refuses it: a contract node answering JSON to a stream call is wrong.
    const strict = createHearthNetClient({
      identity: caller,
      community: server.nodeId,
      node: 'http://space.test',
      fetch: async () =>
        new Response(JSON.stringify(answer), { headers: { 'Content-Type': 'application/json' } }),
      verifyResponses: 'none',
    });
    await expect(
      strict.call('llm.complete', { params: { model: 'm' }, input: { prompt: 'p' } }, { stream: true }),
    ).rejects.toMatchObject({ code: 'unexpected_response' });
  });

  it('streams from our handler when the body asks for stream: true', async () => {
    const { fetchHandler } = referenceNode();
    const client = createHearthNetClient({
      identity: caller,
      community: server.nodeId,
      node: 'http://node.test',
      fetch: fetchHandler,
      wire: referenceWire,
    });
    const stream = await client.call(
      'llm.complete',
      { params: { model: 'm' }, input: { prompt: 'p' } },
      { stream: true },
    );
    const events = [];
    for await (const frame of stream) events.push(frame.event);
    expect(events).toEqual(['token', 'done']);
  });

  it('refuses unsigned calls unless told to accept them, and bad body signatures always', async () => {
    const body = JSON.stringify({ capability: 'rag.query', ...query });
    const unsigned = () => new Request('http://node.test/bus/v1/call', { method: 'POST', body });
    const strict = await referenceNode().handler(unsigned());
    // A caller's mistake keeps its 4xx (a reference node checks no caller, so there is no 500 to copy).
    expect(strict.status).toBe(401);
    expect(await strict.json()).toMatchObject({ error: 'unauthorized' });
    expect((await referenceNode({ acceptUnsigned: true }).handler(unsigned())).status).toBe(200);
    const forged = await referenceNode().handler(
      new Request('http://node.test/bus/v1/call', {
        method: 'POST',
        body,
        headers: {
          [WIRE_HEADERS.from]: caller.nodeId,
          [WIRE_HEADERS.signature]: signPayload({ other: 1 }, caller).signature,
        },
      }),
    );
    expect(forged.status).toBe(401);
    expect(await forged.json()).toMatchObject({ error: 'invalid_signature' });
    // A reference caller signs as its local id, which is no key: unsigned, as a reference node reads it.
    const fromLocalId = () =>
      new Request('http://node.test/bus/v1/call', {
        method: 'POST',
        body,
        headers: { [WIRE_HEADERS.from]: 'local-1a2b3c4d', [WIRE_HEADERS.signature]: 'ed25519:AAAA' },
      });
    expect((await referenceNode({ acceptUnsigned: true }).handler(fromLocalId())).status).toBe(200);
    // The From of such a call names no one: a trust policy that knows the string grants it nothing.
    const localRegistry = new CapabilityRegistry<CapabilityHandler>();
    localRegistry.register(RAG_QUERY, () => ({ output: { chunks: [] } }), { maxConcurrent: 1 });
    const policy = createBusHandler({
      identity: server,
      registry: localRegistry,
      wire: referenceWire,
      trust: staticTrust({ 'local-1a2b3c4d': 'member' }, 'unknown'),
      acceptUnsigned: true,
    });
    const unknown = await policy(fromLocalId());
    expect([unknown.status, ((await unknown.json()) as { error: string }).error]).toEqual([
      401,
      'unauthorized',
    ]);
    const refused = await referenceNode().handler(fromLocalId());
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({
      error: 'unauthorized',
      message: 'X-HearthNet-From "local-1a2b3c4d" is not a node id, so its signature cannot be checked',
    });
    const missing = await referenceNode({ acceptUnsigned: true }).handler(
      new Request('http://node.test/bus/v1/call', { method: 'POST', body: '{"input": {}}' }),
    );
    expect(missing.status).toBe(400);
    await expect(missing.json()).resolves.toMatchObject({ error: 'missing_capability' });
  });

  it('stamps _routed_via local, and answers stream: true on a plain capability with one frame and done', async () => {
    const node = referenceNode({ acceptUnsigned: true }).handler;
    const post = (body: unknown) =>
      node(new Request('http://node.test/bus/v1/call', { method: 'POST', body: JSON.stringify(body) }));
    const plain = await post({ capability: 'rag.query', ...query, input: { query: 'Grüße' } });
    // Plain JSON in the handler's key order (canonical JSON would put `_routed_via` first), unsigned.
    expect(await plain.text()).toBe(
      '{"output":{"chunks":[{"rank":1,"score":0.5,"text":"Grüße"}]},"meta":{"ms":1},"_routed_via":"local"}',
    );
    expect(plain.headers.get(WIRE_HEADERS.signature)).toBeNull();
    const streamed = await post({
      capability: 'rag.query',
      ...query,
      input: { query: 'Grüße' },
      stream: true,
    });
    expect(streamed.headers.get('Content-Type')).toBe('text/event-stream; charset=utf-8');
    expect(await streamed.text()).toBe(
      'data: {"output":{"chunks":[{"rank":1,"score":0.5,"text":"Gr\\u00fc\\u00dfe"}]},"meta":{"ms":1},"_routed_via":"local"}\n\n' +
        'event: done\ndata: {"done":true}\n\n',
    );
  });

  it("answers the bus's own refusals with a reference node's bodies (note §6, §19)", async () => {
    const node = referenceNode({ acceptUnsigned: true }).handler;
    const post = (body: string) =>
      node(new Request('http://node.test/bus/v1/call', { method: 'POST', body }));
    const answer = async (body: string) => {
      const response = await post(body);
      return [response.status, await response.json()];
    };
    expect(await answer('{"capability": "rag.query", ')).toEqual([400, { detail: 'invalid_json' }]);
    expect(await answer(JSON.stringify({ capability: 'rag.query', version: '1.x', ...query }))).toEqual([
      400,
      { error: 'invalid_version', message: "invalid literal for int() with base 10: 'x'" },
    ]);
    expect(await answer(JSON.stringify({ capability: 'experimental.none', params: {}, input: {} }))).toEqual([
      500,
      { error: 'call_error', message: 'no provider for experimental.none@(1, 0)' },
    ]);
    expect(await answer(JSON.stringify({ capability: 'rag.query', version: '2.0', ...query }))).toEqual([
      500,
      { error: 'call_error', message: 'no provider for rag.query@(2, 0)' },
    ]);
    // A reference node reads "1" and "1.0.5" as 1.0.
    for (const version of ['1', '1.0.5']) {
      expect((await post(JSON.stringify({ capability: 'rag.query', version, ...query }))).status).toBe(200);
    }
  });
});

describe('a node serving reference callers', () => {
  function nodeForReferenceCallers() {
    const registry = new CapabilityRegistry<CapabilityHandler>();
    const seen: unknown[] = [];
    registry.register(
      RAG_QUERY,
      ({ params, input }) => {
        seen.push(params);
        return { output: { chunks: [{ rank: 1, score: 1, text: String(input['query']) }] }, meta: {} };
      },
      { maxConcurrent: 2, params: { corpus: 'community', models: ['hash-16'] } },
    );
    registry.register(
      MARKET_POST,
      ({ input }) => {
        seen.push({ location: input['location'], client_id: input['client_id'] });
        return { output: { event_id: '01J00000000000000000000000', lamport: 1 }, meta: {} };
      },
      { maxConcurrent: 2 },
    );
    registry.register(
      MARKET_LIST,
      () => ({
        output: {
          posts: [{ event_id: 'e1', lamport: 1, title: 'Bread', location: { lat: 52.5, lng: 13.4 } }],
          max_lamport: 1,
        },
        meta: {},
      }),
      { maxConcurrent: 2 },
    );
    const bus = createBusHandler({
      identity: server,
      registry,
      wire: referenceWire,
      trust: staticTrust({}, 'member'),
      acceptUnsigned: true,
    });
    const node = routeByPath({
      ...referenceNodeRoutes({ identity: server, registry, now: () => 0 }),
      '/bus/v1/call': bus,
    });
    const call = async (body: unknown) => {
      const response = await node(
        new Request('http://node.test/bus/v1/call', {
          method: 'POST',
          body: JSON.stringify(body),
          // What a reference client sends: its local id, a signature nobody can check.
          headers: { [WIRE_HEADERS.from]: 'local-0a1b2c3d', [WIRE_HEADERS.signature]: 'ed25519:AAAA' },
        }),
      );
      return [response.status, await response.json()];
    };
    return { node, call, seen };
  }

  it('fills the params a reference caller leaves out from what the capability publishes', async () => {
    const { call, seen } = nodeForReferenceCallers();
    const [status, body] = await call({
      capability: 'rag.query',
      version: '1.0',
      params: {},
      input: { query: 'water' },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ output: { chunks: [{ text: 'water' }] }, _routed_via: 'local' });
    // Only what the schema requires is filled; what the caller sent wins.
    expect(seen).toEqual([{ corpus: 'community' }]);
    await call({ capability: 'rag.query', params: { corpus: 'garden' }, input: { query: 'x' } });
    expect(seen[1]).toEqual({ corpus: 'garden' });
  });

  it('reads a market.post location with lon, and answers market posts with lon', async () => {
    const { call, seen } = nodeForReferenceCallers();
    // The reference's own market tab sends no client_id: a fresh one is made, as a reference node does.
    const input = { category: 'offer', title: 'Bread', location: { lat: 52.5, lon: 13.4 } };
    expect((await call({ capability: 'market.post', params: {}, input }))[0]).toBe(200);
    expect((await call({ capability: 'market.post', params: {}, input }))[0]).toBe(200);
    expect(seen).toEqual([
      { location: { lat: 52.5, lng: 13.4 }, client_id: expect.stringMatching(/^reference-/) },
      { location: { lat: 52.5, lng: 13.4 }, client_id: expect.stringMatching(/^reference-/) },
    ]);
    expect(seen[0]).not.toEqual(seen[1]);
    const [, list] = await call({ capability: 'market.list', params: {}, input: {} });
    expect((list as { output: { posts: unknown[] } }).output.posts).toEqual([
      { event_id: 'e1', lamport: 1, title: 'Bread', location: { lat: 52.5, lon: 13.4 } },
    ]);
  });

  it('serves /health and /bus/v1/capabilities as the reference CLI reads them', async () => {
    const { node } = nodeForReferenceCallers();
    const health = await node(new Request('http://node.test/health'));
    expect([health.status, await health.json()]).toEqual([
      200,
      { status: 'ok', ts: '1970-01-01T00:00:00Z', node_id: server.nodeId },
    ]);
    const capabilities = await node(new Request('http://node.test/bus/v1/capabilities'));
    expect(await capabilities.json()).toEqual([
      { name: 'market.list', version: '1.0', stability: 'stable', local: true },
      { name: 'market.post', version: '1.0', stability: 'stable', local: true },
      { name: 'rag.query', version: '1.0', stability: 'stable', local: true },
    ]);
    expect((await node(new Request('http://node.test/health', { method: 'POST' }))).status).toBe(405);
  });
});
