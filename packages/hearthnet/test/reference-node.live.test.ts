// Live differential test against the Python reference node (GitHub `Ckal/HearthNet` 6e28872), run only when
// HEARTHNET_REFERENCE_DIR names a reference checkout (skipped otherwise, so CI stays offline):
//   HEARTHNET_REFERENCE_DIR=/path/to/HearthNet npx vitest run packages/hearthnet/test/reference-node.live.test.ts
// 1. Our client in reference mode calls every capability a live reference node (`demo` and `full` profiles,
//    started by scripts/oracles/hearthnet-reference.mjs) lists in its /manifest, with the request forms the
//    reference's own clients send (recorded with the harness's `observe` run); each call resolves with
//    `output`, or rejects with the typed HearthNet error of what the node answered.
// 2. Our node in reference mode is called by the reference's own Python client (transport/client.py
//    `HttpClient`) and its CLI (`status`, `caps`).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateKeyPair, HearthNetLocalError, type KeyPair } from '@agentwire/hearthnet';
import {
  CapabilityRegistry,
  catalogueDescriptor,
  HearthNetError,
  type HearthNetErrorCode,
  isHearthNetErrorCode,
} from '@agentwire/hearthnet/capabilities';
import { referenceNodeRoutes, referenceWire } from '@agentwire/hearthnet/compat';
import { createManifestHandler, NODE_MANIFEST_PATH } from '@agentwire/hearthnet/manifests';
import { type ServedBusHandler, serveBusHandler } from '@agentwire/hearthnet/node-http';
import {
  BUS_CALL_PATH,
  type CapabilityHandler,
  createBusHandler,
  createHearthNetClient,
  type HearthNetClient,
  routeByPath,
  staticTrust,
} from '@agentwire/hearthnet/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// ---------------------------------------------------------------------------------------------------
// The reference checkout and the harness.

/** The checkout named by HEARTHNET_REFERENCE_DIR, or undefined (unset, or no HearthNet checkout there). */
function referenceCheckout(): string | undefined {
  const raw = process.env['HEARTHNET_REFERENCE_DIR'];
  if (raw === undefined || raw === '') return undefined;
  const dir = resolve(raw);
  return existsSync(join(dir, 'hearthnet', 'node.py')) &&
    existsSync(join(dir, 'scripts', 'start_mesh_node.py'))
    ? dir
    : undefined;
}

const REFERENCE_DIR = referenceCheckout();
const LIVE = REFERENCE_DIR !== undefined;

interface ManifestCapability {
  readonly name: string;
  readonly params?: Readonly<Record<string, unknown>>;
}

/** A node started by the harness's `startReferenceNode`. */
interface ReferenceNode {
  readonly url: string;
  readonly nodeId: string;
  readonly port: number;
  readonly profile: Profile;
  readonly manifest: { readonly community_id: string; readonly capabilities: readonly ManifestCapability[] };
  log(): string;
  stop(): Promise<void>;
}

interface Harness {
  startReferenceNode(options?: {
    readonly profile?: Profile;
    readonly name?: string;
  }): Promise<ReferenceNode>;
  ensureVenv(dir: string): string;
}

type Profile = 'demo' | 'full';
const PROFILES: readonly Profile[] = ['demo', 'full'];

/** The harness is a repo tool (plain JavaScript), loaded by URL so the type check does not read it. */
async function loadHarness(): Promise<Harness> {
  const url = new URL('../../../scripts/oracles/hearthnet-reference.mjs', import.meta.url).href;
  return (await import(/* @vite-ignore */ url)) as Harness;
}

// ---------------------------------------------------------------------------------------------------
// What a reference node's answer means (docs/hearthnet.md, "Errors of a reference node"), written out
// here from the raw answer, independently of the client's own mapping.

const CODE_BY_STATUS: Readonly<Record<number, HearthNetErrorCode>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'revoked',
  404: 'not_found',
  408: 'timeout',
  410: 'expired',
  429: 'rate_limited',
  500: 'internal_error',
  501: 'not_implemented',
  503: 'partition',
};

type Meaning =
  | { readonly kind: 'output' }
  | { readonly kind: 'error'; readonly code: HearthNetErrorCode; readonly remoteCode: string | undefined };

function meaningOf(status: number, body: unknown): Meaning {
  const record = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Json) : {};
  const ok = status >= 200 && status <= 299;
  if (ok && 'output' in record) return { kind: 'output' };
  const sent =
    typeof record['error'] === 'string'
      ? record['error']
      : typeof record['detail'] === 'string'
        ? record['detail']
        : undefined;
  const message = typeof record['message'] === 'string' ? record['message'] : '';
  const error = (code: HearthNetErrorCode): Meaning => ({
    kind: 'error',
    code,
    remoteCode: sent !== undefined && sent !== code ? sent : undefined,
  });
  if (status === 500 && sent === 'call_error') {
    return error(message.startsWith('no provider for ') ? 'not_found' : 'internal_error');
  }
  if (sent === 'unavailable' || sent === 'backend_unavailable') return error('not_implemented');
  if (isHearthNetErrorCode(sent)) return error(sent);
  const head = sent?.includes(':') === true ? sent.slice(0, sent.indexOf(':')).trim() : undefined;
  if (isHearthNetErrorCode(head)) return error(head);
  return error(ok ? 'internal_error' : (CODE_BY_STATUS[status] ?? 'internal_error'));
}

