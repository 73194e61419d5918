// The SDK as an npm user meets it. Packs every published package, installs the tarballs (not the
// workspace) into a fresh project in a temporary folder, then compiles every TypeScript block of every
// README and of docs/ with `tsc --strict`, `NodeNext` and `skipLibCheck: false`, and runs each block
// marked runnable. A block is marked by an HTML comment on the line(s) just above its fence:
//   <!-- packed: run -->             compiled, then run with Node (it must exit 0 within a minute)
//   <!-- packed: run with redis -->  the same, with REDIS_URL pointing at a redis-server started here
//   <!-- packed: fragment (why) -->  a piece of a larger program: compiled, but the names it uses and
//                                    does not define (and its relative imports) are allowed; not run.
//                                    The reason, e.g. what the undefined names stand for, is required.
// Any other block is compiled only. Runnable blocks get PORT (a free port) and start what else they need. The tarballs are checked too: no source maps, no workspace ranges.
//   node scripts/check-packed.mjs [--keep]      (--keep leaves the temporary project for a look)
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { isPublished, packageName } from './package-entries.mjs';

const repoRoot = join(import.meta.dirname, '..');
const keep = process.argv.includes('--keep');
const failures = [];
const fail = (message) => failures.push(message);

// ---- the markdown blocks ---------------------------------------------------------------------

function markdownFiles() {
  const files = [join(repoRoot, 'README.md')];
  for (const dir of readdirSync(join(repoRoot, 'packages'))) {
    const readme = join(repoRoot, 'packages', dir, 'README.md');
    if (isPublished(join(repoRoot, 'packages', dir))) files.push(readme);
  }
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) files.push(path);
    }
  };
  walk(join(repoRoot, 'docs'));
  return files;
}

const MARKER = /^<!--\s*packed:\s*(run with redis|run|fragment\s*\((.+)\))\s*-->$/;

/** Every ```ts block: where it starts (the line after the fence, 1-based), its code and its mark. */
function typescriptBlocks(file, text) {
  const lines = text.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i += 1) {
    const fence = /^(\s*)```(\S*)/.exec(lines[i]);
    if (fence === null) continue;
    const end = lines.findIndex((line, j) => j > i && line.trimStart().startsWith('```'));
    if (end === -1) throw new Error(`${file}:${i + 1}: a code fence that is never closed`);
    if (fence[2] === 'ts' || fence[2] === 'typescript') {
      let mark = 'compile';
      let reason;
      let above = i - 1;
      while (above >= 0 && lines[above].trim() === '') above -= 1;
      const comment = above >= 0 ? lines[above].trim() : '';
      if (comment.startsWith('<!--') && /packed/.test(comment)) {
        const parsed = MARKER.exec(comment);
        if (parsed === null) throw new Error(`${file}:${above + 1}: unreadable marker ${comment}`);
        mark = parsed[1].startsWith('fragment') ? 'fragment' : parsed[1];
        reason = parsed[2];
      }
      const indent = fence[1].length;
      const code = lines
        .slice(i + 1, end)
        .map((line) => line.slice(Math.min(indent, line.length - line.trimStart().length)))
        .join('\n');
      blocks.push({ file, line: i + 2, code: `${code}\n`, mark, reason });
    }
    i = end;
  }
  return blocks;
}

// ---- packing and installing ------------------------------------------------------------------

function packAll(into) {
  const tarballs = new Map();
  for (const dir of readdirSync(join(repoRoot, 'packages'))) {
    const packageDir = join(repoRoot, 'packages', dir);
    if (!isPublished(packageDir)) continue;
    const out = execFileSync('pnpm', ['pack', '--json', '--pack-destination', into], {
      cwd: packageDir,
      encoding: 'utf8',
    });
    const packed = JSON.parse(out);
    const name = packageName(packageDir);
    tarballs.set(name, packed.filename);
    const files = packed.files.map((f) => f.path);
    const maps = files.filter((f) => f.endsWith('.map'));
    if (maps.length > 0) fail(`${name}: the tarball ships ${maps.length} source maps (${maps[0]}, …)`);
    if (!files.some((f) => f.startsWith('dist/'))) fail(`${name}: the tarball has no dist/ (not built?)`);
    if (!files.includes('README.md')) fail(`${name}: the tarball has no README.md`);
  }
  return tarballs;
}

/** What the blocks import besides the packages themselves, at the versions the workspace uses. */
function rootDevVersion(name) {
  const lock = readFileSync(join(repoRoot, 'pnpm-lock.yaml'), 'utf8');
  const found = new RegExp(
    `\\n      '?${name.replace('/', '\\/')}'?:\\n        specifier: [^\\n]+\\n        version: ([^\\s(]+)`,
  ).exec(lock);
  if (found === null) throw new Error(`pnpm-lock.yaml names no version of ${name}`);
  return found[1];
}

