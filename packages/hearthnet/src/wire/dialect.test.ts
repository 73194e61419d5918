// The WireDialect seam: the `wire` option, and what the bus handler and the client hand a dialect.
// Reference dialects build on these hooks alone (compat/reference-wire.ts), so what reaches them is
// pinned here with a recording dialect on top of the contract's.

import { describe, expect, it } from 'vitest';
import { RAG_QUERY } from '../capabilities/catalogue/catalogue.js';
import { BadRequestError, CapabilityRegistry } from '../capabilities/index.js';
import { keyPairFromSeed } from '../crypto/key-pair.js';
import { type CapabilityHandler, createBusHandler, staticTrust } from './bus-handler.js';
import { type CallRefusal, contractWire, type WireDialect } from './dialect.js';
import { createHearthNetClient } from './hearthnet-client.js';

const server = keyPairFromSeed(new Uint8Array(32).fill(41));
const caller = keyPairFromSeed(new Uint8Array(32).fill(42));
const community = server.nodeId;

function node(wire: WireDialect) {
  const registry = new CapabilityRegistry<CapabilityHandler>();
  registry.register(
    RAG_QUERY,
    ({ params, input }) => {
      if (params['corpus'] !== 'known') throw new BadRequestError('unknown corpus');
      return { output: { chunks: [{ rank: 1, score: 0.5, text: String(input['query']) }] }, meta: { ms: 1 } };
    },
    { maxConcurrent: 2 },
  );
  const handler = createBusHandler({
    identity: server,
    registry,
    community,
    wire,
    trust: staticTrust({ [caller.nodeId]: 'member' }),
  });
  const fetchHandler: typeof fetch = async (input, init) => handler(new Request(input as string, init));
  return { handler, fetchHandler };
}

describe('the wire option', () => {
  it('refuses the old names and anything that is not a dialect with invalid_wire_options', () => {
    const trust = staticTrust({});
    for (const wire of ['reference', 'contract', {}, null, { ...contractWire, readCall: undefined }]) {
      expect(() =>
        createBusHandler({
          identity: server,
          registry: new CapabilityRegistry(),
          trust,
          wire: wire as never,
        }),
      ).toThrow(expect.objectContaining({ code: 'invalid_wire_options' }));
      expect(() =>
        createHearthNetClient({ identity: caller, community, node: 'http://node.test', wire: wire as never }),
      ).toThrow(expect.objectContaining({ code: 'invalid_wire_options' }));
    }
  });
});

describe('what the handler hands a dialect', () => {
  it('names what refused each call, and whether it asked for a stream', async () => {
    const refusals: Omit<CallRefusal, 'error'>[] = [];
    const recording: WireDialect = {
      ...contractWire,
      writeRefusal: (responder, refusal) => {
        const { error: _error, ...rest } = refusal;
        refusals.push(rest);
        return contractWire.writeRefusal(responder, refusal);
      },
    };
    const { handler, fetchHandler } = node(recording);
    const client = createHearthNetClient({
      identity: caller,
      community,
      node: 'http://node.test',
      fetch: fetchHandler,
    });
    const query = { params: { corpus: 'known' }, input: { query: 'q' } };

    expect((await handler(new Request('http://node.test/elsewhere', { method: 'POST' }))).status).toBe(404);
    const get = await handler(new Request('http://node.test/bus/v1/call'));
    expect([get.status, get.headers.get('Allow')]).toEqual([405, 'POST']);
    expect(
      (await handler(new Request('http://node.test/bus/v1/call', { method: 'POST', body: '{"params": ' })))
        .status,
    ).toBe(400);
    expect(
      (await handler(new Request('http://node.test/bus/v1/call', { method: 'POST', body: '{}' }))).status,
    ).toBe(400);
    await expect(client.call('rag.query', query, { version: '2.0' })).rejects.toMatchObject({
      code: 'schema_mismatch',
    });
    await expect(client.call('experimental.none', { params: {}, input: {} })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(client.call('rag.query', { ...query, params: { corpus: 'other' } })).rejects.toMatchObject({
      code: 'bad_request',
    });

    expect(refusals).toEqual([
      { origin: 'endpoint', status: undefined, streamRequested: false },
      { origin: 'endpoint', status: 405, streamRequested: false },
      { origin: 'json_syntax', status: undefined, streamRequested: false },
      { origin: 'bus', status: undefined, streamRequested: false },
      { origin: 'no_provider', status: undefined, streamRequested: false },
      { origin: 'no_provider', status: undefined, streamRequested: false },
      { origin: 'capability', status: undefined, streamRequested: false },
    ]);
  });

  it("answers through the dialect's writeAnswer and reads the answer through its readAnswer", async () => {
    const seen: string[] = [];
    const recording: WireDialect = {
      ...contractWire,
      writeAnswer: (responder, call, body) => {
        seen.push(`answer ${call.capability}@${call.version} ${String(call.streamRequested)}`);
        return contractWire.writeAnswer(responder, call, body);
      },
      readAnswer: (capability, body) => {
        seen.push(`read ${capability}`);
        return contractWire.readAnswer(capability, body);
      },
    };
    const { fetchHandler } = node(recording);
    const client = createHearthNetClient({
      identity: caller,
      community,
      node: 'http://node.test',
      fetch: fetchHandler,
      wire: recording,
    });
    const response = await client.call('rag.query', {
      params: { corpus: 'known' },
      input: { query: 'Regen' },
    });
    expect(response.output.chunks[0]?.text).toBe('Regen');
    expect(seen).toEqual(['answer rag.query@1.0 false', 'read rag.query']);
  });
});