// ---------------------------------------------------------------------------------------------------
// The request forms the reference's own clients send, per capability (from the harness's observe run:
// its app tabs, facades, CLI and services; `note` says which).

type Json = Record<string, unknown>;

interface SweepContext {
  readonly node: ReferenceNode;
  readonly other: ReferenceNode;
  /** What earlier answers gave: the cid of `file.put`, the event id of `market.post`. */
  readonly state: { cid?: string; postId?: string };
}

interface Form {
  readonly capability: string;
  readonly input: Json | ((context: SweepContext) => Json);
  readonly params?: Json | ((context: SweepContext) => Json);
  readonly note?: string;
  /** Reads what later forms need from the answer. */
  readonly keep?: (output: Json, state: SweepContext['state']) => void;
}

const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
/** `RIFF$\0\0\0WAVEfmt ` */
const WAV_HEADER_B64 = 'UklGRiQAAABXQVZFZm10IA==';
/** `%PDF-1.4\n%%EOF\n` */
const PDF_B64 = 'JVBERi0xLjQKJSVFT0YK';
/** `Hello HearthNet\n` */
const HELLO_B64 = 'SGVsbG8gSGVhcnRoTmV0Cg==';
const MESSAGES = [{ role: 'user', content: 'How do I store water safely?' }];
const RERANK_DOCS = [
  { id: 'd1', text: 'Boil rainwater for one minute.' },
  { id: 'd2', text: 'Keep the fridge closed.' },
];

const advertised = (node: ReferenceNode, capability: string, param: string): unknown =>
  node.manifest.capabilities.find((c) => c.name === capability)?.params?.[param];
const corpusOf = ({ node }: SweepContext): string =>
  String(advertised(node, 'rag.query', 'corpus') ?? 'community');

