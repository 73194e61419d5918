// The signed HearthNet wire over loopback HTTP, against a plain unsigned `fetch` of the same handler on
// the same server, in one run (issue 6: "report the signing overhead ratio"). Three routes of one
// `node:http` server, called one request at a time over the same keep-alive `fetch`:
// - plain: `fetch` POSTs the JSON body; the route parses it, runs the `market.post` handler, writes JSON;
// - unsigned bus: `fetch` with the `X-HearthNet-*` routing headers but no signature, to a bus handler
//   that accepts unsigned calls and signs nothing (routing, trust, schema validation, dispatch);
// - signed: `createHearthNetClient().call('market.post')` → the bus handler: request validated, signed
//   (§5.1) and verified with replay protection, response signed (§5.2), verified and validated.
// Async: the cases run in interleaved rounds on this process's event loop.

import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { keyPairFromSeed } from '@agentwire/hearthnet';
import { CapabilityRegistry, catalogueDescriptor } from '@agentwire/hearthnet/capabilities';
import { serveBusHandler } from '@agentwire/hearthnet/node-http';
import {
  type CapabilityHandler,
  createBusHandler,
  createHearthNetClient,
  newRequestId,
  staticTrust,
  WIRE_HEADERS,
} from '@agentwire/hearthnet/wire';

/** How much the measurement does; `quick` is for a smoke run. */
export interface HearthNetWireBenchOptions {
  readonly quick?: boolean;
}

const server = keyPairFromSeed(Uint8Array.from({ length: 32 }, (_, i) => (i * 5 + 1) & 0xff));
const caller = keyPairFromSeed(Uint8Array.from({ length: 32 }, (_, i) => (i * 11 + 7) & 0xff));
const community = server.nodeId;
const PLAIN_PATH = '/bench/plain';
const UNSIGNED_PATH = '/bench/unsigned';

/** A realistic offer (≈330 bytes of JSON); `client_id` is the one field that changes per call. */
const post = {
  params: {},
  input: {
    client_id: '01JH4Z3Q8M9X2V7K5T1C0RWEYD',
    category: 'offer' as const,
    title: 'Wasserkanister, 20 L, lebensmittelecht',
    body: 'Zwei Kanister abzugeben, gereinigt, mit Hahn. Abholung in Kleve-Materborn, abends ab 18 Uhr.',
    location: { lat: 51.7756, lng: 6.1262, label: 'Kleve-Materborn' },
    tags: ['wasser', 'camping', 'verschenken'],
    ttl_seconds: 604_800,
  },
};

let posts = 0;
/** What every route answers: the `market.post` response of a new post. */
function newPost() {
  posts += 1;
  return { output: { event_id: `evt-${posts}`, lamport: posts }, meta: { ms: 0 } };
}

async function startNode() {
  const registry = new CapabilityRegistry<CapabilityHandler>({});
  registry.register(catalogueDescriptor('market.post'), newPost, { maxConcurrent: 64 });
  const trust = staticTrust({ [caller.nodeId]: 'member' });
  const signed = createBusHandler({ identity: server, registry, community, trust });
  const unsigned = createBusHandler({
    identity: server,
    registry,
    community,
    trust: staticTrust({}, 'member'),
    acceptUnsigned: true,
    signResponses: false,
    path: UNSIGNED_PATH,
  });
  return serveBusHandler(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === UNSIGNED_PATH) return unsigned(request);
    if (path !== PLAIN_PATH) return signed(request);
    const body = (await request.json()) as { input?: { title?: unknown } };
    if (typeof body.input?.title !== 'string')
      return Response.json({ error: 'bad_request' }, { status: 400 });
    return Response.json(newPost());
  });
}

/** Wall-clock and CPU (user + system, client and server together) microseconds per call. */
interface CallCost {
  readonly wall: number;
  readonly cpu: number;
}

/** Runs `call` `count` times in a row and measures what one call costs. */
async function costPerCall(count: number, call: (i: number) => Promise<unknown>): Promise<CallCost> {
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < count; i++) await call(i);
  const wall = ((performance.now() - start) * 1000) / count;
  const cpu = process.cpuUsage(cpuBefore);
  return { wall, cpu: (cpu.user + cpu.system) / count };
}

/**
 * CPU µs of the raw crypto one signed call needs — two Ed25519 signatures (request, response) and two
 * verifications — on node:crypto, over messages the size of the call's signed request and response.
 */
function rawCryptoCost(count: number): number {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const request = Buffer.alloc(480, 0x61);
  const response = Buffer.alloc(360, 0x62);
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const requestSignature = sign(null, request, privateKey);
    const responseSignature = sign(null, response, privateKey);
    if (
      !verify(null, request, publicKey, requestSignature) ||
      !verify(null, response, publicKey, responseSignature)
    ) {
      throw new Error('benchmark self-check failed: a raw signature did not verify');
    }
  }
  const cpu = process.cpuUsage(cpuBefore);
  return (cpu.user + cpu.system) / count;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function printTable(title: string, header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  console.log(`\n### ${title}\n`);
  console.log(line(header));
  console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const r of rows) console.log(line(r));
}

