// HearthNet reference node as a live oracle (a repo tool, never part of `pnpm test`).
//
// Runs the real Python HearthNet node (GitHub `Ckal/HearthNet`, commit 6e28872 =
// 6e288720a087c5e93f2c4280d46ac5da01415cd4) from a checkout whose path is given in the environment
// variable HEARTHNET_REFERENCE_DIR. When the variable is unset or the path holds no checkout, it prints one
// line saying so and exits 0, so CI stays offline. No reference code is ever copied into this repository.
//
// The node is started the way the reference starts one itself: its launcher `scripts/start_mesh_node.py`
// (with `--demo-services`, the echo LLM and in-memory demo services, or without it, the "real" service set
// that `HearthNode.install_services()` picks, whose LLM is the reference's "unavailable" backend when no
// Ollama / llama.cpp / transformers is present). It binds 127.0.0.1 on a free port, runs with HOME and its
// working directory in a fresh temporary data dir, and has discovery off: a short Python prelude turns the
// mDNS and UDP multicast announcers/listeners into no-ops before running the launcher. Nothing is
// downloaded; sponsor-backend and token variables are removed from its environment.
//
// A Python 3.11+ virtual environment is created (or reused) at $HEARTHNET_REFERENCE_DIR/.venv with
// fastapi, uvicorn, httpx, pynacl, websockets and click from the machine's pip configuration (a local
// `file:` wheel index is used as the only index so pip never waits on an unreachable PyPI; extra pip
// arguments can be given in HEARTHNET_PIP_ARGS, another interpreter in HEARTHNET_PYTHON).
//
// Use as a module:   const node = await startReferenceNode({ profile: 'demo' }); ... await node.stop();
// Run directly:      node scripts/oracles/hearthnet-reference.mjs observe OUT.json
//   starts a demo node (A) and a full node (B), calls every capability each lists in /manifest the way the
//   reference's own clients call it, plus the meta endpoints and error probes, then peers the two nodes and
//   records routed calls; writes every request/response pair to OUT.json (an array) and stops both nodes.
// Run directly:      node scripts/oracles/hearthnet-reference.mjs start [demo|full]
//   starts one node, prints its URL and node id, and stops it on Ctrl-C.

import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The reference commit this harness was written against. */
export const REFERENCE_COMMIT = '6e288720a087c5e93f2c4280d46ac5da01415cd4';

const VENV_PACKAGES = ['fastapi', 'uvicorn', 'httpx', 'pynacl', 'websockets', 'click'];
const VENV_MARKER = '.agentwire-oracle.json';
const READY_TIMEOUT_MS = 60_000;

/** Environment variables that would make the reference reach a cloud backend or a hub. */
const SCRUBBED_ENV = [
  'HEARTHNET_HF_TOKEN',
  'NVIDIA_API_KEY',
  'NEMOTRON_URL',
  'MINICPM_URL',
  'MINICPM_MODELS',
  'MODAL_ENDPOINT',
  'SPACE_HOST',
  'SPACE_TITLE',
  'HF_TOKEN',
  'MODEL_ID',
  'PYTHONPATH',
  'PYTHONHOME',
  'VIRTUAL_ENV',
];

/**
 * Python prelude: switch LAN discovery off (mDNS is already a no-op without zeroconf; the UDP multicast
 * announcer/listener are not), then run the reference launcher given as argv[1] with the rest of argv.
 */
const LAUNCHER = [
  'import runpy, sys',
  'import hearthnet.discovery.mdns as _mdns, hearthnet.discovery.udp as _udp',
  'async def _discovery_off(self):',
  '    return None',
  'for _cls in (_mdns.MdnsAnnouncer, _mdns.MdnsBrowser, _udp.UdpAnnouncer, _udp.UdpListener):',
  '    _cls.start = _discovery_off',
  'sys.argv = sys.argv[1:]',
  'runpy.run_path(sys.argv[0], run_name="__main__")',
].join('\n');

/** This harness's own settings, read from the environment (they are no build inputs). */
function setting(name) {
  return process.env[name];
}

/** The checkout named by HEARTHNET_REFERENCE_DIR, or null when unset or not a HearthNet checkout. */
export function referenceDir() {
  const raw = setting('HEARTHNET_REFERENCE_DIR');
  if (!raw) return null;
  const dir = resolve(raw);
  const ok =
    existsSync(join(dir, 'hearthnet', 'node.py')) && existsSync(join(dir, 'scripts', 'start_mesh_node.py'));
  return ok ? dir : null;
}

function run(cmd, args, options = {}) {
  const res = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  return { status: res.status, out: `${res.stdout ?? ''}${res.stderr ?? ''}`, error: res.error };
}

function findPython() {
  const candidates = setting('HEARTHNET_PYTHON')
    ? [setting('HEARTHNET_PYTHON')]
    : ['python3.11', 'python3.12', 'python3.13', 'python3'];
  for (const cmd of candidates) {
    const res = run(cmd, ['-c', 'import sys; print(sys.version_info >= (3, 11))']);
    if (res.status === 0 && res.out.trim() === 'True') return cmd;
  }
  throw new Error(`no Python >= 3.11 found (tried ${candidates.join(', ')}); set HEARTHNET_PYTHON`);
}