const FORMS: readonly Form[] = [
  // discovery / mesh
  { capability: 'discovery.peers', input: {} },
  { capability: 'discovery.peer.add', input: {}, note: 'missing endpoint' },
  {
    capability: 'discovery.peer.add',
    input: { endpoint: 'http://127.0.0.1:9' },
    note: 'unreachable endpoint',
  },
  { capability: 'mesh.join', input: {}, note: 'neither relay_url nor invite_text' },
  { capability: 'mesh.join', input: { invite_text: 'hn1:not-an-invite' }, note: 'garbage invite' },
  { capability: 'mesh.join', input: { relay_url: 'http://127.0.0.1:9' }, note: 'unreachable relay' },
  // llm
  { capability: 'llm.chat', input: { messages: MESSAGES }, params: {}, note: 'Ask tab form; params {}' },
  {
    capability: 'llm.chat',
    input: { messages: MESSAGES },
    params: { temperature: 0.2, max_tokens: 64 },
    note: 'params with knobs',
  },
  {
    capability: 'llm.chat',
    input: { messages: MESSAGES },
    params: ({ node }) => ({ model: advertised(node, 'llm.chat', 'model') }),
    note: 'params.model = advertised model',
  },
  {
    capability: 'llm.chat',
    input: { messages: MESSAGES },
    params: { model: 'no-such-model' },
    note: 'params.model unknown',
  },
  { capability: 'llm.chat', input: {}, note: 'no messages' },
  { capability: 'llm.chat', input: { messages: [{ role: 'user', content: 'Wasser abkochen? 水 😀' }] } },
  { capability: 'llm.complete', input: { prompt: 'Boil rainwater for' } },
  { capability: 'llm.complete', input: { prompt: '__conformance_ping__', max_tokens: 1 }, note: 'X09 form' },
  // embeddings / rerank
  { capability: 'embed.text', input: { texts: ['boil rainwater', 'charging points'] } },
  { capability: 'embed.text', input: { texts: [] }, note: 'empty texts' },
  { capability: 'embed.text', input: { texts: Array.from({ length: 257 }, (_, i) => `t${i}`) }, note: '257' },
  { capability: 'embed.text', input: { texts: ['x'.repeat(8193)] }, note: 'one 8193-char text' },
  {
    capability: 'rerank.text',
    input: { query: 'water', docs: RERANK_DOCS, top_k: 1 },
    note: 'federated RAG',
  },
  {
    capability: 'rerank.text',
    input: { query: 'water', documents: RERANK_DOCS },
    note: 'X09 form (documents)',
  },
  { capability: 'rerank.text', input: { docs: RERANK_DOCS }, note: 'no query' },
  // rag
  {
    capability: 'rag.ingest',
    input: (context) => ({
      corpus: corpusOf(context),
      doc_title: 'water.txt',
      text: 'Store clean water in covered containers. Boil rainwater.',
    }),
    note: 'Settings tab form',
  },
  {
    capability: 'rag.ingest',
    input: { text: 'Candles are a fire risk; use torches.' },
    note: 'rag.ingest {text}',
  },
  {
    capability: 'rag.ingest',
    input: { title: 'Power', text: 'Reserve battery banks for communication.' },
    params: (context) => ({ corpus: corpusOf(context) }),
    note: 'params.corpus = advertised corpus',
  },
  {
    capability: 'rag.ingest',
    input: { documents: [{ id: 'doc-1', title: 'Food', text: 'Frozen food stays safe 24-48 hours.' }] },
    params: (context) => ({ corpus: corpusOf(context) }),
    note: 'Nemotron tab / app seed form (documents[])',
  },
  {
    capability: 'rag.ingest',
    input: (context) => ({
      corpus: corpusOf(context),
      filename: 'notes.txt',
      data_b64: 'U2hlbHRlciBpbiBwbGFjZS4=',
    }),
    note: 'CLI `rag ingest` form',
  },
  {
    capability: 'rag.query',
    input: { query: 'boil rainwater', k: 3 },
    params: (context) => ({ corpus: corpusOf(context) }),
    note: 'Ask tab form',
  },
  { capability: 'rag.query', input: { query: 'boil rainwater', k: 3 }, params: {}, note: 'params {}' },
  { capability: 'rag.query', input: { query: '' }, note: 'empty query' },
  {
    capability: 'rag.query',
    input: { query: 'water' },
    params: { corpus: 'no-such-corpus' },
    note: 'corpus nobody serves',
  },
  { capability: 'rag.list_corpora', input: {}, note: 'CLI `rag list`' },
  { capability: 'rag.federated_query', input: { query: 'boil rainwater', k: 3 } },
  {
    capability: 'rag.federated_query',
    input: { query: 'zzz unknown words', k: 2, confidence_threshold: 0.99 },
  },
  { capability: 'rag.federated_query', input: {}, note: 'no query' },
  // marketplace
  {
    capability: 'market.post',
    input: { title: 'Water filters to share', category: 'offer', body: 'Two spare cloth filters.' },
    note: 'Marketplace tab form',
    keep: (output, state) => {
      if (typeof output['event_id'] === 'string') state.postId = output['event_id'];
    },
  },
  {
    capability: 'market.post',
    input: {
      title: 'Charging point',
      body: 'Solar charger at the library',
      category: 'offer',
      location: { lat: 52.52, lon: 13.405, label: 'Library' },
    },
    note: 'location {lat, lon, label} (reference form)',
  },
  {
    capability: 'market.post',
    input: {
      title: 'Need water',
      body: 'Two families need drinking water',
      category: 'request',
      location: { lat: 52.5, lng: 13.4, label: 'School' },
    },
    note: 'location {lat, lng, label} (contract form)',
  },
  {
    capability: 'market.post',
    input: { title: '__conformance__', body: 'test', category: 'other', client_id: '__x09__' },
    note: 'X09 form with client_id',
  },
  { capability: 'market.post', input: {}, note: 'empty input' },
  { capability: 'market.list', input: {} },
  { capability: 'market.list', input: { category: 'offer' } },
  { capability: 'market.search', input: { query: 'water' } },
  { capability: 'market.search', input: {}, note: 'no query' },
  {
    capability: 'market.expire',
    input: ({ state }) => ({ event_id: state.postId ?? 'evt:none', reason: 'done' }),
  },
  { capability: 'market.delete', input: { event_id: 'evt:does-not-exist' } },
  { capability: 'market.list', input: {}, note: 'after expire' },
  // chat
  {
    capability: 'chat.send',
    input: ({ node }) => ({ recipient: node.nodeId, body: 'note to self' }),
    note: 'recipient = own id',
  },
  {
    capability: 'chat.send',
    input: { recipient: 'local-0badc0de', body: 'hello' },
    note: 'unknown local-… peer',
  },
  {
    capability: 'chat.send',
    input: ({ other }) => ({ recipient: other.nodeId, body: 'hello before peering' }),
    note: 'the other (running, not peered) node',
  },
  {
    capability: 'chat.send',
    input: { to: 'self', body: 'ping', client_id: '__x09_chat__' },
    note: 'X09 form',
  },
  { capability: 'chat.send', input: { body: 'no recipient' }, note: 'missing recipient' },
  {
    capability: 'chat.deliver',
    input: ({ node }) => ({
      event_id: 'msg:7b06b1b0ebb57ed077023a624172de48',
      from: 'local-feedf00d',
      to: node.nodeId,
      body: 'inbound from a peer',
      attachments: [],
      sent_at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      client_id: 'c-1',
    }),
    note: 'what ChatService._deliver_remote sends',
  },
  { capability: 'chat.deliver', input: {}, note: 'empty input' },
  { capability: 'chat.history', input: { peer: 'local-feedf00d' }, note: 'Chat tab form' },
  { capability: 'chat.history', input: {}, note: 'all messages' },
  // files
  {
    capability: 'file.put',
    input: { data_b64: HELLO_B64, filename: 'hello.txt' },
    note: 'Files tab form',
    keep: (output, state) => {
      if (typeof output['cid'] === 'string') state.cid = output['cid'];
    },
  },
  {
    capability: 'file.put',
    input: { data_b64: 'not base64!!', filename: 'bad.bin' },
    note: 'invalid base64',
  },
  { capability: 'file.put', input: { data_b64: 'cGluZw==' }, note: 'no filename' },
  { capability: 'file.list', input: {} },
  { capability: 'file.get', input: ({ state }) => ({ cid: state.cid ?? 'x' }) },
  { capability: 'file.get', input: { cid: 'sha256:0000' }, note: 'unknown cid' },
  { capability: 'file.get', input: {}, note: 'missing cid' },
  { capability: 'file.delete', input: ({ state }) => ({ cid: state.cid ?? 'x' }) },
  { capability: 'file.delete', input: {}, note: 'missing cid' },
  // mixture of experts
  {
    capability: 'moe.register',
    input: ({ node }) => ({
      expert_id: 'model:first-aid',
      expert_type: 'model',
      topic_tags: ['first-aid', 'medical'],
      confidence_score: 0.8,
      community_id: node.manifest.community_id,
      name: 'First aid model',
      description: 'Answers first-aid questions',
      ttl_seconds: 3600,
    }),
  },
  { capability: 'moe.register', input: { expert_type: 'human' }, note: 'missing expert_id' },
  { capability: 'moe.list', input: {} },
  { capability: 'moe.route', input: { query: 'first aid for bleeding', top_k: 3, tags: ['first-aid'] } },
  { capability: 'moe.route', input: {}, note: 'missing query' },
  {
    capability: 'moe.handoff',
    input: { expert_id: 'human:local-feedf00d', query: 'Need a nurse', thread_id: 't-1' },
  },
  { capability: 'moe.handoff', input: { expert_id: 'human:x' }, note: 'missing query' },
  // tools / models / protocol
  { capability: 'tool.plant_identify', input: { image_b64: PNG_1X1, hints: ['garden', 'June'] } },
  { capability: 'tool.plant_identify', input: {}, note: 'missing image_b64' },
  { capability: 'model.advertise', input: {} },
  { capability: 'model.list', input: {} },
  { capability: 'model.status', input: {} },
  { capability: 'model.status', input: { job_id: 'pull:000000000000' }, note: 'unknown job' },
  { capability: 'model.pull', input: { model_name: 'qwen2.5-0.5b', source_node: 'local-feedf00d' } },
  { capability: 'model.pull', input: {}, note: 'missing model_name/source_node' },
  { capability: 'model.chunk_read', input: { cid: 'sha256:0000', chunk_index: 0 } },
  { capability: 'protocol.version.list', input: {} },
  { capability: 'protocol.conformance.report', input: {}, note: 'defaults (suite 1.0, fast)' },
  { capability: 'protocol.conformance.report', input: { suite_version: '3.0', fast: true } },
  // phase-2 services (full profile)
  { capability: 'ocr.image', input: { image_b64: PNG_1X1, languages: ['en'] } },
  { capability: 'ocr.image', input: { image_cid: 'blake3:test' }, note: 'X09 form' },
  { capability: 'ocr.image', input: {}, note: 'missing image' },
  { capability: 'ocr.pdf', input: { pdf_b64: PDF_B64, pages: [1] } },
  { capability: 'ocr.pdf', input: {}, note: 'missing pdf' },
  { capability: 'trans.text', input: { text: 'Boil the water', from_lang: 'en', to_lang: 'de' } },
  { capability: 'trans.text', input: { text: 'hello', from: 'en', to: 'de' }, note: 'X09 form (from/to)' },
  { capability: 'trans.text', input: { text: 'x'.repeat(4001), to_lang: 'de' }, note: '4001 chars' },
  { capability: 'stt.transcribe', input: { audio_b64: WAV_HEADER_B64, language: 'en' } },
  { capability: 'stt.transcribe', input: {}, note: 'missing audio_b64' },
  { capability: 'stt.transcribe', input: { audio_b64: '***' }, note: 'invalid base64' },
  { capability: 'tts.synthesize', input: { text: 'Boil the water', language: 'en', format: 'wav' } },
  { capability: 'tts.synthesize', input: {}, note: 'missing text' },
  { capability: 'img.describe', input: { image_b64: PNG_1X1, mode: 'caption' } },
  { capability: 'img.describe', input: { image_cid: 'blake3:none' }, note: 'unknown image_cid' },
  { capability: 'img.describe', input: {}, note: 'missing image' },
  { capability: 'img.generate', input: { prompt: 'a water filter', width: 256, height: 256 } },
  { capability: 'img.generate', input: {}, note: 'missing prompt' },
];