/** Measures the three routes, prints wall and CPU µs per call with their ratios to the plain route, returns the summary line. */
export async function benchHearthNetWire(options: HearthNetWireBenchOptions = {}): Promise<string[]> {
  const rounds = options.quick ? 3 : 7;
  const perRound = options.quick ? 100 : 300;
  const node = await startNode();
  const client = createHearthNetClient({ identity: caller, community, node: node.url, peer: server.nodeId });
  const withClientId = (i: number) => ({
    ...post,
    input: { ...post.input, client_id: `${newRequestId()}-${i}` },
  });
  const plainBody = JSON.stringify(post);
  const unsignedHeaders = {
    'Content-Type': 'application/json',
    [WIRE_HEADERS.capability]: 'market.post',
    [WIRE_HEADERS.capabilityVersion]: '1.0',
  };
  const cases = [
    {
      name: 'plain fetch, unsigned route',
      call: async () => {
        const response = await fetch(`${node.url}${PLAIN_PATH}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: plainBody,
        });
        if (!response.ok) throw new Error('benchmark self-check failed: the plain route did not answer 200');
        return response.json();
      },
    },
    {
      name: 'fetch → bus handler, unsigned',
      call: async () => {
        const response = await fetch(`${node.url}${UNSIGNED_PATH}`, {
          method: 'POST',
          headers: { ...unsignedHeaders, [WIRE_HEADERS.requestId]: newRequestId() },
          body: plainBody,
        });
        if (!response.ok) throw new Error('benchmark self-check failed: the unsigned bus did not answer 200');
        return response.json();
      },
    },
    {
      name: 'signed client.call (§5.1 + §5.2)',
      call: (i: number) => client.call('market.post', withClientId(i)),
    },
  ] as const;
  try {
    // Self-check: the signed route answers with a response signature the client verified against `peer`.
    const check = await client.call('market.post', withClientId(0));
    if (typeof check.output.event_id !== 'string') {
      throw new Error('benchmark self-check failed: the signed call returned no event id');
    }
    for (const c of cases) await costPerCall(perRound, c.call);
    rawCryptoCost(perRound);
    const samples = cases.map((): CallCost[] => []);
    const cryptoSamples: number[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const [i, c] of cases.entries()) samples[i]?.push(await costPerCall(perRound, c.call));
      cryptoSamples.push(rawCryptoCost(perRound));
    }
    const wall = samples.map((costs) => median(costs.map((cost) => cost.wall)));
    const cpu = samples.map((costs) => median(costs.map((cost) => cost.cpu)));
    const crypto = median(cryptoSamples);
    const at = (values: readonly number[], i: number) => values[i] ?? Number.NaN;
    printTable(
      `HearthNet wire — market.post round trip over loopback HTTP (${rounds} × ${perRound} calls per case)`,
      ['case', 'µs/call', 'calls/s', 'vs plain', 'CPU µs/call', 'vs plain'],
      cases.map((c, i) => [
        c.name,
        at(wall, i).toFixed(1),
        Math.round(1e6 / at(wall, i)).toLocaleString('en-US'),
        `${(at(wall, i) / at(wall, 0)).toFixed(2)}×`,
        at(cpu, i).toFixed(1),
        `${(at(cpu, i) / at(cpu, 0)).toFixed(2)}×`,
      ]),
    );
    console.log(
      `\nRaw crypto of one signed call (2 Ed25519 signs + 2 verifies, node:crypto), same run: ${crypto.toFixed(1)} CPU µs.`,
    );
    // Goal (issue 22): the wire's own work (routing, checks, canonical JSON, envelopes) at most half its signatures' cost.
    const budget = at(cpu, 0) + 1.5 * crypto;
    const ownWork = at(cpu, 2) - at(cpu, 0) - crypto;
    return [
      `signed market.post round trip vs plain fetch: ${(at(wall, 2) / at(wall, 0)).toFixed(2)}× the time ` +
        `(${at(wall, 2).toFixed(0)} µs vs ${at(wall, 0).toFixed(0)} µs), ` +
        `${(at(cpu, 2) / at(cpu, 0)).toFixed(2)}× the CPU (${at(cpu, 2).toFixed(0)} µs vs ${at(cpu, 0).toFixed(0)} µs); ` +
        `unsigned through the bus: ${(at(wall, 1) / at(wall, 0)).toFixed(2)}× the time`,
      `signed call CPU ${at(cpu, 2).toFixed(0)} µs vs plain ${at(cpu, 0).toFixed(0)} µs + 1.5 × raw crypto ` +
        `${crypto.toFixed(0)} µs = ${budget.toFixed(0)} µs: the wire's own work is ${(ownWork / crypto).toFixed(2)}× the ` +
        `crypto (goal ≤ 0.5×) ${at(cpu, 2) <= budget ? 'met' : 'NOT met'}`,
    ];
  } finally {
    await node.close();
  }
}
