// Blob transfer over loopback HTTP (issue 10), in one process, against a plain HTTP download of the same
// bytes from the same machine:
// - plain download (baseline): a `node:http` route answers the buffer, `fetch` reads it whole;
// - plain upload (reference for file.put): `fetch` POSTs the buffer, the route reads it whole;
// - `readBlob` of a blob held by a node serving `file.read`: a signed call answered with an SSE stream of
//   256 KiB chunks in base64 JSON, every chunk hashed (BLAKE3) and checked on the client;
// - `putBlob` to a node serving `file.put`, to a fresh store every transfer so that every chunk is sent:
//   the client chunks and hashes the blob, the node checks the manifest and hashes every chunk it gets.
// The HearthNet cases run with the default BLAKE3 (native @napi-rs/blake-hash on Node, @noble/hashes
// elsewhere) and with a hash-wasm BLAKE3
// injected on both sides. Before the transfers, raw hashing, base64 and SSE costs of one 256 KiB chunk are
// measured alone, so the transfer figures can be read against them. Async: the cases of one size run in
// interleaved rounds on this process's event loop.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  base64Decode,
  base64Encode,
  blake3Hasher,
  CHUNK_SIZE_BYTES,
  type Hasher,
  keyPairFromSeed,
} from '@agentwire/hearthnet';
import {
  type BlobStore,
  type FileCapabilityHandlers,
  fileCapabilityHandlers,
  InMemoryBlobStore,
  putBlob,
  readBlob,
  registerFileCapabilities,
} from '@agentwire/hearthnet/blobs';
import { CapabilityRegistry, catalogueDescriptor } from '@agentwire/hearthnet/capabilities';
import { serveBusHandler } from '@agentwire/hearthnet/node-http';
import {
  type CapabilityHandler,
  createBusHandler,
  createHearthNetClient,
  encodeSseFrame,
  type HearthNetClient,
  SseParser,
  staticTrust,
  WIRE_HEADERS,
} from '@agentwire/hearthnet/wire';
import { createBLAKE3 } from 'hash-wasm';

/** How much the measurement does; `quick` is for a smoke run (1 MB only, two rounds). */
export interface BlobTransferBenchOptions {
  readonly quick?: boolean;
}

const MB = 1024 * 1024;
const serverKeys = keyPairFromSeed(Uint8Array.from({ length: 32 }, (_, i) => (i * 3 + 2) & 0xff));
const callerKeys = keyPairFromSeed(Uint8Array.from({ length: 32 }, (_, i) => (i * 13 + 5) & 0xff));
const community = serverKeys.nodeId;

/** Deterministic pseudo-random bytes (xorshift32), so that no two chunks are alike. */
function pseudoRandomBytes(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[i] = state & 0xff;
  }
  return bytes;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));
}

/**
 * BLAKE3 from hash-wasm as a HearthNet {@link Hasher}: one wasm instance, reset for every digest (the
 * instance is synchronous after creation, and the event loop never runs two digests at once).
 */
async function createWasmBlake3Hasher(): Promise<Hasher> {
  const wasm = await createBLAKE3();
  return Object.freeze({
    algorithm: 'blake3',
    digest: (data: Uint8Array): Uint8Array => wasm.init().update(data).digest('binary'),
  });
}