// ---------------------------------------------------------------------------------------------------
// Calls through our client, each checked against the raw answer.

interface Exchange {
  readonly status: number;
  readonly text: string;
  readonly body: unknown;
}

interface Outcome {
  readonly capability: string;
  readonly note: string | undefined;
  readonly request: Json;
  readonly exchange: Exchange | undefined;
  readonly result: unknown;
  readonly error: unknown;
  /** Why the outcome breaks the rules, if it does. */
  readonly failure: string | undefined;
}

interface Tally {
  calls: number;
  results: number;
  errors: Record<string, number>;
  capabilities: Set<string>;
  failures: string[];
}

const tallies = new Map<string, Tally>();

function tallyOf(label: string): Tally {
  let tally = tallies.get(label);
  if (tally === undefined) {
    tally = { calls: 0, results: 0, errors: {}, capabilities: new Set(), failures: [] };
    tallies.set(label, tally);
  }
  return tally;
}

/** A client, and the raw answer to its last call (`undefined` when it sent nothing), taken once. */
interface CallTarget {
  readonly client: HearthNetClient;
  readonly take: () => Exchange | undefined;
}

/** A client of `node` in reference mode whose `fetch` keeps the raw answer. */
function clientFor(node: ReferenceNode): CallTarget {
  let last: Exchange | undefined;
  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const text = await response.clone().text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    last = { status: response.status, text, body };
    return response;
  };
  const client = createHearthNetClient({
    identity: generateKeyPair(),
    community: node.manifest.community_id,
    node: node.url,
    wire: referenceWire,
    fetch: recording,
  });
  return {
    client,
    take: () => {
      const exchange = last;
      last = undefined;
      return exchange;
    },
  };
}

