// hearthnetReferenceNodeSuite against our own node serving the reference dialect: each finding passes
// or fails on its own, by what the node does about that one rule.
import { keyPairFromSeed } from '@agentwire/hearthnet';
import { CapabilityRegistry, catalogueDescriptor } from '@agentwire/hearthnet/capabilities';
import { referenceNodeRoutes, referenceWire } from '@agentwire/hearthnet/compat';
import { InMemoryEventStore } from '@agentwire/hearthnet/events';
import { createManifestHandler, NODE_MANIFEST_PATH } from '@agentwire/hearthnet/manifests';
import { type ServedBusHandler, serveBusHandler } from '@agentwire/hearthnet/node-http';
import { createSyncHandler } from '@agentwire/hearthnet/sync';
import {
  BUS_CALL_PATH,
  type CapabilityHandler,
  createBusHandler,
  routeByPath,
  staticTrust,
} from '@agentwire/hearthnet/wire';
import { afterEach, describe, expect, it } from 'vitest';
import { runSuite } from '../../run-suite.js';
import { hearthnetReferenceNodeSuite } from './reference-node-suite.js';

const node = keyPairFromSeed(new Uint8Array(32).fill(61));
const caller = keyPairFromSeed(new Uint8Array(32).fill(62));
const community = node.nodeId;
const served: ServedBusHandler[] = [];
afterEach(async () => {
  await Promise.all(served.splice(0).map((s) => s.close()));
});

async function referenceModeNode(acceptUnsigned: boolean): Promise<string> {
  const registry = new CapabilityRegistry<CapabilityHandler>();
  registry.register(
    catalogueDescriptor('market.post'),
    () => ({ output: { event_id: '01J00000000000000000000000', lamport: 1 }, meta: {} }),
    { maxConcurrent: 4 },
  );
  let url = '';
  const server = await serveBusHandler(
    routeByPath({
      ...referenceNodeRoutes({ identity: node, registry }),
      [BUS_CALL_PATH]: createBusHandler({
        identity: node,
        registry,
        trust: staticTrust({ [caller.nodeId]: 'member' }, acceptUnsigned ? 'member' : 'unknown'),
        wire: referenceWire,
        acceptUnsigned,
      }),
      [NODE_MANIFEST_PATH]: createManifestHandler({
        key: node,
        input: () => ({
          display_name: 'reference-mode node',
          community_id: community,
          profile: 'hearth',
          endpoints: [{ transport: 'http', host: '127.0.0.1', port: Number(new URL(url).port) }],
          capabilities: registry.manifestEntries(),
        }),
      }),
      '/sync/v1/': createSyncHandler({ store: new InMemoryEventStore() }),
    }),
  );
  served.push(server);
  url = server.url;
  return url;
}

async function statuses(baseUrl: string): Promise<Record<string, string>> {
  const report = await runSuite(
    hearthnetReferenceNodeSuite({
      baseUrl,
      identity: caller,
      community,
      call: { capability: 'market.post', input: { category: 'offer', title: 'Bread' } },
    }),
  );
  return Object.fromEntries(
    report.results.map((r) => [r.id.replace('hearthnet.reference-node.', ''), r.status]),
  );
}

describe('hearthnetReferenceNodeSuite', () => {
  it('reports each rule of the contract a reference-mode node breaks, and only those', async () => {
    expect(await statuses(await referenceModeNode(true))).toEqual({
      'call.ok': 'passed',
      'call.unknown-capability': 'passed',
      'manifest.lists-call': 'passed',
      health: 'passed',
      // Serving reference callers means serving unsigned calls, routed in the body, answered unsigned.
      'finding.unsigned-call-refused': 'failed',
      'finding.forged-call-refused': 'passed',
      'finding.header-routing': 'failed',
      'finding.signed-answers': 'failed',
      'finding.manifest-signed': 'passed',
      'finding.schema-hashes': 'passed',
      'finding.sync-heads': 'passed',
      'finding.forged-event-refused': 'passed',
      'finding.unsigned-event-refused': 'passed',
    });
  });

  it('fails every finding against a node that accepts anything, as a reference node does', async () => {
    const lenient = await serveBusHandler(async (request) => {
      const path = new URL(request.url).pathname;
      const json = (status: number, body: unknown) =>
        new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
      if (path === '/bus/v1/call') {
        const body = (await request.json()) as { capability?: string };
        if (body.capability === undefined) return json(400, { error: 'missing_capability' });
        if (body.capability.startsWith('experimental.')) {
          return json(500, { error: 'call_error', message: `no provider for ${body.capability}@(1, 0)` });
        }
        return json(200, { output: { event_id: 'evt:1', lamport: 1 }, meta: {}, _routed_via: 'local' });
      }
      if (path === '/manifest') {
        return json(200, {
          node_id: 'local-1a2b3c4d',
          capabilities: [{ name: 'market.post', version: '1.0', schema_hash: 'blake3:00' }],
        });
      }
      if (path === '/health') return json(200, { status: 'ok' });
      if (path === '/sync/v1/heads') return json(200, { community: 'not a lamport' });
      // The contract's answer form: the accepted event ids as a list.
      if (path === '/sync/v1/events') return json(200, { accepted: ['e1'], rejected: [] });
      return json(404, {});
    });
    served.push(lenient);
    expect(await statuses(lenient.url)).toEqual({
      'call.ok': 'passed',
      'call.unknown-capability': 'passed',
      'manifest.lists-call': 'passed',
      health: 'passed',
      'finding.unsigned-call-refused': 'failed',
      'finding.forged-call-refused': 'failed',
      'finding.header-routing': 'failed',
      'finding.signed-answers': 'failed',
      'finding.manifest-signed': 'failed',
      'finding.schema-hashes': 'failed',
      'finding.sync-heads': 'failed',
      'finding.forged-event-refused': 'failed',
      'finding.unsigned-event-refused': 'failed',
    });
  });

  it('passes the unsigned-call finding on its own when the node refuses unsigned calls', async () => {
    const found = await statuses(await referenceModeNode(false));
    expect(found['finding.unsigned-call-refused']).toBe('passed');
    expect(found['call.ok']).toBe('passed');
    expect(found['finding.header-routing']).toBe('failed');
  });
});
