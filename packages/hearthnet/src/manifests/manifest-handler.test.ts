import { afterEach, describe, expect, it } from 'vitest';
import { canonicalJsonString } from '../canonical-json/canonical-json.js';
import { CapabilityRegistry } from '../capabilities/capability-registry.js';
import { MARKET_POST } from '../capabilities/catalogue/catalogue.js';
import {
  BadRequestError,
  ExpiredError,
  InvalidSignatureError,
  NotFoundError,
  PartitionError,
} from '../capabilities/hearthnet-errors.js';
import { keyPairFromSeed } from '../crypto/key-pair.js';
import { type ServedBusHandler, serveBusHandler } from '../node-http.js';
import { routeByPath } from '../wire/bus-handler.js';
import { createManifestHandler, fetchNodeManifest, NODE_MANIFEST_PATH } from './manifest-handler.js';
import type { NodeManifestInput } from './node-manifest.js';
import {
  buildNodeManifest,
  InMemoryPinStore,
  NodeManifestVerifier,
  verifyNodeManifest,
} from './node-manifest.js';

const node = keyPairFromSeed(new Uint8Array(32).fill(7));
const impostor = keyPairFromSeed(new Uint8Array(32).fill(8));
const community = keyPairFromSeed(new Uint8Array(32).fill(9)).nodeId;
const T0 = Date.UTC(2026, 10, 26, 6, 0, 0, 250);
const input: NodeManifestInput = {
  display_name: 'garage-pc',
  community_id: community,
  profile: 'hearth',
  endpoints: [{ transport: 'http', host: '127.0.0.1', port: 7080 }],
  capabilities: [],
};

const get = (path = NODE_MANIFEST_PATH, method = 'GET') => new Request(`http://node.test${path}`, { method });

describe('createManifestHandler', () => {
  it('serves the signed manifest as canonical JSON that verifies', async () => {
    const handler = createManifestHandler({ key: node, input, clock: () => T0 });
    const response = await handler(get());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const text = await response.text();
    const manifest = JSON.parse(text);
    expect(text).toBe(canonicalJsonString(manifest));
    expect(manifest).toEqual(buildNodeManifest(input, node, { now: T0 }));
    expect(verifyNodeManifest(manifest, { now: T0 })).toMatchObject({ valid: true });
  });

  it("lists a registry's capabilities as manifestEntries() gives them", async () => {
    const registry = new CapabilityRegistry<() => unknown>({});
    registry.register(MARKET_POST, () => ({}), { maxConcurrent: 3 });
    const handler = createManifestHandler({
      key: node,
      input: () => ({ ...input, capabilities: registry.manifestEntries() }),
    });
    const manifest = JSON.parse(await (await handler(get())).text());
    expect(manifest.capabilities).toEqual([
      expect.objectContaining({ name: 'market.post', version: '1.0', max_concurrent: 3 }),
    ]);
  });

  it('re-signs only when less than refreshBeforeExpiryMs of the lifetime is left', async () => {
    let now = T0;
    let calls = 0;
    const handler = createManifestHandler({
      key: node,
      input: (at) => {
        calls += 1;
        return { ...input, uptime_seconds: Math.floor((at - T0) / 1000) };
      },
      clock: () => now,
    });
    const served = async () => JSON.parse(await (await handler(get())).text());
    const first = await served();
    now = T0 + 19_000; // expires_at is T0 (whole seconds) + 30 s: 10.75 s left → still served
    expect(await served()).toEqual(first);
    now = T0 + 20_000; // 9.75 s left → re-signed
    const second = await served();
    expect(second.issued_at).toBe('2026-11-26T06:00:20Z');
    expect(second.uptime_seconds).toBe(20);
    expect(calls).toBe(2);
  });

  it('signs once for requests that arrive together', async () => {
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const handler = createManifestHandler({
      key: node,
      input: async () => {
        calls += 1;
        await gate;
        return input;
      },
    });
    const pending = [handler(get()), handler(get()), handler(get())];
    release();
    const bodies = await Promise.all(pending.map(async (response) => (await response).text()));
    expect(new Set(bodies).size).toBe(1);
    expect(calls).toBe(1);
  });

  it('answers HEAD without a body, other methods 400 and other paths 404 with §5.4 bodies', async () => {
    const handler = createManifestHandler({ key: node, input });
    const head = await handler(get(NODE_MANIFEST_PATH, 'HEAD'));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await handler(get(NODE_MANIFEST_PATH, 'POST'));
    expect(post.status).toBe(400);
    expect(await post.json()).toMatchObject({ error: 'bad_request' });
    const elsewhere = await handler(get('/manifest/extra'));
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toMatchObject({ error: 'not_found' });
  });

  it('answers 500 internal_error without leaking the message when the input function fails, then recovers', async () => {
    let fail = true;
    const handler = createManifestHandler({
      key: node,
      input: () => {
        if (fail) throw new Error('database password is hunter2');
        return input;
      },
    });
    const broken = await handler(get());
    expect(broken.status).toBe(500);
    const body = await broken.text();
    expect(JSON.parse(body)).toMatchObject({ error: 'internal_error' });
    expect(body).not.toContain('hunter2');
    fail = false;
    expect((await handler(get())).status).toBe(200);
  });

  it('refuses unusable options with typed errors', () => {
    expect(() => createManifestHandler({ key: {} as never, input })).toThrow(
      expect.objectContaining({ code: 'invalid_manifest_handler_options' }),
    );
    expect(() => createManifestHandler({ key: node, input: null as never })).toThrow(
      expect.objectContaining({ code: 'invalid_manifest_handler_options' }),
    );
    for (const refreshBeforeExpiryMs of [-1, 30_000, Number.NaN]) {
      expect(() => createManifestHandler({ key: node, input, refreshBeforeExpiryMs })).toThrow(
        expect.objectContaining({ code: 'invalid_manifest_handler_options' }),
      );
    }
    expect(() =>
      createManifestHandler({ key: node, input: { ...input, profile: 'laptop' as never } }),
    ).toThrow(expect.objectContaining({ code: 'invalid_node_manifest' }));
  });
});