/** Index arguments: when pip only has `file:` extra indexes configured, use them as the only indexes. */
function pipIndexArgs(python) {
  const res = run(python, ['-m', 'pip', 'config', 'list']);
  const values = {};
  for (const line of res.out.split('\n')) {
    const m = /^[^.]*\.(index-url|extra-index-url)='(.*)'$/.exec(line.trim());
    if (m) values[m[1]] = m[2];
  }
  const extra = (values['extra-index-url'] ?? '').split(/\s+/).filter(Boolean);
  const args = [];
  if (!values['index-url'] && extra.length > 0 && extra.every((u) => u.startsWith('file:'))) {
    args.push('--index-url', extra[0]);
    for (const url of extra.slice(1)) args.push('--extra-index-url', url);
  }
  const more = (setting('HEARTHNET_PIP_ARGS') ?? '').split(/\s+/).filter(Boolean);
  return [...args, ...more];
}

/** Create (or reuse) `<dir>/.venv` with the packages the node needs; returns its python path. */
export function ensureVenv(dir) {
  const venv = join(dir, '.venv');
  const python = join(venv, 'bin', 'python');
  const marker = join(venv, VENV_MARKER);
  if (existsSync(python) && existsSync(marker)) {
    try {
      const { packages } = JSON.parse(readFileSync(marker, 'utf8'));
      if (VENV_PACKAGES.every((p) => packages.includes(p))) return python;
    } catch {
      // rebuild below
    }
  }
  if (!existsSync(python)) {
    const res = run(findPython(), ['-m', 'venv', venv]);
    if (res.status !== 0) throw new Error(`creating ${venv} failed:\n${res.out.slice(-4000)}`);
  }
  const pip = [
    '-m',
    'pip',
    'install',
    '--quiet',
    '--disable-pip-version-check',
    ...pipIndexArgs(python),
    ...VENV_PACKAGES,
  ];
  const res = run(python, pip);
  if (res.status !== 0) throw new Error(`pip install into ${venv} failed:\n${res.out.slice(-4000)}`);
  writeFileSync(marker, `${JSON.stringify({ packages: VENV_PACKAGES, commit: REFERENCE_COMMIT })}\n`);
  return python;
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Start one reference node on a free loopback port in a temporary data dir and wait until
 * `GET /manifest` answers.
 *
 * @param {{ profile?: 'demo' | 'full', nodeId?: string, name?: string, community?: string }} [options]
 *   profile `demo` (default): `start_mesh_node.py --demo-services` (echo LLM, in-memory services);
 *   `full`: `start_mesh_node.py` (the real service set). nodeId defaults to `local-<8 hex>`, the form
 *   the reference's own app gives a local node.
 * @returns {Promise<{ url: string, nodeId: string, port: number, profile: string, manifest: object,
 *   dataDir: string, log: () => string, stop: () => Promise<void> }>}
 */
export async function startReferenceNode(options = {}) {
  const dir = referenceDir();
  if (!dir) throw new Error('HEARTHNET_REFERENCE_DIR is unset or holds no HearthNet checkout');
  const profile = options.profile ?? 'demo';
  if (profile !== 'demo' && profile !== 'full') throw new Error(`unknown profile ${profile}`);
  const python = ensureVenv(dir);
  const dataDir = mkdtempSync(join(tmpdir(), 'hearthnet-ref-'));
  const port = await freePort();
  const nodeId = options.nodeId ?? `local-${randomBytes(4).toString('hex')}`;
  const env = { ...process.env };
  for (const key of SCRUBBED_ENV) delete env[key];
  // The process runs in an empty `cwd` dir: the full profile's RagService keeps its corpora under the
  // working directory and `rag.list_corpora` lists that directory's subdirectories.
  for (const sub of ['data', 'config', 'cache', 'cwd']) mkdirSync(join(dataDir, sub), { recursive: true });
  Object.assign(env, {
    HOME: dataDir,
    XDG_DATA_HOME: join(dataDir, 'data'),
    XDG_CONFIG_HOME: join(dataDir, 'config'),
    XDG_CACHE_HOME: join(dataDir, 'cache'),
    PYTHONPATH: dir,
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONUNBUFFERED: '1',
    PYTHONHASHSEED: '0',
    HF_HUB_OFFLINE: '1',
    TRANSFORMERS_OFFLINE: '1',
  });
  const args = [
    '-c',
    LAUNCHER,
    join(dir, 'scripts', 'start_mesh_node.py'),
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--node-id',
    nodeId,
    '--name',
    options.name ?? `Oracle ${profile}`,
    '--community',
    options.community ?? 'ed25519:community',
    ...(profile === 'demo' ? ['--demo-services'] : []),
  ];
  const child = spawn(python, args, { cwd: join(dataDir, 'cwd'), env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  let exited = false;
  const exitPromise = new Promise((r) =>
    child.once('exit', () => {
      exited = true;
      r();
    }),
  );
  const killOnExit = () => {
    if (!exited) child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  const cleanup = () => {
    process.removeListener('exit', killOnExit);
    rmSync(dataDir, { recursive: true, force: true });
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let manifest = null;
  while (!manifest) {
    if (exited || Date.now() > deadline) {
      child.kill('SIGKILL');
      await exitPromise;
      cleanup();
      throw new Error(`reference node did not answer GET /manifest on ${url}:\n${output.slice(-4000)}`);
    }
    try {
      const res = await fetch(`${url}/manifest`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) manifest = await res.json();
      else await sleep(100);
    } catch {
      await sleep(100);
    }
  }

  let stopped = null;
  const stop = () => {
    stopped ??= (async () => {
      if (!exited) {
        child.kill('SIGINT');
        await Promise.race([exitPromise, sleep(8000)]);
        if (!exited) {
          child.kill('SIGKILL');
          await exitPromise;
        }
      }
      cleanup();
    })();
    return stopped;
  };
  return {
    url,
    nodeId: manifest.node_id ?? nodeId,
    port,
    profile,
    manifest,
    dataDir,
    log: () => output,
    stop,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Observation run
// ---------------------------------------------------------------------------------------------------------

const JSON_HEADERS = { 'content-type': 'application/json' };

/** Headers the reference `transport/client.HttpClient` adds (it signs only with a key: unsigned here). */
function clientHeaders(node, stream) {
  const ts = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    'X-HearthNet-From': node.nodeId,
    'X-HearthNet-Community': node.manifest.community_id,
    'X-HearthNet-Request-Id': randomBytes(8).toString('hex'),
    'X-HearthNet-Timestamp': ts,
    'Content-Type': 'application/json',
    ...(stream ? { Accept: 'text/event-stream' } : {}),
  };
}

function parseSse(text) {
  const frames = [];
  for (const block of text.split('\n\n')) {
    if (!block.trim()) continue;
    const frame = { event: null, data: null, raw: block };
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) frame.event = line.slice(6).trim();
      else if (line.startsWith('data:')) {
        const payload = line.slice(5).trim();
        try {
          frame.data = JSON.parse(payload);
        } catch {
          frame.data = payload;
        }
      }
    }
    frames.push(frame);
  }
  return frames;
}

function makeRecorder(records) {
  let seq = 0;
  /**
   * One HTTP exchange. `body` (an object) is sent as compact JSON; `bodyText` is sent as is.
   */
  return async function exchange(node, entry) {
    const method =
      entry.method ?? (entry.body !== undefined || entry.bodyText !== undefined ? 'POST' : 'GET');
    const path = entry.path ?? '/bus/v1/call';
    const bodyText = entry.bodyText ?? (entry.body !== undefined ? JSON.stringify(entry.body) : undefined);
    const headers = entry.headers ?? (bodyText !== undefined ? JSON_HEADERS : {});
    const started = Date.now();
    const response = {};
    try {
      const res = await fetch(`${node.url}${path}`, {
        method,
        headers,
        body: bodyText,
        signal: AbortSignal.timeout(entry.timeoutMs ?? 30_000),
      });
      const text = await res.text();
      response.status = res.status;
      response.contentType = res.headers.get('content-type');
      response.headers = Object.fromEntries(res.headers.entries());
      response.bodyText = text;
      try {
        response.json = JSON.parse(text);
      } catch {
        response.json = null;
      }
      if ((response.contentType ?? '').startsWith('text/event-stream')) response.sse = parseSse(text);
    } catch (err) {
      response.error = String(err?.cause?.message ?? err?.message ?? err);
    }
    const record = {
      seq: ++seq,
      node: node.label,
      profile: node.profile,
      nodeId: node.nodeId,
      kind: entry.kind,
      capability: entry.capability ?? null,
      form: entry.form ?? null,
      note: entry.note ?? null,
      request: {
        method,
        path,
        headers,
        body: bodyText ?? null,
        json: entry.body ?? (bodyText !== undefined ? tryParse(bodyText) : null),
      },
      response,
      ms: Date.now() - started,
    };
    records.push(record);
    return record;
  };
}

function tryParse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Node-to-node form (`bus/http_transport.HttpBusTransport`): `{capability, version, params, input}`. */
const bus = (capability, input = {}, params = {}, version = '1.0') => ({
  capability,
  version,
  params,
  input,
});

const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const WAV_HEADER_B64 = Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1').toString('base64');
const PDF_B64 = Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64');

/** Calls every capability of one node the way the reference's own clients and UI call it. */
async function sweepCapabilities(ex, node, other) {
  const names = new Set(node.manifest.capabilities.map((c) => c.name));
  const done = new Set();
  const cap = async (capability, input, params, extra = {}) => {
    done.add(capability);
    return ex(node, {
      kind: 'capability',
      capability,
      form: 'bus',
      body: bus(capability, input, params, extra.version),
      ...extra,
    });
  };
  const has = (n) => names.has(n);
  const corpus =
    node.manifest.capabilities.find((c) => c.name === 'rag.query')?.params?.corpus ?? 'community';

  // discovery / mesh
  await cap('discovery.peers', {});
  await cap('discovery.peer.add', {}, {}, { note: 'missing endpoint' });
  await cap('discovery.peer.add', { endpoint: 'http://127.0.0.1:9' }, {}, { note: 'unreachable endpoint' });
  await cap('mesh.join', {}, {}, { note: 'neither relay_url nor invite_text' });
  await cap('mesh.join', { invite_text: 'hn1:not-an-invite' }, {}, { note: 'garbage invite' });
  await cap('mesh.join', { relay_url: 'http://127.0.0.1:9' }, {}, { note: 'unreachable relay' });

  // llm
  const messages = [{ role: 'user', content: 'How do I store water safely?' }];
  await cap('llm.chat', { messages }, {}, { note: 'Ask tab form; params {}' });
  await cap('llm.chat', { messages }, { temperature: 0.2, max_tokens: 64 }, { note: 'params with knobs' });
  const model = node.manifest.capabilities.find((c) => c.name === 'llm.chat')?.params?.model;
  if (model) await cap('llm.chat', { messages }, { model }, { note: 'params.model = advertised model' });
  await cap('llm.chat', { messages }, { model: 'no-such-model' }, { note: 'params.model unknown' });
  await cap('llm.chat', {}, {}, { note: 'no messages' });
  await cap('llm.chat', { messages: [{ role: 'user', content: 'Wasser abkochen? 水 😀' }] }, {});
  if (has('llm.complete')) {
    await cap('llm.complete', { prompt: 'Boil rainwater for' }, {});
    await cap('llm.complete', { prompt: '__conformance_ping__', max_tokens: 1 }, {}, { note: 'X09 form' });
  }

  // embeddings / rerank
  if (has('embed.text')) {
    await cap('embed.text', { texts: ['boil rainwater', 'charging points'] });
    await cap('embed.text', { texts: [] }, {}, { note: 'empty texts' });
    await cap('embed.text', { texts: Array.from({ length: 257 }, (_, i) => `t${i}`) }, {}, { note: '257' });
    await cap('embed.text', { texts: ['x'.repeat(8193)] }, {}, { note: 'one 8193-char text' });
  }
  if (has('rerank.text')) {
    const docs = [
      { id: 'd1', text: 'Boil rainwater for one minute.' },
      { id: 'd2', text: 'Keep the fridge closed.' },
    ];
    await cap('rerank.text', { query: 'water', docs, top_k: 1 }, {}, { note: 'federated RAG form' });
    await cap('rerank.text', { query: 'water', documents: docs }, {}, { note: 'X09 form (documents)' });
    await cap('rerank.text', { docs }, {}, { note: 'no query' });
  }

  // rag
  await cap(
    'rag.ingest',
    { corpus, doc_title: 'water.txt', text: 'Store clean water in covered containers. Boil rainwater.' },
    {},
    { note: 'Settings tab form' },
  );
  await cap(
    'rag.ingest',
    { text: 'Candles are a fire risk; use torches.' },
    {},
    { note: 'rag.ingest {text}' },
  );
  await cap(
    'rag.ingest',
    { title: 'Power', text: 'Reserve battery banks for communication.' },
    { corpus },
    { note: 'params.corpus = advertised corpus' },
  );
  await cap(
    'rag.ingest',
    { documents: [{ id: 'doc-1', title: 'Food', text: 'Frozen food stays safe 24-48 hours.' }] },
    { corpus },
    { note: 'Nemotron tab / app seed form (documents[])' },
  );
  await ex(node, {
    kind: 'capability',
    capability: 'rag.ingest',
    form: 'cli',
    note: 'hearthnet rag ingest (CLI): {capability, version, input:{corpus, filename, data_b64}}',
    body: {
      capability: 'rag.ingest',
      version: '1.0',
      input: { corpus, filename: 'notes.txt', data_b64: Buffer.from('Shelter in place.').toString('base64') },
    },
  });
  await cap('rag.query', { query: 'boil rainwater', k: 3 }, { corpus }, { note: 'Ask tab form' });
  await cap('rag.query', { query: 'boil rainwater', k: 3 }, {}, { note: 'params {}' });
  await cap('rag.query', { query: '' }, {}, { note: 'empty query' });
  await cap('rag.query', { query: 'water' }, { corpus: 'no-such-corpus' }, { note: 'corpus nobody serves' });
  if (has('rag.list_corpora')) {
    await cap('rag.list_corpora', {});
    await ex(node, {
      kind: 'capability',
      capability: 'rag.list_corpora',
      form: 'cli',
      note: 'hearthnet rag list (CLI)',
      body: { capability: 'rag.list_corpora', version: '1.0', input: {} },
    });
  }
  await cap('rag.federated_query', { query: 'boil rainwater', k: 3 }, {});
  await cap('rag.federated_query', { query: 'zzz unknown words', k: 2, confidence_threshold: 0.99 }, {});
  await cap('rag.federated_query', {}, {}, { note: 'no query' });

  // marketplace
  const post = await cap(
    'market.post',
    { title: 'Water filters to share', category: 'offer', body: 'Two spare cloth filters.' },
    {},
    { note: 'Marketplace tab form' },
  );
  await cap(
    'market.post',
    {
      title: 'Charging point',
      body: 'Solar charger at the library',
      category: 'offer',
      location: { lat: 52.52, lon: 13.405, label: 'Library' },
    },
    {},
    { note: 'location {lat, lon, label} (reference form)' },
  );
  await cap(
    'market.post',
    {
      title: 'Need water',
      body: 'Two families need drinking water',
      category: 'request',
      location: { lat: 52.5, lng: 13.4, label: 'School' },
    },
    {},
    { note: 'location {lat, lng, label} (contract form)' },
  );
  await cap(
    'market.post',
    { title: '__conformance__', body: 'test', category: 'other', client_id: '__x09__' },
    {},
    { note: 'X09 form with client_id' },
  );
  await cap('market.post', {}, {}, { note: 'empty input' });
  await cap('market.list', {});
  await cap('market.list', { category: 'offer' });
  if (has('market.search')) {
    await cap('market.search', { query: 'water' });
    await cap('market.search', {}, {}, { note: 'no query' });
  }
  const postId = post.response.json?.output?.event_id;
  if (has('market.expire')) await cap('market.expire', { event_id: postId ?? 'evt:none', reason: 'done' });
  if (has('market.delete')) await cap('market.delete', { event_id: 'evt:does-not-exist' });
  if (has('market.list')) await cap('market.list', {}, {}, { note: 'after expire' });

  // chat
  await cap(
    'chat.send',
    { recipient: node.nodeId, body: 'note to self' },
    {},
    { note: 'recipient = own id' },
  );
  await cap(
    'chat.send',
    { recipient: 'local-0badc0de', body: 'hello' },
    {},
    { note: 'unknown local-… peer' },
  );
  if (other) {
    await cap(
      'chat.send',
      { recipient: other.nodeId, body: 'hello before peering' },
      {},
      { note: 'the other (running, not yet peered) node' },
    );
  }
  await cap('chat.send', { to: 'self', body: 'ping', client_id: '__x09_chat__' }, {}, { note: 'X09 form' });
  await cap('chat.send', { body: 'no recipient' }, {}, { note: 'missing recipient' });
  await cap(
    'chat.deliver',
    {
      event_id: `msg:${randomBytes(16).toString('hex')}`,
      from: 'local-feedf00d',
      to: node.nodeId,
      body: 'inbound from a peer',
      attachments: [],
      sent_at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      client_id: 'c-1',
    },
    {},
    { note: 'what ChatService._deliver_remote sends' },
  );
  await cap('chat.deliver', {}, {}, { note: 'empty input' });
  await cap('chat.history', { peer: 'local-feedf00d' }, {}, { note: 'Chat tab form' });
  await cap('chat.history', {}, {}, { note: 'all messages' });

  // files
  const data = Buffer.from('Hello HearthNet\n').toString('base64');
  const put = await cap(
    'file.put',
    { data_b64: data, filename: 'hello.txt' },
    {},
    { note: 'Files tab form' },
  );
  await cap('file.put', { data_b64: 'not base64!!', filename: 'bad.bin' }, {}, { note: 'invalid base64' });
  await cap('file.put', { data_b64: 'cGluZw==' }, {}, { note: 'no filename' });
  await cap('file.list', {});
  const cid = put.response.json?.output?.cid;
  await cap('file.get', { cid: cid ?? 'x' });
  await cap('file.get', { cid: 'sha256:0000' }, {}, { note: 'unknown cid' });
  await cap('file.get', {}, {}, { note: 'missing cid' });
  await cap('file.delete', { cid: cid ?? 'x' });
  await cap('file.delete', {}, {}, { note: 'missing cid' });

  // moe
  await cap('moe.register', {
    expert_id: 'model:first-aid',
    expert_type: 'model',
    topic_tags: ['first-aid', 'medical'],
    confidence_score: 0.8,
    community_id: node.manifest.community_id,
    name: 'First aid model',
    description: 'Answers first-aid questions',
    ttl_seconds: 3600,
  });
  await cap('moe.register', { expert_type: 'human' }, {}, { note: 'missing expert_id' });
  await cap('moe.list', {});
  await cap('moe.route', { query: 'first aid for bleeding', top_k: 3, tags: ['first-aid'] });
  await cap('moe.route', {}, {}, { note: 'missing query' });
  await cap('moe.handoff', { expert_id: 'human:local-feedf00d', query: 'Need a nurse', thread_id: 't-1' });
  await cap('moe.handoff', { expert_id: 'human:x' }, {}, { note: 'missing query' });

  // tools / models / protocol
  await cap('tool.plant_identify', { image_b64: PNG_1X1, hints: ['garden', 'June'] });
  await cap('tool.plant_identify', {}, {}, { note: 'missing image_b64' });
  await cap('model.advertise', {});
  await cap('model.list', {});
  await cap('model.status', {});
  await cap('model.status', { job_id: 'pull:000000000000' }, {}, { note: 'unknown job' });
  await cap('model.pull', { model_name: 'qwen2.5-0.5b', source_node: 'local-feedf00d' });
  await cap('model.pull', {}, {}, { note: 'missing model_name/source_node' });
  await cap('model.chunk_read', { cid: 'sha256:0000', chunk_index: 0 });
  await cap('protocol.version.list', {});
  await cap('protocol.conformance.report', {}, {}, { note: 'defaults (suite 1.0, fast)' });
  await cap('protocol.conformance.report', { suite_version: '3.0', fast: true });

  // phase-2 services (full profile)
  if (has('ocr.image')) {
    await cap('ocr.image', { image_b64: PNG_1X1, languages: ['en'] });
    await cap('ocr.image', { image_cid: 'blake3:test' }, {}, { note: 'X09 form' });
    await cap('ocr.image', {}, {}, { note: 'missing image' });
  }
  if (has('ocr.pdf')) {
    await cap('ocr.pdf', { pdf_b64: PDF_B64, pages: [1] });
    await cap('ocr.pdf', {}, {}, { note: 'missing pdf' });
  }
  if (has('trans.text')) {
    await cap('trans.text', { text: 'Boil the water', from_lang: 'en', to_lang: 'de' });
    await cap('trans.text', { text: 'hello', from: 'en', to: 'de' }, {}, { note: 'X09 form (from/to)' });
    await cap('trans.text', { text: 'x'.repeat(4001), to_lang: 'de' }, {}, { note: '4001 chars' });
  }
  if (has('stt.transcribe')) {
    await cap('stt.transcribe', { audio_b64: WAV_HEADER_B64, language: 'en' });
    await cap('stt.transcribe', {}, {}, { note: 'missing audio_b64' });
    await cap('stt.transcribe', { audio_b64: '***' }, {}, { note: 'invalid base64' });
  }
  if (has('tts.synthesize')) {
    await cap('tts.synthesize', { text: 'Boil the water', language: 'en', format: 'wav' });
    await cap('tts.synthesize', {}, {}, { note: 'missing text' });
  }
  if (has('img.describe')) {
    await cap('img.describe', { image_b64: PNG_1X1, mode: 'caption' });
    await cap('img.describe', { image_cid: 'blake3:none' }, {}, { note: 'unknown image_cid' });
    await cap('img.describe', {}, {}, { note: 'missing image' });
  }
  if (has('img.generate')) {
    await cap('img.generate', { prompt: 'a water filter', width: 256, height: 256 });
    await cap('img.generate', {}, {}, { note: 'missing prompt' });
  }

  // Anything listed that the sweep above has no realistic call for: call it with an empty input.
  for (const name of names) {
    if (!done.has(name)) await cap(name, {}, {}, { note: 'no known client form; empty input' });
  }
}

async function sweepMeta(ex, node) {
  for (const path of [
    '/health',
    '/ready',
    '/manifest',
    '/bus/v1/capabilities',
    '/community/manifest',
    '/sync/v1/heads',
    '/trace/recent?n=5',
    '/metrics',
    '/file/chunks/sha256:0000',
    '/pubsub/v1/subscribe?topic=market',
    '/mobile/manifest.json',
  ]) {
    await ex(node, { kind: 'meta', method: 'GET', path });
  }
  const issued = new Date().toISOString().replace('Z', '000Z');
  const refEvent = {
    schema_version: 1,
    event_id: 'AAAAAAGQ3R5XQZ4K2M7PLT6V3Q',
    event_type: 'market.post.created',
    community_id: node.manifest.community_id,
    author: 'local-feedf00d',
    lamport: 1,
    payload: {
      title: 'Synced post',
      body: 'via /sync/v1/events',
      category: 'offer',
      client_id: 'sync-1',
      location: { lat: 52.5, lon: 13.4, label: 'Park' },
    },
    issued_at: issued,
    signature: '',
  };
  await ex(node, {
    kind: 'meta',
    path: '/sync/v1/events',
    note: 'SyncClient form, one unsigned reference-shaped event',
    body: { community_id: node.manifest.community_id, events: [refEvent], our_head: 0 },
  });
  const contractEvent = {
    event_id: '01J0000000000000000000000',
    event_type: 'market.post.created',
    community_id: node.manifest.community_id,
    author: 'local-feedf00d',
    lamport: 2,
    data: { title: 'contract-shaped' },
    wall_clock: '2026-01-01T00:00:00Z',
    signature: '',
  };
  await ex(node, {
    kind: 'meta',
    path: '/sync/v1/events',
    note: 'contract-shaped event (data/wall_clock)',
    body: { community_id: node.manifest.community_id, events: [contractEvent], our_head: 0 },
  });
  await ex(node, { kind: 'meta', path: '/sync/v1/events', note: 'empty body object', body: {} });
}

async function probeErrors(ex, node) {
  const p = (note, entry) => ex(node, { kind: 'probe', note, ...entry });
  const messages = [{ role: 'user', content: 'hi' }];
  await p('unknown capability', { capability: 'no.such.capability', body: bus('no.such.capability') });
  await p('unsupported version 9.0', {
    capability: 'llm.chat',
    body: bus('llm.chat', { messages }, {}, '9.0'),
  });
  await p('unsupported minor 1.9', {
    capability: 'llm.chat',
    body: bus('llm.chat', { messages }, {}, '1.9'),
  });
  await p('version "1" (minor defaults to 0)', {
    capability: 'llm.chat',
    body: bus('llm.chat', { messages }, {}, '1'),
  });
  await p('version omitted (defaults to 1.0)', {
    capability: 'llm.chat',
    body: { capability: 'llm.chat', input: { messages } },
  });
  await p('invalid version string', {
    capability: 'llm.chat',
    body: bus('llm.chat', { messages }, {}, 'one.zero'),
  });
  await p('numeric version 1.0', {
    capability: 'llm.chat',
    bodyText: `{"capability":"llm.chat","version":1.0,"params":{},"input":${JSON.stringify({ messages })}}`,
  });
  await p('missing capability', { body: { version: '1.0', params: {}, input: {} } });
  await p('missing required input (chat.send without recipient)', {
    capability: 'chat.send',
    body: bus('chat.send', { body: 'x' }),
  });
  await p('missing required input (moe.route without query)', {
    capability: 'moe.route',
    body: bus('moe.route', {}),
  });
  await p('chat.send to a local-… recipient that is not a peer', {
    capability: 'chat.send',
    body: bus('chat.send', { recipient: 'local-1234abcd', body: 'hi' }),
  });
  await p('market.post location {lat, lon}', {
    capability: 'market.post',
    body: bus('market.post', {
      title: 'Probe lon',
      body: 'b',
      category: 'offer',
      location: { lat: 1.5, lon: 2.5, label: 'L' },
    }),
  });
  await p('market.post location {lat, lng}', {
    capability: 'market.post',
    body: bus('market.post', {
      title: 'Probe lng',
      body: 'b',
      category: 'offer',
      location: { lat: 1.5, lng: 2.5, label: 'L' },
    }),
  });
  await p('market.list after the two location probes', {
    capability: 'market.list',
    body: bus('market.list'),
  });
  await p('llm.chat with params: {}', { capability: 'llm.chat', body: bus('llm.chat', { messages }, {}) });
  await p('file.put inline {data_b64, filename}', {
    capability: 'file.put',
    body: bus('file.put', { data_b64: Buffer.from('probe').toString('base64'), filename: 'probe.txt' }),
  });
  await p('rag.ingest {text}', { capability: 'rag.ingest', body: bus('rag.ingest', { text: 'probe text' }) });
  await p('CLI `hearthnet call` form {capability, body}', {
    capability: 'llm.chat',
    form: 'cli-call',
    body: { capability: 'llm.chat', body: { input: { messages } } },
  });
  await p('contract §5.1 form: routing in headers, body {params, input}', {
    headers: {
      'content-type': 'application/json',
      'X-HearthNet-Capability': 'llm.chat',
      'X-HearthNet-Capability-Version': '1.0',
      'X-HearthNet-Signature': 'ed25519:AAAA',
    },
    body: { params: {}, input: { messages } },
  });
  await p('HttpClient headers with a bogus signature', {
    capability: 'llm.chat',
    form: 'client',
    headers: { ...clientHeaders(node, false), 'X-HearthNet-Signature': 'ed25519:AAAA' },
    body: bus('llm.chat', { messages }),
  });
  await p('malformed JSON', { bodyText: '{"capability": "llm.chat",' });
  await p('empty body', { bodyText: '' });
  await p('JSON array body', { bodyText: '[1,2]' });
  await p('JSON string body', { bodyText: '"llm.chat"' });
  await p('params not an object', { capability: 'llm.chat', body: bus('llm.chat', { messages }, 'x') });
  await p('input not an object', { capability: 'llm.chat', body: { ...bus('llm.chat'), input: [1] } });
  await p('GET /bus/v1/call', { method: 'GET', path: '/bus/v1/call' });
  // Capabilities the reference CLI calls (hearthnet rag reindex / invite create / invite redeem).
  await p('CLI `rag reindex`', {
    capability: 'rag.reindex',
    form: 'cli',
    body: { capability: 'rag.reindex', version: '1.0', input: { corpus: 'community' } },
  });
  await p('CLI `invite create`', {
    capability: 'community.invite',
    form: 'cli',
    body: {
      capability: 'community.invite',
      version: '1.0',
      input: { invitee_node_id: 'local-feedf00d', initial_level: 'member', ttl_seconds: 86400 },
    },
  });
  await p('CLI `invite redeem`', {
    capability: 'community.redeem',
    form: 'cli',
    body: { capability: 'community.redeem', version: '1.0', input: { invite_text: 'hn1:x' } },
  });
}

async function probeStreams(ex, node) {
  const s = (note, capability, input, params = {}, version = '1.0') =>
    ex(node, {
      kind: 'stream',
      capability,
      form: 'client-stream',
      note,
      headers: clientHeaders(node, true),
      body: { capability, version, stream: true, params, input },
    });
  const messages = [{ role: 'user', content: 'How do I store water safely?' }];
  await s('llm.chat stream (HttpClient.stream form)', 'llm.chat', { messages });
  await s('non-ASCII content', 'llm.chat', {
    messages: [{ role: 'user', content: 'Wasser abkochen? 水 😀' }],
  });
  await s('rag.query stream', 'rag.query', { query: 'boil rainwater', k: 2 });
  await s('in-band service error in a stream', 'chat.send', { body: 'no recipient' });
  await s('unknown capability in a stream', 'no.such.capability', {});
  await s('unsupported version in a stream', 'llm.chat', { messages }, {}, '9.0');
  await ex(node, {
    kind: 'stream',
    capability: 'llm.chat',
    note: 'input.stream = true only',
    body: bus('llm.chat', { messages, stream: true }),
  });
  await ex(node, {
    kind: 'stream',
    capability: 'llm.chat',
    note: 'Accept: text/event-stream only',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: bus('llm.chat', { messages }),
  });
  await ex(node, {
    kind: 'stream',
    capability: 'llm.chat',
    note: 'invalid version string with stream',
    body: { capability: 'llm.chat', version: 'x.y', stream: true, params: {}, input: { messages } },
  });
}

async function probeRouting(ex, a, b) {
  const r = (node, note, entry) => ex(node, { kind: 'routing', note, ...entry });
  await r(a, 'A adds B by URL (discovery.peer.add, Settings/connect_to_hf form)', {
    capability: 'discovery.peer.add',
    body: bus('discovery.peer.add', { endpoint: b.url }),
  });
  await r(b, 'B adds A by host:port', {
    capability: 'discovery.peer.add',
    body: bus('discovery.peer.add', { endpoint: `127.0.0.1:${a.port}` }),
  });
  await r(a, 'A lists peers', { capability: 'discovery.peers', body: bus('discovery.peers') });
  await r(a, 'A: rag.list_corpora (only B serves it)', {
    capability: 'rag.list_corpora',
    body: bus('rag.list_corpora'),
  });
  await r(a, 'A: embed.text (only B serves it)', {
    capability: 'embed.text',
    body: bus('embed.text', { texts: ['water'] }),
  });
  await r(a, 'A: rag.query params.corpus = B corpus', {
    capability: 'rag.query',
    body: bus('rag.query', { query: 'water', k: 2 }, { corpus: 'community' }),
  });
  await r(a, 'A: llm.complete (B has it, its backend is unavailable: in-band error at B)', {
    capability: 'llm.complete',
    body: bus('llm.complete', { prompt: 'hello' }),
  });
  await r(a, 'A: market.search (only B serves it)', {
    capability: 'market.search',
    body: bus('market.search', { query: 'water' }),
  });
  await r(a, 'A: market.search routed, streamed', {
    capability: 'market.search',
    headers: clientHeaders(a, true),
    body: { ...bus('market.search', { query: 'water' }), stream: true },
  });
  await r(a, 'A: chat.send to B', {
    capability: 'chat.send',
    body: bus('chat.send', { recipient: b.nodeId, body: 'hello B from A' }),
  });
  await r(b, 'B: chat.history with A', {
    capability: 'chat.history',
    body: bus('chat.history', { peer: a.nodeId }),
  });
  await r(b, 'B: llm.chat (local backend unavailable; fails over to A)', {
    capability: 'llm.chat',
    body: bus('llm.chat', { messages: [{ role: 'user', content: 'routed hello' }] }),
  });
  await r(b, 'B: llm.chat params.model = A model', {
    capability: 'llm.chat',
    body: bus('llm.chat', { messages: [{ role: 'user', content: 'pick A' }] }, { model: 'demo-local' }),
  });
  await r(b, 'B: chat.send to A', {
    capability: 'chat.send',
    body: bus('chat.send', { recipient: a.nodeId, body: 'hello A from B' }),
  });
  await r(a, 'A: chat.history with B', {
    capability: 'chat.history',
    body: bus('chat.history', { peer: b.nodeId }),
  });
  await r(a, 'A: no.such.capability after peering', {
    capability: 'no.such.capability',
    body: bus('no.such.capability'),
  });
  await r(a, 'A: img.generate (B answers in-band unavailable)', {
    capability: 'img.generate',
    body: bus('img.generate', { prompt: 'x' }),
  });
  await r(a, 'A manifest after peering (local capabilities only?)', { method: 'GET', path: '/manifest' });
  await r(a, 'A trace after routing', { method: 'GET', path: '/trace/recent?n=5' });
}

/** Start both nodes, record everything, stop both nodes. */
export async function observe(outFile) {
  const t0 = Date.now();
  const records = [];
  const ex = makeRecorder(records);
  const a = await startReferenceNode({ profile: 'demo', name: 'Oracle Demo A' });
  const tA = Date.now() - t0;
  let b;
  try {
    const t1 = Date.now();
    b = await startReferenceNode({ profile: 'full', name: 'Oracle Full B' });
    const tB = Date.now() - t1;
    a.label = 'A';
    b.label = 'B';
    console.log(`A (demo) ${a.url} ${a.nodeId} ready in ${tA} ms; B (full) ${b.url} ${b.nodeId} in ${tB} ms`);
    for (const node of [a, b]) await sweepMeta(ex, node);
    await sweepCapabilities(ex, a, b);
    await sweepCapabilities(ex, b, a);
    for (const node of [a, b]) await probeErrors(ex, node);
    for (const node of [a, b]) await probeStreams(ex, node);
    await probeRouting(ex, a, b);
  } finally {
    await a.stop();
    if (b) await b.stop();
  }
  writeFileSync(outFile, `${JSON.stringify(records, null, 2)}\n`);
  console.log(`${records.length} exchanges written to ${outFile} in ${Date.now() - t0} ms`);
}

async function main(argv) {
  if (!referenceDir()) {
    console.log(
      'hearthnet-reference oracle skipped: HEARTHNET_REFERENCE_DIR is unset or holds no HearthNet checkout',
    );
    return;
  }
  const [command = 'observe', arg] = argv;
  if (command === 'observe') {
    await observe(resolve(arg ?? 'hearthnet-observed.json'));
  } else if (command === 'start') {
    const node = await startReferenceNode({ profile: arg ?? 'demo' });
    console.log(`${node.profile} node ${node.nodeId} at ${node.url} (Ctrl-C stops it)`);
    await new Promise((r) => process.once('SIGINT', r));
    await node.stop();
  } else {
    throw new Error(`unknown command ${command}; use: observe OUT.json | start [demo|full]`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    // Exit at once rather than wait for fetch's idle keep-alive sockets to close.
    () => process.exit(0),
    (err) => {
      console.error(err?.stack ?? String(err));
      process.exit(1);
    },
  );
}
