import { describe, expect, it } from 'vitest';
import { assertEqual } from '../assert.js';
import type { ConformanceSuite } from '../suite.js';
import { bundledSuites } from './bundled-suites.js';
import { type CliIo, EXIT_FAILED, EXIT_OK, EXIT_USAGE, runCli } from './run-cli.js';

function memoryIo() {
  const out: string[] = [];
  const err: string[] = [];
  const files = new Map<string, string>();
  const io: CliIo = {
    stdout: (text) => void out.push(text),
    stderr: (text) => void err.push(text),
    writeFile: async (path, text) => void files.set(path, text),
  };
  return { io, out, err, files };
}

function oneCaseSuite(name: string, passes: boolean): ConformanceSuite<unknown> {
  return {
    name,
    version: '1.0.0',
    description: name,
    cases: [
      {
        id: `${name}.only`,
        title: 'only',
        section: '§1',
        level: 'required',
        since: '1.0.0',
        run: () => assertEqual(passes, true),
      },
    ],
    setup: () => ({ ctx: null }),
  };
}

describe('runCli', () => {
  it('runs every bundled suite against the bundled implementations and exits 0', async () => {
    const { io, out } = memoryIo();
    expect(await runCli([], io)).toBe(EXIT_OK);
    const table = out.join('\n');
    for (const { suite, subject } of bundledSuites()) expect(table).toContain(`${suite.name} (${subject})`);
    expect(table).not.toMatch(/^(FAIL|STALE|ERROR) /m);
  });

  it('prints the table, writes the JSON reports and exits 1 when a suite fails', async () => {
    const { io, out, files } = memoryIo();
    const status = await runCli(['--json', 'out/report.json'], io, [
      oneCaseSuite('good', true),
      oneCaseSuite('bad', false),
    ]);
    expect(status).toBe(EXIT_FAILED);
    expect(out.join('\n')).toContain('FAIL   bad.only');
    const written = JSON.parse(files.get('out/report.json')!);
    expect(written.ok).toBe(false);
    expect(written.reports.map((r: { suite: string; ok: boolean }) => [r.suite, r.ok])).toEqual([
      ['good', true],
      ['bad', false],
    ]);
  });

  it('exits 2 with the usage on stderr for an unknown flag, and prints usage for --help', async () => {
    const bad = memoryIo();
    expect(await runCli(['--target', 'x'], bad.io, [])).toBe(EXIT_USAGE);
    expect(bad.err.join('\n')).toMatch(/unknown option --target[\s\S]*Usage: agentwire-conformance/);
    expect(bad.out).toEqual([]);
    const help = memoryIo();
    expect(await runCli(['--help'], help.io, [oneCaseSuite('never-run', false)])).toBe(EXIT_OK);
    expect(help.out.join('\n')).toContain('--json FILE');
  });
});