/** Refuses to time a hasher that disagrees with the built-in BLAKE3 (chunk-boundary sizes included). */
function assertSameDigests(hasher: Hasher): void {
  for (const [i, size] of [0, 1, 63, 64, 1023, 1024, 1025, 4096, CHUNK_SIZE_BYTES, MB + 7].entries()) {
    const input = pseudoRandomBytes(size, 100 + i);
    if (!sameBytes(hasher.digest(input), blake3Hasher.digest(input))) {
      throw new Error(`benchmark self-check failed: hash-wasm BLAKE3 differs from the default at ${size} B`);
    }
  }
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

/**
 * Median CPU µs (user + system) of one synchronous call: warmed up for `warmupMs` (at least 5 calls, so
 * the JIT has settled), then `samples` timed batches of about `batchMs` each. CPU time, not wall time,
 * so that a shared machine taking the core away does not count against the step.
 */
function microsPerCall(fn: () => unknown, samples: number, batchMs: number, warmupMs: number): number {
  let sink: unknown;
  const start = performance.now();
  let warmups = 0;
  while (warmups < 5 || performance.now() - start < warmupMs) {
    sink = fn();
    warmups++;
  }
  const estimate = (performance.now() - start) / warmups;
  const calls = Math.max(1, Math.round(batchMs / estimate));
  const times: number[] = [];
  for (let s = 0; s < samples; s++) {
    const begin = process.cpuUsage();
    for (let i = 0; i < calls; i++) sink = fn();
    const used = process.cpuUsage(begin);
    times.push((used.user + used.system) / calls);
  }
  if (sink === Symbol.for('never')) console.log('');
  return median(times);
}

/** What one 256 KiB chunk costs in each step of a transfer, alone (CPU µs, and chunk MB per CPU second). */
function measureChunkSteps(wasmHasher: Hasher, quick: boolean): { nobleMBs: number; wasmMBs: number } {
  const chunk = pseudoRandomBytes(CHUNK_SIZE_BYTES, 42);
  const b64 = base64Encode(chunk);
  const cid = 'blake3:0000000000000000000000000000000000000000000000000000000000000000';
  const frame = encodeSseFrame({
    event: 'chunk',
    data: { i: 3, cid, size_bytes: chunk.length, data_b64: b64 },
  });
  const frameBytes = new TextEncoder().encode(frame);
  const pieces: Uint8Array[] = [];
  for (let at = 0; at < frameBytes.length; at += 64 * 1024)
    pieces.push(frameBytes.subarray(at, at + 64 * 1024));
  const steps: { name: string; fn: () => unknown }[] = [
    { name: 'BLAKE3, default (native on Node)', fn: () => blake3Hasher.digest(chunk) },
    { name: 'BLAKE3, hash-wasm (injected)', fn: () => wasmHasher.digest(chunk) },
    { name: '`base64Encode` (hearthnet)', fn: () => base64Encode(chunk) },
    { name: '`base64Decode` (hearthnet)', fn: () => base64Decode(b64) },
    { name: "`Buffer.toString('base64')` (reference)", fn: () => Buffer.from(chunk).toString('base64') },
    { name: "`Buffer.from(text, 'base64')` (reference)", fn: () => Buffer.from(b64, 'base64') },
    {
      name: '`encodeSseFrame` of the chunk frame',
      fn: () =>
        encodeSseFrame({ event: 'chunk', data: { i: 3, cid, size_bytes: chunk.length, data_b64: b64 } }),
    },
    {
      name: '`SseParser` of the frame, 64 KiB pieces',
      fn: () => {
        const parser = new SseParser();
        for (const piece of pieces) parser.push(piece);
        return parser.finish();
      },
    },
    { name: '`JSON.parse` of the frame data', fn: () => JSON.parse(frame.slice(frame.indexOf('{'))) },
  ];
  const micros = steps.map((step) =>
    microsPerCall(step.fn, quick ? 3 : 7, quick ? 50 : 150, quick ? 100 : 300),
  );
  printTable(
    `Blob transfer — the steps of one ${CHUNK_SIZE_BYTES / 1024} KiB chunk, alone (${frame.length.toLocaleString('en-US')}-character SSE frame)`,
    ['step', 'CPU µs/chunk', 'MB per CPU-s'],
    steps.map((step, i) => [
      step.name,
      (micros[i] ?? Number.NaN).toFixed(0),
      (CHUNK_SIZE_BYTES / (micros[i] ?? Number.NaN)).toFixed(0),
    ]),
  );
  return {
    nobleMBs: CHUNK_SIZE_BYTES / (micros[0] ?? Number.NaN),
    wasmMBs: CHUNK_SIZE_BYTES / (micros[1] ?? Number.NaN),
  };
}

/** A `node:http` server that answers `GET /<bytes>` with that many of the payload's bytes and reads POST bodies whole. */
async function startPlainServer(payload: Uint8Array): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    if (request.method === 'POST') {
      let received = 0;
      request.on('data', (piece: Buffer) => {
        received += piece.length;
      });
      request.on('end', () => {
        response.writeHead(200, { 'Content-Type': 'text/plain' }).end(String(received));
      });
      return;
    }
    const size = Number(request.url?.slice(1));
    const body = payload.subarray(0, size);
    response.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': body.length });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server };
}

