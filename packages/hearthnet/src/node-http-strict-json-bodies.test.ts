// Issue #17 item 3: a signed body whose text repeats a key (or spells a number a double cannot hold) is
// refused wherever this package reads one over HTTP, although its signature verifies over the value
// JSON.parse makes of it (the last of the repeated members).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKET_POST } from './capabilities/catalogue/catalogue.js';
import {
  BadRequestError,
  type CapabilityDescriptor,
  CapabilityRegistry,
  InvalidSignatureError,
} from './capabilities/index.js';
import { referenceWire } from './compat/reference-wire.js';
import { keyPairFromSeed } from './crypto/key-pair.js';
import { signPayload, verifyPayload } from './crypto/payload-signature.js';
import { InMemoryEventStore } from './events/event-store.js';
import { createManifestHandler, fetchNodeManifest } from './manifests/index.js';
import { type ServedBusHandler, serveBusHandler } from './node-http.js';
import { communityId, LogBuilder } from './replay/replay.test-support.js';
import { syncWith } from './sync/sync-client.js';
import { createSyncHandler } from './sync/sync-handler.js';
import { SYNC_PATHS } from './sync/sync-protocol.js';
import {
  type CapabilityHandler,
  createBusHandler,
  createHearthNetClient,
  formatWireTimestamp,
  newRequestId,
  signRequestEnvelope,
  staticTrust,
  verifyRequestEnvelope,
  WIRE_HEADERS,
} from './wire/index.js';

const server = keyPairFromSeed(new Uint8Array(32).fill(41));
const caller = keyPairFromSeed(new Uint8Array(32).fill(42));
const community = server.nodeId;

/** Answers its input as its output: free-form, so any key or number reaches the handler. */
const ECHO: CapabilityDescriptor = {
  name: 'experimental.echo',
  version: '1.0',
  stability: 'unstable',
  trust: { level: 'member' },
  idempotency: { kind: 'none' },
  streaming: 'none',
  requestSchema: {
    type: 'object',
    properties: { params: { type: 'object' }, input: { type: 'object' } },
    required: ['params', 'input'],
  },
  responseSchema: { type: 'object' },
  streamSchema: null,
};

const calls: unknown[] = [];
const running: ServedBusHandler[] = [];
let contractNode: ServedBusHandler;
let referenceNode: ServedBusHandler;

function registry(): CapabilityRegistry<CapabilityHandler> {
  const capabilities = new CapabilityRegistry<CapabilityHandler>({});
  capabilities.register(
    MARKET_POST,
    ({ input }) => {
      calls.push(input);
      return { output: { event_id: `evt-${calls.length}`, lamport: calls.length }, meta: { ms: 1 } };
    },
    { maxConcurrent: 4 },
  );
  capabilities.register(
    ECHO,
    ({ input }) => {
      calls.push(input);
      return { output: input, meta: {} };
    },
    { maxConcurrent: 4 },
  );
  return capabilities;
}

async function serve(handler: (request: Request) => Promise<Response>): Promise<ServedBusHandler> {
  const served = await serveBusHandler(handler);
  running.push(served);
  return served;
}

beforeAll(async () => {
  const trust = staticTrust({ [caller.nodeId]: 'member' });
  contractNode = await serve(createBusHandler({ identity: server, registry: registry(), community, trust }));
  referenceNode = await serve(
    createBusHandler({ identity: server, registry: registry(), trust, wire: referenceWire }),
  );
});

afterAll(async () => {
  await Promise.all(running.map((served) => served.close()));
});

const post = {
  params: {},
  input: {
    client_id: 'c-1',
    category: 'offer',
    title: 'Wasser',
    location: { lat: 51.79, lng: 6.14, label: 'Kleve' },
  },
} as const;

