// Browser check, run after `pnpm build`: the runtime-neutral root entries of @agentwire/hearthnet
// and @agentwire/relay, bundled from dist/ by esbuild for the browser and run in headless Chromium
// (no puppeteer: `chromium --headless --dump-dom` on a page that writes its result into the DOM),
// must compute exactly what they compute in Node. The computation is ./probe.mjs; Chromium must use
// the noble Ed25519 backend, Node uses node:crypto, so signatures are checked across both backends.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { builtPackagesPlugin, loadEsbuild } from '../built-packages.mjs';

const here = import.meta.dirname;
const CHROMIUM_TIMEOUT_MS = 60_000;
const started = Date.now();
const esbuild = await loadEsbuild();
const work = mkdtempSync(join(tmpdir(), 'agentwire-browser-check-'));

/** Bundles `contents` (resolved from this folder) for one platform; returns the JavaScript text. */
async function bundle(contents, platform) {
  const result = await esbuild.build({
    stdin: { contents, resolveDir: here, sourcefile: `${platform}-harness.js`, loader: 'js' },
    bundle: true,
    write: false,
    format: 'esm',
    platform,
    target: 'es2022',
    loader: { '.json': 'text' },
    logLevel: 'silent',
    plugins: [builtPackagesPlugin()],
  });
  return result.outputFiles[0].text;
}

// In the page: the result as base64 of its UTF-8 JSON (nothing for --dump-dom to escape), or the error.
const BROWSER_HARNESS = `
import { runProbe } from './probe.mjs';
const out = document.getElementById('result');
try {
  const bytes = new TextEncoder().encode(JSON.stringify(runProbe()));
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  out.textContent = btoa(binary);
  out.dataset.state = 'done';
} catch (error) {
  out.textContent = String(error && error.stack || error);
  out.dataset.state = 'failed';
}
`;

function chromiumBinary() {
  for (const bin of ['chromium', 'chromium-browser', 'google-chrome']) {
    if (spawnSync(bin, ['--version'], { stdio: 'ignore' }).status === 0) return bin;
  }
  throw new Error('no chromium on PATH (apt-get install chromium; .ci/run does)');
}

/** Loads the page in headless Chromium and returns the DOM it ends with. */
function dumpDom(bin, pageFile, profileDir) {
  const args = [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--no-first-run',
    '--disable-extensions',
    `--user-data-dir=${profileDir}`,
    '--virtual-time-budget=10000',
    '--dump-dom',
    pathToFileURL(pageFile).href,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout = [];
    const stderr = [];
    child.stdout.on('data', (d) => stdout.push(d));
    child.stderr.on('data', (d) => stderr.push(d));
    const timer = setTimeout(() => child.kill('SIGKILL'), CHROMIUM_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const dom = Buffer.concat(stdout).toString('utf8');
      if (code === 0 && dom) resolve(dom);
      else {
        const why = signal ? `killed by ${signal} after ${CHROMIUM_TIMEOUT_MS} ms` : `exit code ${code}`;
        reject(
          new Error(`chromium failed (${why}):\n${Buffer.concat(stderr).toString('utf8').slice(-2000)}`),
        );
      }
    });
  });
}

const unescapeHtml = (text) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

function browserResult(dom) {
  const match = /<pre id="result"(?: data-state="(\w+)")?>([^<]*)<\/pre>/.exec(dom);
  if (!match) throw new Error(`the page has no result element; chromium printed:\n${dom.slice(0, 2000)}`);
  const [, state, text] = match;
  if (state !== 'done')
    throw new Error(`the probe failed in Chromium (${state ?? 'never ran'}):\n${unescapeHtml(text)}`);
  return JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
}

/** Up to `limit` differences between the two output sets, as readable lines. */
function differences(node, browser, limit = 10) {
  const lines = [];
  for (const section of new Set([...Object.keys(node), ...Object.keys(browser)])) {
    const byId = (list) => new Map((list ?? []).map((entry) => [entry.id, JSON.stringify(entry)]));
    const [n, b] = [byId(node[section]), byId(browser[section])];
    for (const id of new Set([...n.keys(), ...b.keys()])) {
      if (n.get(id) === b.get(id)) continue;
      lines.push(`${section} ${id}:\n      node:     ${n.get(id)}\n      chromium: ${b.get(id)}`);
      if (lines.length === limit) return lines;
    }
  }
  return lines;
}

// Frozen vectors the outputs must carry, so that two runs that both failed cannot agree by accident.
const fixture = (path) =>
  JSON.parse(readFileSync(join(here, '../../packages/conformance/fixtures', path), 'utf8'));
const fixtureCase = (path, id) => fixture(path).cases.find((c) => c.id === id);
const SPOT_CHECKS = [
  [
    'canonicalJson',
    'key-order-nested',
    fixtureCase('hearthnet/canonical-json.json', 'key-order-nested').expected,
  ],
  [
    'tokens',
    'sign-frozen-signed-text',
    fixtureCase('relay/tokens.json', 'sign-frozen-signed-text').signature,
  ],
  [
    'sessionKeys',
    'namespace-no-profile',
    fixtureCase('relay/session-keys.json', 'namespace-no-profile').expected,
  ],
];

try {
  const [browserCode, nodeCode] = await Promise.all([
    bundle(BROWSER_HARNESS, 'browser'),
    bundle(`export { runProbe } from './probe.mjs';`, 'node'),
  ]);
  const pageFile = join(work, 'index.html');
  const safeScript = browserCode.replace(/<\/script/gi, '<\\/script');
  writeFileSync(
    pageFile,
    `<!doctype html><meta charset="utf-8"><title>agentwire browser check</title>` +
      `<pre id="result"></pre><script type="module">${safeScript}</script>`,
  );
  const nodeFile = join(work, 'probe-node.mjs');
  writeFileSync(nodeFile, nodeCode);

  const node = (await import(pathToFileURL(nodeFile).href)).runProbe();
  const browser = browserResult(await dumpDom(chromiumBinary(), pageFile, join(work, 'profile')));

  const failures = [];
  if (browser.runtime.ed25519Backend !== 'noble')
    failures.push(`Chromium used the ${browser.runtime.ed25519Backend} Ed25519 backend, not noble`);
  for (const [section, id, expected] of SPOT_CHECKS) {
    const entry = node.outputs[section]?.find((e) => e.id === id);
    if (entry?.value !== expected)
      failures.push(`${section} ${id}: node computed ${JSON.stringify(entry)}, the fixture says ${expected}`);
  }
  const diffs = differences(node.outputs, browser.outputs);
  if (diffs.length) failures.push(`Chromium and Node disagree:\n    ${diffs.join('\n    ')}`);

  const counts = Object.entries(node.outputs).map(([section, list]) => `${section} ${list.length}`);
  console.log(
    `browser check: ${counts.join(', ')} outputs; Chromium (noble Ed25519) vs Node (${node.runtime.ed25519Backend})`,
  );
  if (failures.length) {
    console.error(`browser check: ${failures.length} failure(s)`);
    for (const f of failures) console.error(`  ${f}`);
    process.exitCode = 1;
  } else {
    console.log(`browser check: ok, identical outputs (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
} catch (error) {
  console.error(`browser check: ${error.message}`);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