/**
 * A node serving `file.read` from `readStore` (registered with {@link registerFileCapabilities}) and
 * `file.put` into a store that {@link BlobNode.freshPutStore} replaces before every upload.
 */
interface BlobNode {
  readonly readStore: BlobStore;
  readonly client: HearthNetClient;
  freshPutStore(): void;
  close(): Promise<void>;
}

async function startBlobNode(hasher: Hasher | undefined): Promise<BlobNode> {
  const storeOptions = hasher === undefined ? {} : { hasher };
  const readStore = new InMemoryBlobStore(storeOptions);
  const readRegistry = new CapabilityRegistry<CapabilityHandler>({});
  registerFileCapabilities(readRegistry, { store: readStore, ...storeOptions });
  // file.put goes to handlers over a fresh store per upload, so that the node asks for every chunk.
  const overFreshStore = (): FileCapabilityHandlers =>
    fileCapabilityHandlers({ store: new InMemoryBlobStore(storeOptions), ...storeOptions });
  let putHandlers = overFreshStore();
  const putRegistry = new CapabilityRegistry<CapabilityHandler>({});
  putRegistry.register(
    catalogueDescriptor('file.put'),
    (request, context) => putHandlers['file.put'](request, context),
    {
      maxConcurrent: 2,
    },
  );
  const trust = staticTrust({ [callerKeys.nodeId]: 'trusted' });
  const readBus = createBusHandler({ identity: serverKeys, registry: readRegistry, community, trust });
  const putBus = createBusHandler({ identity: serverKeys, registry: putRegistry, community, trust });
  const served = await serveBusHandler((request) =>
    request.headers.get(WIRE_HEADERS.capability) === 'file.put' ? putBus(request) : readBus(request),
  );
  const client = createHearthNetClient({
    identity: callerKeys,
    community,
    node: served.url,
    peer: serverKeys.nodeId,
  });
  return {
    readStore,
    client,
    freshPutStore() {
      putHandlers = overFreshStore();
    },
    close: () => served.close(),
  };
}

/** Wall-clock milliseconds and CPU milliseconds (user + system, both ends together) of one transfer. */
interface TransferCost {
  readonly wallMs: number;
  readonly cpuMs: number;
}

interface TransferCase {
  readonly name: string;
  /** Untimed preparation of the next transfer. */
  readonly before?: () => void;
  readonly transfer: () => Promise<void>;
}

async function timeTransfer(c: TransferCase): Promise<TransferCost> {
  c.before?.();
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  await c.transfer();
  const wallMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** Measures every case at one size and prints MB/s, CPU ms per MB and the ratio to the plain download. */
async function measureSize(
  size: number,
  cases: readonly TransferCase[],
  rounds: number,
  perRound: number,
): Promise<{ mbs: number[]; cpuPerMB: number[] }> {
  for (const c of cases) await timeTransfer(c);
  const samples = cases.map((): TransferCost[] => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, c] of cases.entries()) {
      let wallMs = 0;
      let cpuMs = 0;
      for (let k = 0; k < perRound; k++) {
        const cost = await timeTransfer(c);
        wallMs += cost.wallMs;
        cpuMs += cost.cpuMs;
      }
      samples[i]?.push({ wallMs: wallMs / perRound, cpuMs: cpuMs / perRound });
    }
  }
  const megabytes = size / 1e6;
  const mbs = samples.map((costs) => median(costs.map((cost) => (megabytes * 1000) / cost.wallMs)));
  const cpuPerMB = samples.map((costs) => median(costs.map((cost) => cost.cpuMs / megabytes)));
  const base = mbs[0] ?? Number.NaN;
  printTable(
    `Blob transfer — ${size / MB} MiB over loopback HTTP (${rounds} × ${perRound} transfers per case)`,
    ['case', 'MB/s', 'vs plain download', 'CPU ms per MB'],
    cases.map((c, i) => [
      c.name,
      (mbs[i] ?? Number.NaN).toFixed(1),
      `${((mbs[i] ?? Number.NaN) / base).toFixed(2)}×`,
      (cpuPerMB[i] ?? Number.NaN).toFixed(1),
    ]),
  );
  return { mbs, cpuPerMB };
}