/** Sends `text` as a contract call body, signed over `JSON.parse(text)`; answers the raw response. */
async function sendSigned(
  text: string,
  { capability = 'market.post', data = text, contentType = 'application/json' } = {},
): Promise<{ response: Response; verifies: boolean }> {
  const fields = {
    capability,
    version: '1.0',
    requestId: newRequestId(Date.now()),
    from: caller.nodeId,
    community,
    timestamp: formatWireTimestamp(Date.now()),
    body: JSON.parse(data) as unknown,
  };
  const { signature } = signRequestEnvelope(fields, caller);
  const response = await fetch(`${contractNode.url}/bus/v1/call`, {
    method: 'POST',
    headers: {
      'Content-Type': contentType,
      [WIRE_HEADERS.capability]: capability,
      [WIRE_HEADERS.capabilityVersion]: '1.0',
      [WIRE_HEADERS.requestId]: fields.requestId,
      [WIRE_HEADERS.from]: caller.nodeId,
      [WIRE_HEADERS.community]: community,
      [WIRE_HEADERS.timestamp]: fields.timestamp,
      [WIRE_HEADERS.signature]: signature,
    },
    body: text,
  });
  // What the handler would check without the strict reader: the signature over the parsed body.
  return { response, verifies: verifyRequestEnvelope(fields, signature).valid };
}

async function expectBadRequest(response: Response, message: string): Promise<void> {
  expect(response.status).toBe(400);
  const body = (await response.json()) as { error: string; message: string };
  expect(body.error).toBe('bad_request');
  expect(body.message).toContain(message);
}

describe('bus handler over HTTP', () => {
  it('refuses a correctly signed body that repeats a key with 400 bad_request naming it; the handler never runs', async () => {
    const before = calls.length;
    const text = JSON.stringify(post).replace('"title":"Wasser"', '"title":"FREE MONEY","title":"Wasser"');
    const { response, verifies } = await sendSigned(text);
    expect(verifies).toBe(true);
    await expectBadRequest(response, 'duplicate key "title" at $.input.title');
    expect(calls.length).toBe(before);
  });

  it('refuses a key repeated deeper down', async () => {
    const before = calls.length;
    const text = JSON.stringify(post).replace('"label":"Kleve"', '"label":"Kleve","label":"Goch"');
    const { response, verifies } = await sendSigned(text);
    expect(verifies).toBe(true);
    await expectBadRequest(response, 'duplicate key "label" at $.input.location.label');
    expect(calls.length).toBe(before);
  });

  it('refuses an integer a double cannot hold (the signature covers the rounded one)', async () => {
    const before = calls.length;
    const { response, verifies } = await sendSigned('{"input":{"n":9007199254740993},"params":{}}', {
      capability: 'experimental.echo',
    });
    expect(verifies).toBe(true);
    await expectBadRequest(response, 'number 9007199254740993 at $.input.n');
    expect(calls.length).toBe(before);
  });

  it('refuses a repeated key in the request frame of a client stream', async () => {
    const before = calls.length;
    const data = '{"input":{"a":1,"a":2},"params":{}}';
    const { response, verifies } = await sendSigned(`event: request\ndata: ${data}\n\n`, {
      capability: 'experimental.echo',
      data,
      contentType: 'text/event-stream',
    });
    expect(verifies).toBe(true);
    await expectBadRequest(response, 'duplicate key "a" at $.input.a');
    expect(calls.length).toBe(before);
  });

  it('refuses it on the reference wire too, where the signature covers the body alone', async () => {
    const before = calls.length;
    const text = JSON.stringify({ capability: 'market.post', version: '1.0', ...post }).replace(
      '"title":"Wasser"',
      '"title":"FREE MONEY","title":"Wasser"',
    );
    const { signature } = signPayload(JSON.parse(text) as Record<string, unknown>, caller);
    expect(verifyPayload({ ...JSON.parse(text), signature }, caller.nodeId).valid).toBe(true);
    const response = await fetch(`${referenceNode.url}/bus/v1/call`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        [WIRE_HEADERS.from]: caller.nodeId,
        [WIRE_HEADERS.signature]: signature,
      },
      body: text,
    });
    await expectBadRequest(response, 'duplicate key "title" at $.input.title');
    expect(calls.length).toBe(before);
  });
});