describe('fetchNodeManifest over loopback', () => {
  let served: ServedBusHandler | undefined;
  afterEach(async () => {
    await served?.close();
    served = undefined;
  });

  it('returns the verified manifest and pins its key', async () => {
    served = await serveBusHandler(
      routeByPath({ [NODE_MANIFEST_PATH]: createManifestHandler({ key: node, input }) }),
      {
        port: 0,
      },
    );
    const pinStore = new InMemoryPinStore();
    const manifest = await fetchNodeManifest(served.url, {
      verifier: new NodeManifestVerifier({ pinStore }),
      expectNodeId: node.nodeId,
    });
    expect(manifest.node_id).toBe(node.nodeId);
    expect(manifest.display_name).toBe('garage-pc');
    await expect(fetchNodeManifest(served.url, { expectNodeId: impostor.nodeId })).rejects.toBeInstanceOf(
      InvalidSignatureError,
    );
  });

  it('refuses an expired, a forged, a non-JSON and a missing manifest with the contract errors', async () => {
    const stale = buildNodeManifest(input, node, { now: Date.now() - 60_000 });
    const forged = { ...buildNodeManifest(input, node), display_name: 'someone-else' };
    let answer: Response | undefined;
    served = await serveBusHandler(
      async () => answer ?? Response.json({ error: 'not_found', message: 'no manifest' }, { status: 404 }),
      { port: 0 },
    );
    const fetched = (response: Response | undefined) => {
      answer = response;
      return fetchNodeManifest(served!.url);
    };
    await expect(fetched(Response.json(stale))).rejects.toBeInstanceOf(ExpiredError);
    await expect(fetched(Response.json(forged))).rejects.toBeInstanceOf(InvalidSignatureError);
    await expect(fetched(new Response('<html>'))).rejects.toBeInstanceOf(BadRequestError);
    await expect(fetched(undefined)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('reports an unreachable node as partition and a bad URL as a usage error', async () => {
    served = await serveBusHandler(async () => new Response('x'), { port: 0 });
    const url = served.url;
    await served.close();
    served = undefined;
    await expect(fetchNodeManifest(url)).rejects.toBeInstanceOf(PartitionError);
    await expect(fetchNodeManifest('not a url')).rejects.toMatchObject({
      code: 'invalid_manifest_handler_options',
    });
  });
});
