import { describe, expect, it } from 'vitest';
import { bundledSuites } from './bundled-suites.js';
import { memoryIo, oneCaseSuite } from './cli-io.test-support.js';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, runCli } from './run-cli.js';

describe('runCli', () => {
  it('runs every bundled suite against the bundled implementations and exits 0', async () => {
    const { io, out } = memoryIo();
    expect(await runCli([], io)).toBe(EXIT_OK);
    const table = out.join('\n');
    for (const entry of bundledSuites()) {
      expect(table).toContain(
        'suite' in entry ? `${entry.suite.name} (${entry.subject})` : `(${entry.subject})`,
      );
    }
    for (const suite of [
      'relay-runtime.bus',
      'relay-runtime.buffer',
      'relay-runtime.vault',
      'relay.live',
      'relay.edge-live',
    ]) {
      expect(table).toMatch(new RegExp(`^${suite.replace('.', '\\.')} \\(agentwire [^)]*\\)  `, 'm'));
    }
    expect(table).not.toMatch(/^(FAIL|STALE|ERROR) /m);
  });

  it('prints the table, writes the JSON reports and exits 1 when a suite fails', async () => {
    const { io, out, files } = memoryIo();
    const status = await runCli(['--json', 'out/report.json'], io, [
      oneCaseSuite('good', true),
      oneCaseSuite('bad', false),
    ]);
    expect(status).toBe(EXIT_FAILED);
    expect(out.join('\n')).toContain('FAIL       bad.only');
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
    expect(bad.err.join('\n')).toMatch(/unknown option --target[\s\S]*Usage:\n {2}agentwire-conformance/);
    expect(bad.out).toEqual([]);
    const help = memoryIo();
    expect(await runCli(['--help'], help.io, [oneCaseSuite('never-run', false)])).toBe(EXIT_OK);
    expect(help.out.join('\n')).toContain('--json FILE');
  });

  it('honours an expected-failures baseline: a listed failure passes, a listed pass goes stale', async () => {
    const suites = [oneCaseSuite('good', true), oneCaseSuite('bad', false)];
    const known = memoryIo({ 'known.txt': '# known gaps\nbad.only   # tracked elsewhere\n\n' });
    expect(await runCli(['--expected-failures', 'known.txt'], known.io, suites)).toBe(EXIT_OK);
    const stale = memoryIo({ 'known.txt': 'good.only\nbad.only\n' });
    expect(await runCli(['--expected-failures', 'known.txt'], stale.io, suites)).toBe(EXIT_FAILED);
    expect(stale.out.join('\n')).toContain('STALE      good.only');
  });

  it('refuses a baseline naming unknown cases, or one it cannot read, as a usage error', async () => {
    const typo = memoryIo({ 'known.txt': 'bad.onyl\n' });
    expect(await runCli(['--expected-failures', 'known.txt'], typo.io, [oneCaseSuite('bad', false)])).toBe(
      EXIT_USAGE,
    );
    expect(typo.err.join('\n')).toContain('known.txt names cases that no suite to run has: bad.onyl');
    const missing = memoryIo();
    expect(await runCli(['--expected-failures', 'nope.txt'], missing.io, [])).toBe(EXIT_USAGE);
    expect(missing.err.join('\n')).toContain('cannot read --expected-failures nope.txt');
  });

  it('writes plain progress lines to the progress stream and leaves stdout uncoloured', async () => {
    const { io, out, progress } = memoryIo();
    await runCli([], io, [oneCaseSuite('good', true), oneCaseSuite('bad', false)]);
    expect(progress.join('')).toMatch(
      /^running good \(1 cases\)\nok good: 1 passed \(\d+ ms\)\nrunning bad \(1 cases\)\nFAILED bad: 0 passed, 1 failed \(\d+ ms\)\n$/,
    );
    expect(out.join('\n')).not.toContain('\u001b[');
    const coloured = memoryIo();
    await runCli([], { ...coloured.io, colour: true }, [oneCaseSuite('bad', false)]);
    expect(coloured.out.join('\n')).toContain('\u001b[31mFAIL\u001b[0m       bad.only');
  });
});