describe('client verifying a signed response', () => {
  const rewriting =
    (from: string, to: string): typeof fetch =>
    async (input, init) => {
      const real = await fetch(input, init);
      const text = await real.text();
      expect(text).toContain(from);
      return new Response(text.replace(from, to), { status: real.status, headers: real.headers });
    };

  it('refuses a response whose text repeats a key with InvalidSignatureError naming it', async () => {
    const client = createHearthNetClient({
      identity: caller,
      community,
      node: contractNode.url,
      peer: server.nodeId,
      fetch: rewriting('"event_id":"evt-', '"event_id":"evt-FREE-MONEY","event_id":"evt-'),
    });
    const error = await client.call('market.post', post).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidSignatureError);
    expect((error as Error).message).toContain('duplicate key "event_id" at $.output.event_id');
  });

  it('refuses a response with an integer a double cannot hold', async () => {
    const client = createHearthNetClient({
      identity: caller,
      community,
      node: contractNode.url,
      peer: server.nodeId,
      verifyResponses: 'all',
      fetch: rewriting('9007199254740992', '9007199254740993'),
    });
    const error = await client
      .call('experimental.echo', { params: {}, input: { n: 9007199254740992 } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidSignatureError);
    expect((error as Error).message).toContain('number 9007199254740993 at $.output.n');
  });
});

describe('event log sync over HTTP', () => {
  const log = new LogBuilder();
  const created = log.create();
  const body = JSON.stringify({ community_id: communityId, events: [created] });

  it('refuses pushed events whose text repeats a key with 400 bad_request; nothing is stored', async () => {
    const store = new InMemoryEventStore();
    const node = await serve(createSyncHandler({ store }));
    const push = (text: string) =>
      fetch(`${node.url}${SYNC_PATHS.events}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: text,
      });
    await expectBadRequest(
      await push(
        body.replace(
          '"event_type":"community.created"',
          '"event_type":"market.post.created","event_type":"community.created"',
        ),
      ),
      'duplicate key "event_type" at $.events[0].event_type',
    );
    await expectBadRequest(
      await push(body.replace('"name":"Niederrhein Demo"', '"name":"FREE MONEY","name":"Niederrhein Demo"')),
      'duplicate key "name" at $.events[0].data.name',
    );
    expect(await store.list(communityId)).toEqual([]);
    // The untouched body is taken.
    expect(await (await push(body)).json()).toMatchObject({ accepted: [created.event_id] });
  });

  it('refuses pulled events whose text repeats a key with sync_protocol; nothing is stored', async () => {
    const peerStore = new InMemoryEventStore();
    await peerStore.append(created);
    const peerHandler = createSyncHandler({ store: peerStore });
    const peer = await serve(async (request) => {
      const response = await peerHandler(request);
      if (new URL(request.url).pathname !== SYNC_PATHS.fetch) return response;
      const text = (await response.text()).replace(
        '"event_type":"community.created"',
        '"event_type":"market.post.created","event_type":"community.created"',
      );
      return new Response(text, { status: response.status, headers: response.headers });
    });
    const store = new InMemoryEventStore();
    const error = await syncWith(peer.url, { store }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'sync_protocol' });
    expect((error as Error).message).toContain('duplicate key "event_type" at $.events[0].event_type');
    expect(await store.list(communityId)).toEqual([]);
  });
});

describe('fetchNodeManifest', () => {
  it('refuses a signed manifest whose text repeats a key with bad_request', async () => {
    const manifestHandler = createManifestHandler({
      key: server,
      input: {
        display_name: 'garage-pc',
        community_id: community,
        profile: 'hearth',
        endpoints: [],
        capabilities: [],
      },
    });
    const node = await serve(async (request) => {
      const text = await (await manifestHandler(request)).text();
      return new Response(text.replace('"display_name":', '"display_name":"FREE MONEY","display_name":'), {
        headers: { 'content-type': 'application/json' },
      });
    });
    const error = await fetchNodeManifest(node.url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toContain('duplicate key "display_name" at $.display_name');
  });
});
