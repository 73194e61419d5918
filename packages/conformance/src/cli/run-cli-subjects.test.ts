import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runSuite } from '../run-suite.js';
import { subjectSuites } from '../subjects/subject-suites.js';
import type { LiveSubject } from './bundled-suites.js';
import { memoryIo, oneCaseSuite } from './cli-io.test-support.js';
import { describeImportFailure, EXIT_FAILED, EXIT_OK, EXIT_USAGE, loadSubjects, runCli } from './run-cli.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agentwire-subjects-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes `source` as an ES module into a fresh temp folder; resolves with its path. */
async function subjectsModule(source: string, name = 'subjects.mjs'): Promise<string> {
  const path = join(await tempDir(), name);
  await writeFile(path, source, 'utf8');
  return path;
}

const relaySource = pathToFileURL(
  join(import.meta.dirname, '..', '..', '..', 'relay', 'src', 'testing', 'index.ts'),
).href;

/**
 * An inbound buffer that hands out the same id for every entry and never finds one again; each
 * buffer has a folder under `root` that its `close()` removes, and each `create` is logged in
 * `root/created.log`.
 */
function brokenBufferModule(root: string): string {
  return `
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
const root = ${JSON.stringify(root)};
function create() {
  const dir = mkdtempSync(join(root, 'buffer-'));
  appendFileSync(join(root, 'created.log'), dir + '\\n');
  return {
    append: async () => 'same-id',
    read: async () => [],
    ack: async () => false,
    size: async () => 0,
    close: async () => rmSync(dir, { recursive: true, force: true }),
  };
}
export default { inboundBuffers: [{ name: 'forgetful buffer', create }] };
`;
}

/** A live subject that records its starts and stops; `fails` picks what goes wrong. */
function recordedSubject(
  subject: string,
  log: string[],
  fails: { readonly start?: boolean; readonly stop?: boolean; readonly suite?: boolean } = {},
): LiveSubject {
  return {
    subject,
    start: async () => {
      log.push(`start ${subject}`);
      if (fails.start === true) throw new Error('port in use');
      return {
        suites: [oneCaseSuite(`${subject}-suite`, fails.suite !== true)],
        stop: async () => {
          log.push(`stop ${subject}`);
          if (fails.stop === true) throw new Error('socket stuck');
        },
      };
    },
  };
}

