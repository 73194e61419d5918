// Client streams over real loopback HTTP: frames both ways on one call, `ack` back-pressure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJsonString } from './canonical-json/canonical-json.js';
import {
  BadRequestError,
  type CapabilityDescriptor,
  CapabilityRegistry,
  httpStatusForErrorCode,
} from './capabilities/index.js';
import type { JsonSchema } from './capabilities/json-schema.js';
import { referenceWire } from './compat/reference-wire.js';
import { keyPairFromSeed } from './crypto/key-pair.js';
import { type ServedBusHandler, serveBusHandler } from './node-http.js';
import { ACK_WINDOW_HEADER } from './wire/envelope.js';
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
import { encodeSseEvent, REQUEST_EVENT } from './wire/sse.js';

const server = keyPairFromSeed(new Uint8Array(32).fill(21));
const caller = keyPairFromSeed(new Uint8Array(32).fill(22));
const community = server.nodeId;

const frameSchema = (event: string, data: JsonSchema): JsonSchema => ({
  type: 'object',
  properties: { event: { const: event }, data },
  required: ['event', 'data'],
});

/** Sums the `n` frames the client sends: `ready`, a `partial` per frame, `done` with the total. */
const SUM: CapabilityDescriptor = {
  name: 'experimental.sum',
  version: '1.0',
  stability: 'unstable',
  trust: { level: 'member' },
  idempotency: { kind: 'none' },
  streaming: 'bidirectional',
  requestSchema: {
    type: 'object',
    properties: { params: { type: 'object' }, input: { type: 'object' } },
    required: ['params', 'input'],
  },
  responseSchema: null,
  streamSchema: {
    anyOf: [
      frameSchema('ready', { type: 'object' }),
      frameSchema('n', {
        type: 'object',
        properties: { value: { type: 'integer' } },
        required: ['value'],
        additionalProperties: false,
      }),
      frameSchema('partial', { type: 'object', properties: { total: { type: 'integer' } } }),
      frameSchema('done', { type: 'object', properties: { total: { type: 'integer' } } }),
    ],
  },
};

/** Streams `input.count` `tick` frames; records how many it has produced. */
const TICKS: CapabilityDescriptor = {
  ...SUM,
  name: 'experimental.ticks',
  streaming: 'server',
  streamSchema: {
    anyOf: [
      frameSchema('tick', { type: 'object', properties: { i: { type: 'integer' } } }),
      frameSchema('done', { type: 'object' }),
    ],
  },
};

const descriptorOf = (name: string) => [SUM, TICKS].find((d) => d.name === name);

let served: ServedBusHandler;
const produced = { ticks: 0 };
const sumAborts: string[] = [];

beforeAll(async () => {
  const registry = new CapabilityRegistry<CapabilityHandler>({});
  registry.register(
    SUM,
    (_request, context) =>
      (async function* () {
        context.signal.addEventListener('abort', () => sumAborts.push(context.requestId));
        if (context.clientFrames === undefined)
          throw new BadRequestError('experimental.sum needs a client stream');
        yield { event: 'ready', data: {} };
        let total = 0;
        for await (const frame of context.clientFrames) {
          total += (frame.data as { value: number }).value;
          yield { event: 'partial', data: { total } };
        }
        yield { event: 'done', data: { total } };
      })(),
    { maxConcurrent: 4 },
  );
  registry.register(
    TICKS,
    ({ input }) =>
      (async function* () {
        for (let i = 0; i < (input['count'] as number); i += 1) {
          produced.ticks = i + 1;
          yield { event: 'tick', data: { i } };
        }
        yield { event: 'done', data: {} };
      })(),
    { maxConcurrent: 4 },
  );
  const handler = createBusHandler({
    identity: server,
    registry,
    community,
    trust: staticTrust({ [caller.nodeId]: 'member' }),
  });
  served = await serveBusHandler(handler);
});

afterAll(async () => {
  await served.close();
});

const client = () =>
  createHearthNetClient({
    identity: caller,
    community,
    node: served.url,
    descriptorOf: (name) => descriptorOf(name),
  });