/** Runs the blob transfer benchmark, prints its tables and returns the summary lines. */
export async function benchBlobTransfer(options: BlobTransferBenchOptions = {}): Promise<string[]> {
  const quick = options.quick === true;
  const wasmHasher = await createWasmBlake3Hasher();
  assertSameDigests(wasmHasher);
  const hashing = measureChunkSteps(wasmHasher, quick);

  const sizes = quick ? [MB] : [MB, 8 * MB];
  const largest = Math.max(...sizes);
  const payload = pseudoRandomBytes(largest, 7);
  const plain = await startPlainServer(payload);
  const builtIn = await startBlobNode(undefined);
  const injected = await startBlobNode(wasmHasher);
  const goals: string[] = [];
  try {
    for (const size of sizes) {
      const blob = payload.subarray(0, size);
      const cid = (await builtIn.readStore.putBlob(blob)).cid;
      if ((await injected.readStore.putBlob(blob)).cid !== cid) {
        throw new Error('benchmark self-check failed: the two stores name the blob differently');
      }
      const chunks = Math.ceil(size / CHUNK_SIZE_BYTES);
      const read = (node: BlobNode, hasher: Hasher | undefined) => async () => {
        const result = await readBlob(node.client, cid, hasher === undefined ? {} : { hasher });
        if (result.bytes.length !== size) throw new Error('benchmark self-check failed: readBlob size');
      };
      const put = (node: BlobNode, hasher: Hasher | undefined) => async () => {
        const result = await putBlob(node.client, blob, hasher === undefined ? {} : { hasher });
        if (result.received !== chunks || result.manifest.cid !== cid) {
          throw new Error('benchmark self-check failed: putBlob did not send every chunk of the blob');
        }
      };
      const check = await readBlob(injected.client, cid, { hasher: wasmHasher });
      if (!sameBytes(check.bytes, blob))
        throw new Error('benchmark self-check failed: readBlob bytes differ');
      const cases: TransferCase[] = [
        {
          name: 'plain HTTP download (`fetch` ← `node:http`)',
          transfer: async () => {
            const response = await fetch(`${plain.url}/${size}`);
            const bytes = new Uint8Array(await response.arrayBuffer());
            if (bytes.length !== size || bytes[size - 1] !== blob[size - 1]) {
              throw new Error('benchmark self-check failed: plain download');
            }
          },
        },
        {
          name: 'plain HTTP upload (`fetch` POST → `node:http`)',
          transfer: async () => {
            const response = await fetch(`${plain.url}/`, { method: 'POST', body: blob });
            if ((await response.text()) !== String(size))
              throw new Error('benchmark self-check failed: upload');
          },
        },
        { name: '`readBlob`, built-in BLAKE3', transfer: read(builtIn, undefined) },
        { name: '`readBlob`, hash-wasm both sides', transfer: read(injected, wasmHasher) },
        {
          name: '`putBlob` (fresh store), built-in BLAKE3',
          before: () => builtIn.freshPutStore(),
          transfer: put(builtIn, undefined),
        },
        {
          name: '`putBlob` (fresh store), hash-wasm both sides',
          before: () => injected.freshPutStore(),
          transfer: put(injected, wasmHasher),
        },
      ];
      const rounds = quick ? 2 : 5;
      const perRound = quick ? 2 : size >= 8 * MB ? 1 : 4;
      const { mbs, cpuPerMB } = await measureSize(size, cases, rounds, perRound);
      const at = (i: number) => mbs[i] ?? Number.NaN;
      const cpu = (i: number) => cpuPerMB[i] ?? Number.NaN;
      const vs = (i: number) =>
        `${at(i).toFixed(1)} MB/s (${(at(i) / at(0)).toFixed(2)}×, ${(cpu(i) / cpu(0)).toFixed(1)}× the CPU per MB)`;
      goals.push(
        `blob ${size / MB} MiB vs plain download ${at(0).toFixed(0)} MB/s: readBlob ${vs(2)}, ` +
          `with hash-wasm ${vs(3)}; putBlob ${vs(4)}, with hash-wasm ${vs(5)}`,
      );
    }
  } finally {
    await Promise.all([builtIn.close(), injected.close()]);
    await new Promise((resolve) => plain.server.close(resolve));
  }
  goals.push(
    `BLAKE3 of a 256 KiB chunk on this machine: default ${hashing.nobleMBs.toFixed(0)} MB per CPU-s, ` +
      `hash-wasm ${hashing.wasmMBs.toFixed(0)} MB per CPU-s`,
  );
  return goals;
}
