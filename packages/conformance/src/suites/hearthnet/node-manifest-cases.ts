// The `manifest.*` cases of `hearthnet.node`: the node's own manifest, fetched from `GET /manifest`.

import { catalogueDescriptor, referenceSchemaHash, schemaHash } from '@agentwire/hearthnet/capabilities';
import {
  NODE_MANIFEST_PATH,
  type SignedNodeManifest,
  verifyNodeManifest,
} from '@agentwire/hearthnet/manifests';
import { isMediaType, JSON_CONTENT_TYPE, WIRE_HEADERS } from '@agentwire/hearthnet/wire';
import { isJsonObject } from '@agentwire/internal';
import { assertEqual, assertTrue, fail } from '../../assert.js';
import type { ConformanceCase } from '../../suite.js';
import type { HearthNetNodeSuiteContext } from './node-suite-checks.js';
import { clip, expectStatus, nodeCase, readJsonBody } from './node-suite-checks.js';

type Ctx = HearthNetNodeSuiteContext;

/** The version the `manifest.*` cases arrived in. */
const SINCE = '1.2.0';

/**
 * The manifest cases. `send` makes one signed call of `call` and answers its response (the
 * `answers-as` case compares the node's `X-HearthNet-From` with the manifest).
 */
export function manifestCases(send: (ctx: Ctx) => Promise<Response>): readonly ConformanceCase<Ctx>[] {
  return [
    nodeCase(
      'manifest.valid',
      'GET /manifest answers a node manifest that passes every §6.1 rule: shape, versions, 30 s lifetime, signature by node_id, not expired',
      'HearthNet §6.1',
      'required',
      'manifest',
      async (ctx) => {
        const manifest = await fetchManifest(ctx);
        if (ctx.expectNodeId !== undefined) assertEqual(manifest.node_id, ctx.expectNodeId, 'node_id');
      },
      SINCE,
    ),
    nodeCase(
      'manifest.community',
      "the manifest's community_id is the community the suite calls as (X-HearthNet-Community)",
      'HearthNet §6.1',
      'required',
      'manifest',
      async (ctx) => {
        const manifest = await fetchManifest(ctx);
        assertEqual(manifest.community_id, ctx.community, 'community_id');
      },
      SINCE,
    ),
    nodeCase(
      'manifest.answers-as',
      'the node answers calls as the node its manifest names (X-HearthNet-From equals node_id)',
      'HearthNet §5.2, §6.1',
      'required',
      'manifest',
      async (ctx) => {
        const manifest = await fetchManifest(ctx);
        const response = await send(ctx);
        await response.body?.cancel();
        const from = response.headers.get(WIRE_HEADERS.from);
        if (from === null) fail(`the answer to a signed call carries no ${WIRE_HEADERS.from}`);
        assertEqual(from, manifest.node_id, `${WIRE_HEADERS.from} of a call vs the manifest's node_id`);
      },
      SINCE,
    ),
    nodeCase(
      'manifest.capabilities',
      'the manifest lists each capability once, catalogue capabilities with their schema hash, and the ones the suite calls',
      'HearthNet §3.3, §6.1',
      'recommended',
      'manifest',
      async (ctx) => {
        const manifest = await fetchManifest(ctx);
        const seen = new Set<string>();
        for (const [index, entry] of manifest.capabilities.entries()) {
          const key = `${entry.name}@${entry.version}`;
          assertTrue(!seen.has(key), `capabilities[${index}]: ${key} is listed twice`);
          seen.add(key);
          const descriptor = catalogueDescriptor(entry.name);
          if (descriptor === undefined || descriptor.version !== entry.version) continue;
          const expected = [schemaHash(descriptor), referenceSchemaHash(entry.name, entry.version)];
          assertTrue(
            expected.includes(entry.schema_hash),
            `capabilities[${index}] (${key}): schema_hash ${entry.schema_hash} is neither the catalogue's ${expected[0]} nor the reference form ${expected[1]}`,
          );
        }
        const major = (version: string) => version.split('.')[0];
        const { call, stream, longStream } = ctx.capabilities;
        for (const used of [call, stream, longStream]) {
          if (used === undefined) continue;
          const version = used.version ?? '1.0';
          assertTrue(
            manifest.capabilities.some(
              (entry) => entry.name === used.capability && major(entry.version) === major(version),
            ),
            `the manifest does not list ${used.capability}@${major(version)}.x, which the node serves: ${clip(
              manifest.capabilities.map(({ name, version: listed }) => `${name}@${listed}`),
            )}`,
          );
        }
        if (longStream?.maxConcurrent !== undefined) {
          const entry = manifest.capabilities.find((listed) => listed.name === longStream.capability);
          assertEqual(
            entry?.max_concurrent,
            longStream.maxConcurrent,
            `max_concurrent of ${longStream.capability}`,
          );
        }
      },
      SINCE,
    ),
  ];
}

/** `GET /manifest`, checked with every §6.1 rule (the node's clock may lag by the manifest clock skew). */
async function fetchManifest(ctx: Ctx): Promise<SignedNodeManifest> {
  const url = new URL(NODE_MANIFEST_PATH, ctx.url);
  const response = await ctx.fetch(url, { headers: { Accept: JSON_CONTENT_TYPE } });
  await expectStatus(response, 200, `GET ${NODE_MANIFEST_PATH}`);
  assertTrue(
    isMediaType(response.headers.get('Content-Type'), JSON_CONTENT_TYPE),
    `GET ${NODE_MANIFEST_PATH}: Content-Type is ${String(response.headers.get('Content-Type'))}, not ${JSON_CONTENT_TYPE}`,
  );
  const body = await readJsonBody(response);
  assertTrue(isJsonObject(body), `the manifest is not a JSON object: ${clip(body)}`);
  const now = Date.now();
  const verdict = verifyNodeManifest(body, { now, clockSkewMs: ctx.manifestClockSkewMs });
  if (!verdict.valid) {
    fail(
      `the manifest is refused (${verdict.reason}, ${verdict.code}): ${verdict.message}` +
        (verdict.reason === 'expired' ? ` — the suite's clock reads ${new Date(now).toISOString()}` : ''),
    );
  }
  return verdict.manifest;
}