describe('client streams (duplex calls)', () => {
  it('sends frames while reading the server frames, and ends with the server done', async () => {
    const stream = await client().call(
      'experimental.sum',
      { params: {}, input: {} },
      { stream: true, duplex: true },
    );
    const seen: unknown[] = [];
    let sent = 0;
    for await (const frame of stream) {
      seen.push(frame);
      if (frame.event === 'ready' || frame.event === 'partial') {
        if (sent < 50) {
          sent += 1;
          await stream.send({ event: 'n', data: { value: sent } });
        } else if (sent === 50) {
          sent += 1;
          stream.end();
        }
      }
    }
    expect(seen[0]).toEqual({ event: 'ready', data: {} });
    expect(seen.at(-1)).toEqual({ event: 'done', data: { total: (50 * 51) / 2 } });
    expect(seen.filter((f) => (f as { event: string }).event === 'partial')).toHaveLength(50);
  });

  it('checks frames before sending them and refuses frames after end()', async () => {
    const stream = await client().call(
      'experimental.sum',
      { params: {}, input: {} },
      { stream: true, duplex: true },
    );
    await expect(stream.send({ event: 'n', data: { value: 'x' } })).rejects.toMatchObject({
      code: 'sse_protocol',
    });
    stream.end();
    await expect(stream.send({ event: 'n', data: { value: 1 } })).rejects.toMatchObject({
      code: 'invalid_wire_options',
    });
    const frames = [];
    for await (const frame of stream) frames.push(frame);
    expect(frames.at(-1)).toEqual({ event: 'done', data: { total: 0 } });
  });

  it('ends the stream with bad_request when the client sends a frame off the schema', async () => {
    const body = signedBody({ params: {}, input: {} }, 'experimental.sum');
    const response = await fetch(`${served.url}/bus/v1/call`, {
      method: 'POST',
      headers: {
        ...body.headers,
        'Content-Type': EVENT_STREAM_CONTENT_TYPE,
        Accept: EVENT_STREAM_CONTENT_TYPE,
      },
      body: `${encodeSseEvent({ event: REQUEST_EVENT, data: body.json })}event: n\ndata: {"value":"nope"}\n\n`,
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('event: ready');
    expect(text).toMatch(/event: error\ndata: \{"error":"bad_request"/);
  });

  it('answers 400 bad_request when the body does not start with a request frame', async () => {
    const body = signedBody({ params: {}, input: {} }, 'experimental.sum');
    const response = await fetch(`${served.url}/bus/v1/call`, {
      method: 'POST',
      headers: {
        ...body.headers,
        'Content-Type': EVENT_STREAM_CONTENT_TYPE,
        Accept: EVENT_STREAM_CONTENT_TYPE,
      },
      body: 'event: n\ndata: {"value":1}\n\n',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('bad_request');
  });

  it('verifies the signature over the request frame: a changed body is invalid_signature', async () => {
    const body = signedBody({ params: {}, input: {} }, 'experimental.sum');
    const response = await fetch(`${served.url}/bus/v1/call`, {
      method: 'POST',
      headers: {
        ...body.headers,
        'Content-Type': EVENT_STREAM_CONTENT_TYPE,
        Accept: EVENT_STREAM_CONTENT_TYPE,
      },
      body: encodeSseEvent({ event: REQUEST_EVENT, data: '{"input":{"x":1},"params":{}}' }),
    });
    expect(response.status).toBe(httpStatusForErrorCode('invalid_signature'));
    expect(((await response.json()) as { error: string }).error).toBe('invalid_signature');
  });

  it('refuses a client stream on the reference wire or without stream: true', async () => {
    const reference = createHearthNetClient({
      identity: caller,
      community,
      node: served.url,
      wire: referenceWire,
    });
    await expect(
      reference.call('experimental.sum', { params: {}, input: {} }, { stream: true, duplex: true }),
    ).rejects.toMatchObject({ code: 'invalid_wire_options' });
    await expect(
      client().call('experimental.sum', { params: {}, input: {} }, { duplex: true } as never),
    ).rejects.toMatchObject({ code: 'invalid_wire_options' });
    await expect(
      client().call('experimental.ticks', { params: {}, input: {} }, { stream: true, ackWindow: 0 }),
    ).rejects.toMatchObject({ code: 'invalid_wire_options' });
  });

  it('cancels the handler when the client closes a duplex stream', async () => {
    const stream = await client().call(
      'experimental.sum',
      { params: {}, input: {} },
      { stream: true, duplex: true },
    );
    for await (const frame of stream) {
      if (frame.event === 'ready') break;
    }
    await expect.poll(() => sumAborts).toContain(stream.requestId);
  });
});

describe('ack back-pressure (contract §5.3)', () => {
  it('keeps at most the window unacknowledged, and flows again as the client reads', async () => {
    produced.ticks = 0;
    const stream = await client().call(
      'experimental.ticks',
      { params: {}, input: { count: 200 } },
      { stream: true, ackWindow: 4 },
    );
    const iterator = stream[Symbol.asyncIterator]();
    // Read three frames (acknowledging 2), then stop reading for a while.
    for (let i = 0; i < 3; i += 1) await iterator.next();
    await new Promise((resolve) => setTimeout(resolve, 150));
    // 2 acknowledged + a window of 4, plus the one frame the server holds waiting for credit.
    expect(produced.ticks).toBeLessThanOrEqual(7);
    let last: unknown;
    for (;;) {
      const next = await iterator.next();
      if (next.done === true) break;
      last = next.value;
    }
    expect(last).toEqual({ event: 'done', data: {} });
    expect(produced.ticks).toBe(200);
  });

  it('without a window the server runs ahead of a client that stops reading', async () => {
    produced.ticks = 0;
    const stream = await client().call(
      'experimental.ticks',
      { params: {}, input: { count: 200 } },
      { stream: true },
    );
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    await expect.poll(() => produced.ticks).toBeGreaterThan(7);
    await stream.close();
  });

  it('answers 400 for an unusable ack window header', async () => {
    const body = signedBody({ params: {}, input: { count: 1 } }, 'experimental.ticks');
    const response = await fetch(`${served.url}/bus/v1/call`, {
      method: 'POST',
      headers: {
        ...body.headers,
        'Content-Type': EVENT_STREAM_CONTENT_TYPE,
        Accept: EVENT_STREAM_CONTENT_TYPE,
        [ACK_WINDOW_HEADER]: '0',
      },
      body: encodeSseEvent({ event: REQUEST_EVENT, data: body.json }),
    });
    expect(response.status).toBe(400);
  });
});

/** Headers and canonical body text of a signed contract call, for hand-written requests. */
function signedBody(request: { params: object; input: object }, capability: string) {
  const requestId = newRequestId(Date.now());
  const timestamp = formatWireTimestamp(Date.now());
  const signed = signRequestEnvelope(
    { capability, version: '1.0', requestId, from: caller.nodeId, community, timestamp, body: request },
    caller,
  );
  return {
    json: canonicalJsonString(signed.body),
    headers: {
      [WIRE_HEADERS.capability]: capability,
      [WIRE_HEADERS.capabilityVersion]: '1.0',
      [WIRE_HEADERS.requestId]: requestId,
      [WIRE_HEADERS.from]: caller.nodeId,
      [WIRE_HEADERS.community]: community,
      [WIRE_HEADERS.timestamp]: timestamp,
      [WIRE_HEADERS.signature]: signed.signature,
    },
  };
}