function installProject(project, tarballs) {
  const files = Object.fromEntries([...tarballs].map(([name, file]) => [name, `file:${file}`]));
  const pkg = {
    name: 'agentwire-packed-check',
    private: true,
    type: 'module',
    dependencies: {
      ...files,
      // What README and docs blocks import besides our packages: a user installs them too.
      ioredis: rootDevVersion('ioredis'),
      vitest: rootDevVersion('vitest'),
      '@types/node': rootDevVersion('@types/node'),
    },
    // Our packages depend on one another at 0.0.0: the tarballs answer those ranges, not the registry.
    pnpm: { overrides: files, onlyBuiltDependencies: ['better-sqlite3', 'esbuild'] },
  };
  writeFileSync(join(project, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  execFileSync('pnpm', ['install', '--prefer-offline', '--no-frozen-lockfile', '--reporter=append-only'], {
    cwd: project,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (const [name] of tarballs) {
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8'));
    for (const [dep, range] of Object.entries(manifest.dependencies ?? {})) {
      if (range.startsWith('workspace:')) fail(`${name}: the tarball depends on ${dep}@${range}`);
    }
  }
}

// ---- compiling and running -------------------------------------------------------------------

function compile(project, blocks) {
  const dir = join(project, 'blocks');
  mkdirSync(dir);
  const byFile = new Map();
  for (const block of blocks) {
    const name = `${relative(repoRoot, block.file).replace(/[^A-Za-z0-9]+/g, '-')}-${block.line}.ts`;
    block.source = `blocks/${name}`;
    block.output = join(project, 'out', `${name.slice(0, -3)}.js`);
    byFile.set(block.source, block);
    // Each block is its own module (an `export {}` keeps a block without imports from being a script).
    writeFileSync(join(dir, name), `${block.code}export {};\n`);
  }
  const tsconfig = {
    compilerOptions: {
      strict: true,
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      target: 'ES2022',
      lib: ['ES2023', 'DOM'],
      types: ['node'],
      skipLibCheck: false,
      noEmitOnError: false,
      outDir: 'out',
      rootDir: 'blocks',
    },
    include: ['blocks'],
  };
  writeFileSync(join(project, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', project, '--pretty', 'false'], {
    cwd: project,
    encoding: 'utf8',
  });
  for (const line of result.stdout.split('\n').filter(Boolean)) {
    const at = /^(blocks\/[^(]+)\((\d+),(\d+)\): (.*)$/.exec(line);
    const block = at === null ? undefined : byFile.get(at[1]);
    if (at !== null && block !== undefined) {
      // A fragment may use what the text around it defines: names, and modules of the reader's own.
      const undefinedName = /^error TS(2304|2552|18004|2307): (?!.*'@agentwire\/)/.test(at[4]);
      if (block.mark === 'fragment' && undefinedName) continue;
      fail(`${relative(repoRoot, block.file)}:${block.line + Number(at[2]) - 1}:${at[3]}: ${at[4]}`);
    } else if (/error TS/.test(line)) {
      fail(`tsc: ${line}`); // an error in a .d.ts we ship (skipLibCheck: false)
    } else if (!line.startsWith(' ')) {
      fail(`tsc: ${line}`);
    }
  }
  if (result.status !== 0 && result.stdout.trim() === '')
    fail(`tsc exited with ${result.status}: ${result.stderr}`);
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startRedis() {
  const port = await freePort();
  const bin = process.env.REDIS_SERVER_BIN ?? 'redis-server';
  const child = spawn(
    bin,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  try {
    await new Promise((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10_000);
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
      child.stdout.on('data', (chunk) => {
        out += chunk;
        if (/Ready to accept connections/.test(out)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

function runBlock(project, block, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [block.output], {
      cwd: project,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) {
        const why = signal === 'SIGKILL' ? 'did not exit within 60 s' : `exited with ${code ?? signal}`;
        fail(`${relative(repoRoot, block.file)}:${block.line}: the runnable block ${why}:\n${output.trim()}`);
      }
      resolve();
    });
  });
}

// ---- the run ---------------------------------------------------------------------------------

const work = mkdtempSync(join(tmpdir(), 'agentwire-packed-'));
const project = join(work, 'project');
mkdirSync(project);
try {
  const started = Date.now();
  const blocks = markdownFiles().flatMap((file) => typescriptBlocks(file, readFileSync(file, 'utf8')));
  const tarballs = packAll(work);
  installProject(project, tarballs);
  const compiled = blocks;
  compile(project, compiled);
  const runnable = compiled.filter((b) => b.mark.startsWith('run'));
  let redis;
  try {
    if (runnable.some((b) => b.mark === 'run with redis')) redis = await startRedis();
    for (const block of runnable) {
      const env = { PORT: String(await freePort()) };
      await runBlock(
        project,
        block,
        block.mark === 'run with redis' ? { ...env, REDIS_URL: redis.url } : env,
      );
    }
  } finally {
    redis?.stop();
  }
  const fragments = blocks.filter((b) => b.mark === 'fragment');
  console.log(
    `check:packed: ${tarballs.size} tarballs installed into a fresh project; ${blocks.length} TypeScript blocks in ` +
      `${new Set(blocks.map((b) => b.file)).size} files compiled (${fragments.length} of them fragments, which may use ` +
      `names they do not define), ${runnable.length} run; ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
} finally {
  if (keep) console.log(`check:packed: the project is kept at ${project}`);
  else rmSync(work, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.error(`check:packed: ${failures.length} problem(s):\n${failures.map((f) => `  ${f}`).join('\n')}`);
  process.exit(1);
}
