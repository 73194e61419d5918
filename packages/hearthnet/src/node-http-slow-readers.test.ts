// SSE capability streams to a client that does not read (issue #17), over real loopback HTTP: the
// server queues a bounded number of bytes, drops the client after `drainTimeoutMs`, and tells the
// capability handler why (its signal aborts with a slow_consumer), freeing its max_concurrent
// slot; a well-behaved stream on the same server gets every frame meanwhile.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJsonString } from './canonical-json/canonical-json.js';
import { type CapabilityDescriptor, CapabilityRegistry } from './capabilities/index.js';
import type { JsonSchema } from './capabilities/json-schema.js';
import { keyPairFromSeed } from './crypto/key-pair.js';
import { type ServedBusHandler, serveBusHandler, toNodeListener } from './node-http.js';
import {
  type CapabilityHandler,
  createBusHandler,
  createHearthNetClient,
  EVENT_STREAM_CONTENT_TYPE,
  formatWireTimestamp,
  newRequestId,
  signRequestEnvelope,
  staticTrust,
  WIRE_HEADERS,
} from './wire/index.js';

const server = keyPairFromSeed(new Uint8Array(32).fill(61));
const caller = keyPairFromSeed(new Uint8Array(32).fill(62));
const community = server.nodeId;
const BIG = 64 * 1024;

const frameSchema = (event: string): JsonSchema => ({
  type: 'object',
  properties: { event: { const: event }, data: { type: 'object' } },
  required: ['event', 'data'],
});

/** Streams `input.count` large `blob` frames (forever without a count), as fast as it is pulled. */
const FLOOD: CapabilityDescriptor = {
  name: 'experimental.flood',
  version: '1.0',
  stability: 'unstable',
  trust: { level: 'member' },
  idempotency: { kind: 'none' },
  streaming: 'server',
  requestSchema: {
    type: 'object',
    properties: { params: { type: 'object' }, input: { type: 'object' } },
    required: ['params', 'input'],
  },
  responseSchema: null,
  streamSchema: { anyOf: [frameSchema('blob'), frameSchema('done')] },
};

let served: ServedBusHandler;
const sockets = new Set<Socket>();
const aborts: unknown[] = [];
const produced = { frames: 0 };

beforeAll(async () => {
  const registry = new CapabilityRegistry<CapabilityHandler>({});
  const text = 'x'.repeat(BIG);
  registry.register(
    FLOOD,
    ({ input }, context) =>
      (async function* () {
        context.signal.addEventListener('abort', () => aborts.push(context.signal.reason));
        const count = (input['count'] as number | undefined) ?? Number.POSITIVE_INFINITY;
        for (let i = 0; i < count && !context.signal.aborted; i += 1) {
          produced.frames += 1;
          yield { event: 'blob', data: { i, text } };
        }
        yield { event: 'done', data: {} };
      })(),
    { maxConcurrent: 2 },
  );
  const handler = createBusHandler({
    identity: server,
    registry,
    community,
    trust: staticTrust({ [caller.nodeId]: 'member' }),
  });
  // Well above any pause of the well-behaved client, which shares this process and its event loop.
  served = await serveBusHandler(handler, { drainTimeoutMs: 1000 });
  served.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
});

afterAll(async () => {
  await served.close();
});

/** The signed headers and body of a call, as a client sends them. */
function signedCall(input: object) {
  const request = { params: {}, input };
  const requestId = newRequestId(Date.now());
  const timestamp = formatWireTimestamp(Date.now());
  const signed = signRequestEnvelope(
    {
      capability: FLOOD.name,
      version: '1.0',
      requestId,
      from: caller.nodeId,
      community,
      timestamp,
      body: request,
    },
    caller,
  );
  return {
    body: canonicalJsonString(signed.body),
    headers: {
      [WIRE_HEADERS.capability]: FLOOD.name,
      [WIRE_HEADERS.capabilityVersion]: '1.0',
      [WIRE_HEADERS.requestId]: requestId,
      [WIRE_HEADERS.from]: caller.nodeId,
      [WIRE_HEADERS.community]: community,
      [WIRE_HEADERS.timestamp]: timestamp,
      [WIRE_HEADERS.signature]: signed.signature,
    },
  };
}

/** A raw TCP client that sends a streamed call and never reads a byte of the answer. */
async function nonReadingCall(): Promise<Socket> {
  const { port } = new URL(served.url);
  const socket = connect({ host: '127.0.0.1', port: Number(port) });
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.pause();
  socket.on('error', () => undefined);
  const call = signedCall({});
  const head = Object.entries({
    ...call.headers,
    Host: `127.0.0.1:${port}`,
    'Content-Type': 'application/json',
    Accept: EVENT_STREAM_CONTENT_TYPE,
    'Content-Length': String(Buffer.byteLength(call.body)),
  })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.write(`POST /bus/v1/call HTTP/1.1\r\n${head}\r\n${call.body}`);
  return socket;
}

const client = () =>
  createHearthNetClient({ identity: caller, community, node: served.url, descriptorOf: () => FLOOD });

async function readAll(count: number): Promise<number> {
  let blobs = 0;
  for await (const frame of await client().call(
    'experimental.flood',
    { params: {}, input: { count } },
    {
      stream: true,
    },
  )) {
    if (frame.event === 'blob') blobs += 1;
  }
  return blobs;
}

describe('SSE streams to a client that does not read', () => {
  it('drops the client after drainTimeoutMs with bounded bytes queued, aborts the handler with a slow_consumer and frees its slot', async () => {
    // Warm up (the client, the JIT, heaps at their working size) before the RSS baseline.
    expect(await readAll(200)).toBe(200);
    const producedBefore = produced.frames;
    const rssBefore = process.memoryUsage.rss();
    let peakQueued = 0;
    let peakRss = 0;
    const sampling = setInterval(() => {
      for (const socket of sockets) peakQueued = Math.max(peakQueued, socket.writableLength);
      peakRss = Math.max(peakRss, process.memoryUsage.rss());
    }, 2);
    const bad = await nonReadingCall();
    try {
      // A well-behaved stream on the same server meanwhile gets every frame.
      expect(await readAll(200)).toBe(200);
      await expect.poll(() => aborts.length, { timeout: 5000 }).toBe(1);
      expect(aborts[0]).toMatchObject({ code: 'slow_consumer' });
      expect(aborts[0]).toMatchObject({ code: 'slow_consumer', details: { limit: 'drain_timeout' } });
      // The server closed its side of the non-reader's connection.
      await expect.poll(() => [...sockets].some((socket) => socket.remotePort === bad.localPort)).toBe(false);
      // What the server produced for the reader that never read is what the socket buffers hold, bounded.
      expect(produced.frames - producedBefore - 200).toBeLessThan((32 * 1024 * 1024) / BIG);
      expect(peakQueued).toBeLessThanOrEqual(256 * 1024);
      expect(peakRss - rssBefore).toBeLessThan(64 * 1024 * 1024);
      // Its max_concurrent slot is free again: two streams at once (maxConcurrent 2) both run.
      expect(await Promise.all([readAll(3), readAll(3)])).toEqual([3, 3]);
    } finally {
      clearInterval(sampling);
      bad.destroy();
    }
  }, 20_000);

  it.each([0, 1.5, 2 ** 31])('refuses drainTimeoutMs %s', (drainTimeoutMs) => {
    expect(() => toNodeListener(async () => new Response(null), { drainTimeoutMs })).toThrow(
      expect.objectContaining({ code: 'invalid_wire_options' }),
    );
  });
});