describe('runCli --subjects', () => {
  it('adds a row per implementation the module describes, after the bundled ones', async () => {
    const path = await subjectsModule(`
import { InMemoryInboundBuffer, InMemoryRelayBus } from ${JSON.stringify(relaySource)};
export default {
  inboundBuffers: [{ name: 'buffer from a module', create: () => new InMemoryInboundBuffer() }],
  relayBuses: [{ name: 'bus from a module', create: () => new InMemoryRelayBus({ onListenerError: () => {} }) }],
};
`);
    const { io, out } = memoryIo();
    expect(await runCli(['--subjects', path], io, [oneCaseSuite('bundled', true)])).toBe(EXIT_OK);
    const rows = out
      .join('\n')
      .split('\n')
      .map((line) => line.split(/\s{2,}/)[0]);
    expect(rows.slice(1, 4)).toEqual([
      'bundled',
      'relay-runtime.bus (bus from a module)',
      'relay-runtime.buffer (buffer from a module)',
    ]);
  });

  it('exits 1 for an implementation that fails cases, and its resources are released', async () => {
    const root = await tempDir();
    const path = await subjectsModule(brokenBufferModule(root));
    const { io, out, files } = memoryIo();
    expect(await runCli(['--json', 'r.json', '--subjects', path], io, [])).toBe(EXIT_FAILED);
    expect(out.join('\n')).toMatch(/^relay-runtime\.buffer \(forgetful buffer\) .*$/m);
    expect(out.join('\n')).toMatch(/^FAIL {7}relay-runtime\.buffer\.[\w.-]+ on forgetful buffer /m);
    expect(JSON.parse(files.get('r.json')!).reports[0].subject).toBe('forgetful buffer');
    const created = (await readFile(join(root, 'created.log'), 'utf8')).trim().split('\n');
    expect(created.length).toBeGreaterThan(0);
    expect(await readdir(root)).toEqual(['created.log']);
  });

  it('finds the module by a path relative to the working directory, with or without ./, or as a package', async () => {
    const cwd = await tempDir();
    const source = `export default { inboundBuffers: [{ name: 'b', create: () => ({}) }] };`;
    await writeFile(join(cwd, 'local.mjs'), source, 'utf8');
    await mkdir(join(cwd, 'node_modules', 'my-subjects'), { recursive: true });
    await writeFile(
      join(cwd, 'node_modules', 'my-subjects', 'package.json'),
      JSON.stringify({ name: 'my-subjects', type: 'module', exports: './index.mjs' }),
    );
    await writeFile(join(cwd, 'node_modules', 'my-subjects', 'index.mjs'), source, 'utf8');
    for (const specifier of ['./local.mjs', 'local.mjs', join(cwd, 'local.mjs'), 'my-subjects']) {
      const rows = await loadSubjects(specifier, cwd);
      expect(rows.map((r) => [r.suite.name, r.subject])).toEqual([['relay-runtime.buffer', 'b']]);
    }
  });

  it('runs platformAdapters entries, which need Node and which the runtime-neutral subjectSuites refuses', async () => {
    const chat = pathToFileURL(
      join(import.meta.dirname, '..', 'suites', 'relay-platform', 'in-memory-chat-platform.ts'),
    ).href;
    const path = await subjectsModule(
      `import { inMemoryChatUnderTest } from '${chat}';\nexport default { platformAdapters: [{ name: 'chat', create: inMemoryChatUnderTest }] };`,
    );
    const rows = await loadSubjects(path);
    expect(rows.map((r) => [r.suite.name, r.subject])).toEqual([['relay.platform-adapter', 'chat']]);
    const report = await runSuite(rows[0]!.suite, { subject: 'chat' });
    expect(report.ok).toBe(true);
    expect(() => subjectSuites({ platformAdapters: [{ name: 'chat', create: () => ({}) }] })).toThrow(
      /platformAdapters run in Node: check them with the agentwire-conformance CLI, or build platformAdapterSuite from @agentwire\/conformance\/relay-live/,
    );
  });

  it('loads a TypeScript subjects module where the process can import TypeScript (as under vitest)', async () => {
    const path = await subjectsModule(
      `const create = (): object => ({});\nexport default { inboundBuffers: [{ name: 'typed', create }] };`,
      'subjects.ts',
    );
    const rows = await loadSubjects(path);
    expect(rows.map((r) => r.subject)).toEqual(['typed']);
  });

  it('says what to do when Node cannot import a TypeScript subjects module by itself', () => {
    const refusal = Object.assign(new TypeError('Unknown file extension ".ts"'), {
      code: 'ERR_UNKNOWN_FILE_EXTENSION',
    });
    expect(describeImportFailure('./subjects.ts', refusal)).toMatch(
      /^cannot load --subjects \.\/subjects\.ts: Node v[\d.]+ does not run TypeScript by itself; compile it to \.js\/\.mjs, or start the CLI with a TypeScript loader, e\.g\. `node --import tsx .*cli\.js --subjects \.\/subjects\.ts`$/,
    );
    // Any other failure keeps its own message.
    expect(describeImportFailure('./s.mjs', new Error('no database here'))).toBe(
      'cannot load --subjects ./s.mjs: no database here',
    );
  });

  it.each([
    [
      'no such file',
      async () => './missing-subjects.mjs',
      /--subjects \.\/missing-subjects\.mjs: no such file \(/,
    ],
    [
      'an unknown package',
      async () => 'agentwire-no-such-subjects-package',
      /--subjects agentwire-no-such-subjects-package: no such file, and no package of that name is reachable from /,
    ],
    [
      'a module that throws',
      () => subjectsModule(`throw new Error('no database here');`),
      /cannot load --subjects .*subjects\.mjs: no database here/,
    ],
    [
      'a module without a default export',
      () => subjectsModule(`export const skillStores = [];`),
      /--subjects .*subjects\.mjs has no default export \(export default \{ skillStores: \[\{ name, create \}\], … \}\)/,
    ],
    [
      'a misspelt interface',
      () => subjectsModule(`export default { skillstores: [] };`),
      /--subjects .*subjects\.mjs names unknown interface skillstores \(known: agentConnectors, /,
    ],
    [
      'an entry without its factory',
      () => subjectsModule(`export default { relayBuses: [{ name: 'bus', factory: () => null }] };`),
      /--subjects .*subjects\.mjs: relayBuses\[0\] \(bus\) has an unknown field factory \(it takes create, /,
    ],
  ])('exits 2 with the usage for %s, before running anything', async (_, specifier, message) => {
    const { io, out, err } = memoryIo();
    const log: string[] = [];
    const status = await runCli(['--subjects', await specifier()], io, [recordedSubject('live', log)]);
    expect(status).toBe(EXIT_USAGE);
    expect(err.join('\n')).toMatch(message);
    expect(err.join('\n')).toMatch(/\nRun agentwire-conformance --help for usage\.$/);
    expect(out).toEqual([]);
    expect(log).toEqual([]);
  });
});

describe('runCli with live subjects', () => {
  it('starts each before the run and stops it after, also when its suite fails', async () => {
    const log: string[] = [];
    const { io, out } = memoryIo();
    const entries = [
      recordedSubject('a', log),
      oneCaseSuite('plain', true),
      recordedSubject('b', log, { suite: true }),
    ];
    expect(await runCli([], io, entries)).toBe(EXIT_FAILED);
    expect(log).toEqual(['start a', 'start b', 'stop b', 'stop a']);
    const table = out.join('\n');
    expect(table).toContain('a-suite (a)');
    expect(table).toContain('FAIL       b-suite.only');
  });

  it('reports a subject that does not start as a failed row and still runs and stops the others', async () => {
    const log: string[] = [];
    const { io, out } = memoryIo();
    const entries = [recordedSubject('down', log, { start: true }), recordedSubject('up', log)];
    expect(await runCli([], io, entries)).toBe(EXIT_FAILED);
    expect(log).toEqual(['start down', 'start up', 'stop up']);
    expect(out.join('\n')).toContain(
      'ERROR      live-subject.start (down): Error: down did not start: port in use',
    );
    expect(out.join('\n')).toContain('up-suite (up)');
  });

  it('fails the run when a subject does not stop, and says so on stderr', async () => {
    const log: string[] = [];
    const { io, err } = memoryIo();
    expect(await runCli([], io, [recordedSubject('stuck', log, { stop: true })])).toBe(EXIT_FAILED);
    expect(err).toEqual(['agentwire-conformance: stopping stuck failed: Error: socket stuck']);
  });

  it('stops the started subjects when the run is refused (a baseline naming unknown cases)', async () => {
    const log: string[] = [];
    const { io } = memoryIo({ 'known.txt': 'nope.only\n' });
    expect(await runCli(['--expected-failures', 'known.txt'], io, [recordedSubject('live', log)])).toBe(
      EXIT_USAGE,
    );
    expect(log).toEqual(['start live', 'stop live']);
  });

  it('takes baseline entries for the suites of a live subject', async () => {
    const log: string[] = [];
    const { io } = memoryIo({ 'known.txt': 'bad-suite.only\n' });
    const status = await runCli(['--expected-failures', 'known.txt'], io, [
      recordedSubject('bad', log, { suite: true }),
    ]);
    expect(status).toBe(EXIT_OK);
  });
});