function describeError(error: unknown): string {
  if (error instanceof HearthNetError)
    return `${error.name} code=${error.code} remoteCode=${String(error.remoteCode)}: ${error.message}`;
  if (error instanceof HearthNetLocalError) return `HearthNetLocalError code=${error.code}: ${error.message}`;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** Why an outcome breaks the rules: a result for an answer with `output`, else the typed error it means. */
function judge(exchange: Exchange | undefined, result: unknown, error: unknown): string | undefined {
  if (exchange === undefined) {
    return `no answer (refused locally, or the request failed): ${describeError(error)}`;
  }
  const meaning = meaningOf(exchange.status, exchange.body);
  if (meaning.kind === 'output') {
    if (error !== undefined) return `the node answered with output, the client threw ${describeError(error)}`;
    if (result === null || typeof result !== 'object' || !('output' in result))
      return `the client resolved without output: ${JSON.stringify(result)}`;
    return undefined;
  }
  if (error === undefined) return `the node answered an error, the client resolved ${JSON.stringify(result)}`;
  if (error instanceof HearthNetLocalError || !(error instanceof HearthNetError))
    return `not a HearthNetError: ${describeError(error)}`;
  if (error.code !== meaning.code) return `expected code ${meaning.code}, got ${describeError(error)}`;
  if (error.remoteCode !== meaning.remoteCode)
    return `expected remoteCode ${String(meaning.remoteCode)}, got ${describeError(error)}`;
  return undefined;
}

async function checkedCall(
  label: string,
  target: CallTarget,
  capability: string,
  request: { readonly params: Json; readonly input: Json },
  note?: string,
): Promise<Outcome> {
  target.take();
  let result: unknown;
  let error: unknown;
  try {
    result = await target.client.call(capability as string, request);
  } catch (thrown) {
    error = thrown;
  }
  const exchange = target.take();
  const failure = judge(exchange, result, error);
  const tally = tallyOf(label);
  tally.calls += 1;
  tally.capabilities.add(capability);
  if (error === undefined) tally.results += 1;
  else {
    const key =
      error instanceof HearthNetError
        ? error.code
        : error instanceof HearthNetLocalError
          ? `local:${error.code}`
          : 'other';
    tally.errors[key] = (tally.errors[key] ?? 0) + 1;
  }
  if (failure !== undefined) {
    tally.failures.push(
      `${capability}${note === undefined ? '' : ` (${note})`} ${JSON.stringify(request)} → ` +
        `${exchange === undefined ? 'no request' : `${exchange.status} ${exchange.text.slice(0, 300)}`}: ${failure}`,
    );
  }
  return { capability, note, request, exchange, result, error, failure };
}

const outputOf = (outcome: Outcome): Json => (outcome.result as { output: Json }).output;

// ---------------------------------------------------------------------------------------------------
// Part 1: our client against live reference nodes.

describe.skipIf(!LIVE)('our client in reference mode against a live reference node', () => {
  const nodes = new Map<Profile, ReferenceNode>();

  beforeAll(async () => {
    const harness = await loadHarness();
    const started = await Promise.allSettled(
      PROFILES.map((profile) => harness.startReferenceNode({ profile, name: `agentwire live ${profile}` })),
    );
    for (const [index, outcome] of started.entries()) {
      if (outcome.status === 'fulfilled') nodes.set(PROFILES[index] as Profile, outcome.value);
    }
    const failed = started.find((outcome) => outcome.status === 'rejected');
    if (failed !== undefined) throw (failed as PromiseRejectedResult).reason;
  }, 180_000);

  afterAll(async () => {
    await Promise.all([...nodes.values()].map((node) => node.stop()));
    const summary = Object.fromEntries(
      [...tallies].map(([label, tally]) => [
        label,
        {
          capabilities: tally.capabilities.size,
          calls: tally.calls,
          results: tally.results,
          typedErrors: tally.errors,
          failures: tally.failures,
        },
      ]),
    );
    console.log(`reference-node live tally:\n${JSON.stringify(summary, null, 2)}`);
  }, 30_000);

  const node = (profile: Profile): ReferenceNode => {
    const found = nodes.get(profile);
    if (found === undefined) throw new Error(`the ${profile} reference node did not start`);
    return found;
  };

  for (const profile of PROFILES) {
    it(`calls every capability the ${profile} node lists, in the reference clients' forms`, async () => {
      const reference = node(profile);
      const other = node(profile === 'demo' ? 'full' : 'demo');
      const listed = new Set(reference.manifest.capabilities.map((c) => c.name));
      expect(listed.size).toBeGreaterThan(0);
      const target = clientFor(reference);
      const context: SweepContext = { node: reference, other, state: {} };
      const called = new Set<string>();
      const value = <T>(v: T | ((c: SweepContext) => T)): T =>
        typeof v === 'function' ? (v as (c: SweepContext) => T)(context) : v;
      for (const form of FORMS) {
        if (!listed.has(form.capability)) continue;
        called.add(form.capability);
        const request = { params: value(form.params ?? {}), input: value(form.input) };
        const outcome = await checkedCall(profile, target, form.capability, request, form.note);
        if (outcome.error === undefined && form.keep !== undefined)
          form.keep(outputOf(outcome), context.state);
      }
      // A capability no reference client has a form for: called with empty input, as the harness does.
      for (const name of listed) {
        if (called.has(name)) continue;
        called.add(name);
        await checkedCall(
          profile,
          target,
          name,
          { params: {}, input: {} },
          'no known client form; empty input',
        );
      }
      expect([...called].sort()).toEqual([...listed].sort());
      expect(tallyOf(profile).failures).toEqual([]);
    }, 120_000);
  }

  it("the issue's request forms: each goes out, and comes back as an output or its typed error", async () => {
    const label = 'issue forms';
    const demo = clientFor(node('demo'));
    const full = clientFor(node('full'));
    const messages = [{ role: 'user', content: 'Is rainwater safe to drink?' }];

    // llm.chat with params {}: the demo node answers with its echo model; the full node has no backend.
    const chatDemo = await checkedCall(label, demo, 'llm.chat', { params: {}, input: { messages } });
    expect(chatDemo.failure).toBeUndefined();
    expect(outputOf(chatDemo)['message']).toEqual({
      role: 'assistant',
      content: 'demo-local: Is rainwater safe to drink?',
    });
    const chatFull = await checkedCall(label, full, 'llm.chat', { params: {}, input: { messages } });
    expect(chatFull.failure).toBeUndefined();
    expect(chatFull.exchange?.status).toBe(200);
    expect((chatFull.error as HearthNetError).code).toBe('internal_error');

    for (const target of [demo, full]) {
      // chat.send to a `local-…` recipient: queued; without a recipient: in-band bad_request.
      const queued = await checkedCall(label, target, 'chat.send', {
        params: {},
        input: { recipient: 'local-0badc0de', body: 'hello' },
      });
      expect(queued.failure).toBeUndefined();
      expect(outputOf(queued)).toMatchObject({ delivered: 'queued' });
      const noRecipient = await checkedCall(label, target, 'chat.send', {
        params: {},
        input: { body: 'no recipient' },
      });
      expect(noRecipient.failure).toBeUndefined();
      expect(noRecipient.exchange?.body).toMatchObject({
        error: 'bad_request',
        message: 'recipient required',
      });
      expect(noRecipient.error).toBeInstanceOf(HearthNetError);
      expect((noRecipient.error as HearthNetError).code).toBe('bad_request');

      // file.put with inline {data_b64, filename}; file.list shows it.
      const put = await checkedCall(label, target, 'file.put', {
        params: {},
        input: { data_b64: HELLO_B64, filename: 'hello.txt' },
      });
      expect(put.failure).toBeUndefined();
      expect(outputOf(put)).toMatchObject({ filename: 'hello.txt', size: 16 });
      const cid = outputOf(put)['cid'];
      const list = await checkedCall(label, target, 'file.list', { params: {}, input: {} });
      expect(list.failure).toBeUndefined();
      expect(outputOf(list)['cids']).toContain(cid);

      // rag.ingest {text}.
      const ingest = await checkedCall(label, target, 'rag.ingest', {
        params: {},
        input: { text: 'Boil rainwater for a minute before drinking it.' },
      });
      expect(ingest.failure).toBeUndefined();
      expect(outputOf(ingest)).toMatchObject({ chunks_indexed: 1 });

      // chat.history.
      const history = await checkedCall(label, target, 'chat.history', { params: {}, input: {} });
      expect(history.failure).toBeUndefined();
      expect(Array.isArray(outputOf(history)['messages'])).toBe(true);
    }

    // The answers that used to be refused: rag.list_corpora, market.search, market.expire (full node).
    const corpora = await checkedCall(label, full, 'rag.list_corpora', { params: {}, input: {} });
    expect(corpora.failure).toBeUndefined();
    expect(Array.isArray(outputOf(corpora)['corpora'])).toBe(true);
    const post = await checkedCall(label, full, 'market.post', {
      params: {},
      input: { title: 'Water filters to share', category: 'offer', body: 'Two spare cloth filters.' },
    });
    expect(post.failure).toBeUndefined();
    const search = await checkedCall(label, full, 'market.search', { params: {}, input: { query: 'water' } });
    expect(search.failure).toBeUndefined();
    expect(outputOf(search)['posts']).toEqual(
      expect.arrayContaining([expect.objectContaining({ title: 'Water filters to share' })]),
    );
    const expire = await checkedCall(label, full, 'market.expire', {
      params: {},
      input: { event_id: outputOf(post)['event_id'], reason: 'done' },
    });
    expect(expire.failure).toBeUndefined();
    expect(outputOf(expire)).toMatchObject({ expired: true, event_id: outputOf(post)['event_id'] });

    expect(tallyOf(label).failures).toEqual([]);
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------------
// Part 2: our node in reference mode, called by the reference's own client and CLI.

/** Run by the reference venv's python: the reference's HttpClient and CLI against our node; prints JSON. */
const REFERENCE_CLIENT_SCRIPT = `
import asyncio, json, subprocess, sys
from hearthnet.identity import keys
from hearthnet.transport.client import CallError, HttpClient

BASE_URL, PORT, COMMUNITY = sys.argv[1], sys.argv[2], sys.argv[3]
MESSAGES = [{"role": "user", "content": "hello from the reference client"}]
LOCATION = {"lat": 52.52, "lon": 13.405, "label": "Library"}


async def attempt(awaitable):
    try:
        return {"ok": await awaitable}
    except CallError as exc:
        return {"call_error": {"code": exc.code, "message": exc.message}}
    except Exception as exc:
        return {"exception": repr(exc)}


async def frames(generator):
    return [frame async for frame in generator]


def chat(params):
    return {"params": params, "input": {"messages": MESSAGES}}


async def main():
    out = {}
    # What a reference node's app does: its local id, no signing key.
    client = HttpClient(BASE_URL, "local-0a1b2c3d", COMMUNITY)
    out["manifest"] = await attempt(client.fetch_manifest())
    out["health"] = await attempt(client.health())
    out["capabilities"] = await attempt(client.fetch_capabilities())
    out["llm_chat"] = await attempt(client.call("llm.chat", (1, 0), chat({})))
    out["llm_chat_stream"] = await attempt(frames(client.stream("llm.chat", (1, 0), chat({}))))
    out["market_post"] = await attempt(client.call("market.post", (1, 0), {"params": {}, "input": {
        "client_id": "ref-client-1", "title": "Charging point", "body": "Solar charger at the library",
        "category": "offer", "location": LOCATION}}))
    # The reference Marketplace tab / MarketplaceFacade form (no client_id), with a location.
    out["market_post_reference_form"] = await attempt(client.call("market.post", (1, 0), {"params": {}, "input": {
        "title": "Water filters to share", "category": "offer", "body": "Two spare cloth filters.",
        "location": LOCATION}}))
    out["market_list"] = await attempt(client.call("market.list", (1, 0), {"params": {}, "input": {}}))
    await client.close()
    # Signed with a reference key pair (its full node id as X-HearthNet-From).
    signer = keys.generate()
    signed = HttpClient(BASE_URL, signer.node_id_full, COMMUNITY, signing_key=signer)
    out["signed_node_id"] = signer.node_id_full
    out["signed_llm_chat"] = await attempt(signed.call("llm.chat", (1, 0), chat({})))
    await signed.close()
    for name, args in (("status", ["status", "--json", "--port", PORT]), ("caps", ["caps", "--port", PORT])):
        run = subprocess.run([sys.executable, "-m", "hearthnet", *args], capture_output=True, text=True, timeout=120)
        out["cli_" + name] = {"rc": run.returncode, "stdout": run.stdout, "stderr": run.stderr[-2000:]}
    print(json.dumps(out))


asyncio.run(main())
`;

interface PythonAnswer {
  readonly ok?: unknown;
  readonly call_error?: { readonly code: string; readonly message: string };
  readonly exception?: string;
}

interface ReferenceClientRun {
  readonly manifest: PythonAnswer;
  readonly health: PythonAnswer;
  readonly capabilities: PythonAnswer;
  readonly llm_chat: PythonAnswer;
  readonly llm_chat_stream: PythonAnswer;
  readonly market_post: PythonAnswer;
  readonly market_post_reference_form: PythonAnswer;
  readonly market_list: PythonAnswer;
  readonly signed_node_id: string;
  readonly signed_llm_chat: PythonAnswer;
  readonly cli_status: { readonly rc: number; readonly stdout: string; readonly stderr: string };
  readonly cli_caps: { readonly rc: number; readonly stdout: string; readonly stderr: string };
}

/** Runs `script` with the reference venv's python (asynchronously: our node answers in this process). */
function runPython(
  python: string,
  referenceDir: string,
  script: string,
  args: readonly string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'hearthnet-live-'));
  const file = join(dir, 'reference_client.py');
  writeFileSync(file, script);
  const env: NodeJS.ProcessEnv = { ...process.env, PYTHONPATH: referenceDir, PYTHONDONTWRITEBYTECODE: '1' };
  delete env['VIRTUAL_ENV'];
  delete env['PYTHONHOME'];
  return new Promise((done, fail) => {
    const child = spawn(python, [file, ...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('error', fail);
    child.once('close', (code) => {
      rmSync(dir, { recursive: true, force: true });
      done({ code, stdout, stderr });
    });
  });
}

describe.skipIf(!LIVE)("our node in reference mode, called by the reference's own client and CLI", () => {
  let identity: KeyPair;
  let served: ServedBusHandler | undefined;
  const posts: Json[] = [];
  let run: ReferenceClientRun;

  beforeAll(async () => {
    const referenceDir = REFERENCE_DIR as string;
    const python = (await loadHarness()).ensureVenv(referenceDir);
    identity = generateKeyPair();
    const community = identity.nodeId;
    const registry = new CapabilityRegistry<CapabilityHandler>();
    // llm.chat streams on the contract wire (`streaming: 'server'`), but the bus takes a JSON answer for
    // it too: a reference node answers one whole result (one frame when a stream was asked for).
    registry.register(
      catalogueDescriptor('llm.chat'),
      ({ input }) => {
        const messages = input['messages'] as { content: string }[];
        return {
          output: { message: { role: 'assistant', content: `echo: ${messages.at(-1)?.content ?? ''}` } },
          meta: { model: 'echo', tokens_in: 1, tokens_out: 1 },
        };
      },
      { maxConcurrent: 4, params: { model: 'echo' } },
    );
    registry.register(
      catalogueDescriptor('market.post'),
      ({ input }) => {
        const post = { ...input, event_id: `evt:${posts.length + 1}`, lamport: posts.length + 1 };
        posts.push(post);
        return { output: { event_id: post.event_id, lamport: post.lamport }, meta: { ms: 0 } };
      },
      { maxConcurrent: 4 },
    );
    registry.register(
      catalogueDescriptor('market.list'),
      () => ({ output: { posts: [...posts], max_lamport: posts.length }, meta: { ms: 0 } }),
      { maxConcurrent: 4 },
    );
    const bus = createBusHandler({
      identity,
      registry,
      trust: staticTrust({}, 'member'),
      wire: referenceWire,
      acceptUnsigned: true,
    });
    let baseUrl = '';
    served = await serveBusHandler(
      routeByPath({
        ...referenceNodeRoutes({ identity, registry }),
        [BUS_CALL_PATH]: bus,
        [NODE_MANIFEST_PATH]: createManifestHandler({
          key: identity,
          input: () => ({
            display_name: 'agentwire live test node',
            community_id: community,
            profile: 'hearth',
            endpoints: [{ transport: 'http', host: '127.0.0.1', port: Number(new URL(baseUrl).port) }],
            capabilities: registry.manifestEntries(),
          }),
        }),
      }),
    );
    baseUrl = served.url;
    const { port } = new URL(served.url);
    const result = await runPython(python, referenceDir, REFERENCE_CLIENT_SCRIPT, [
      served.url,
      port,
      community,
    ]);
    const line = result.stdout
      .trim()
      .split('\n')
      .reverse()
      .find((l) => l.startsWith('{'));
    if (result.code !== 0 || line === undefined) {
      throw new Error(`the reference client script failed (exit ${String(result.code)}):\n${result.stderr}`);
    }
    run = JSON.parse(line) as ReferenceClientRun;
    console.log(`reference client against our node:\n${JSON.stringify(run, null, 2)}`);
  }, 180_000);

  afterAll(async () => {
    await served?.close();
  });

  it('HttpClient.fetch_manifest reads our manifest', () => {
    expect(run.manifest.ok).toMatchObject({ node_id: identity.nodeId, community_id: identity.nodeId });
    const names = ((run.manifest.ok as { capabilities: { name: string }[] }).capabilities ?? []).map(
      (c) => c.name,
    );
    expect(names.sort()).toEqual(['llm.chat', 'market.list', 'market.post']);
  });

  it('HttpClient.health answers status ok', () => {
    expect(run.health.ok).toMatchObject({ status: 'ok', node_id: identity.nodeId });
  });

  it('HttpClient.fetch_capabilities lists our capabilities', () => {
    expect(run.capabilities.ok).toEqual(
      expect.arrayContaining(
        ['llm.chat', 'market.list', 'market.post'].map((name) =>
          expect.objectContaining({ name, version: '1.0', local: true }),
        ),
      ),
    );
  });

  it('llm.chat with params {} answers the echo (unsigned, signed, and as a one-frame stream)', () => {
    const answer = {
      output: { message: { role: 'assistant', content: 'echo: hello from the reference client' } },
      meta: { model: 'echo', tokens_in: 1, tokens_out: 1 },
      _routed_via: 'local',
    };
    expect(run.llm_chat).toEqual({ ok: answer });
    expect(run.signed_llm_chat).toEqual({ ok: answer });
    expect(run.llm_chat_stream).toEqual({ ok: [answer, { done: true }] });
  });

  it('market.post with location {lat, lon} is accepted and market.list shows it with lon', () => {
    expect(run.market_post.ok).toMatchObject({
      output: { event_id: 'evt:1', lamport: 1 },
      _routed_via: 'local',
    });
    const listed = (run.market_list.ok as { output: { posts: Json[] } }).output.posts;
    const post = listed.find((p) => p['title'] === 'Charging point');
    expect(post?.['location']).toEqual({ lat: 52.52, lon: 13.405, label: 'Library' });
  });

  // The reference's own market.post callers (ui/tabs/marketplace.py `do_post`, facades.py
  // `MarketplaceFacade.post`) send no client_id; a reference node's `handle_post` defaults it to the event id.
  it('the reference Marketplace form (no client_id) with a location is accepted', () => {
    expect(run.market_post_reference_form.ok).toMatchObject({ output: { lamport: 2 }, _routed_via: 'local' });
  });

  it('the CLI `status --json` and `caps` read our node', () => {
    expect(run.cli_status.rc).toBe(0);
    expect(JSON.parse(run.cli_status.stdout)).toMatchObject({ status: 'ok', node_id: identity.nodeId });
    expect(run.cli_caps.rc).toBe(0);
    for (const name of ['llm.chat', 'market.list', 'market.post']) {
      expect(run.cli_caps.stdout).toMatch(
        new RegExp(`^${name.replace('.', '\\.')}\\s+1\\.0\\s+stable\\s+yes$`, 'm'),
      );
    }
  });
});
