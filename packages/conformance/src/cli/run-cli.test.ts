import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requiredCapabilities } from '../run-suite.js';
import { SUBJECT_KEYS } from '../subjects/subject-suites.js';
import type { ConformanceSuite } from '../suite.js';
import { bundledSuites } from './bundled-suites.js';
import { memoryIo, oneCaseSuite } from './cli-io.test-support.js';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, runCli, whyNotWritable } from './run-cli.js';

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
    // relay.live alone takes about 30 s: its flow cases wait out a stalled reader's drain timeout.
  }, 120_000);

  it('says, for every capability a bundled suite can skip a case for, what the implementer provides', () => {
    const unexplained: string[] = [];
    for (const entry of bundledSuites()) {
      if (!('suite' in entry)) continue;
      const { suite } = entry;
      for (const capability of new Set(suite.cases.flatMap(requiredCapabilities))) {
        const need = suite.needs?.[capability];
        if (need === undefined || need.provide.trim() === '')
          unexplained.push(`${suite.name}: ${capability}`);
      }
    }
    expect(unexplained).toEqual([]);
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

  it('exits 2 with one line and a hint on stderr for an unknown flag, and prints usage for --help', async () => {
    const bad = memoryIo();
    expect(await runCli(['--target', 'x'], bad.io, [])).toBe(EXIT_USAGE);
    expect(bad.err).toEqual([
      'agentwire-conformance: unknown option --target\nRun agentwire-conformance --help for usage.',
    ]);
    expect(bad.out).toEqual([]);
    const help = memoryIo();
    expect(await runCli(['--help'], help.io, [oneCaseSuite('never-run', false)])).toBe(EXIT_OK);
    expect(help.out.join('\n')).toContain('--json FILE');
    // Every key a --subjects module may use is listed.
    for (const key of SUBJECT_KEYS) expect(help.out.join('\n')).toContain(key);
  });

  it('prints the package version for --version and runs nothing', async () => {
    const { io, out } = memoryIo();
    expect(await runCli(['--version'], io, [oneCaseSuite('never-run', false)])).toBe(EXIT_OK);
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(out).toEqual([manifest.version]);
  });

  it('refuses a --json file it could not write, before running anything', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'agentwire-cli-json-'));
    try {
      const ran: string[] = [];
      const suite = {
        ...oneCaseSuite('never-run', true),
        setup: () => {
          ran.push('setup');
          return { ctx: null };
        },
      };
      const { io, err } = memoryIo();
      const checked = { ...io, cannotWrite: whyNotWritable };
      const missing = join(folder, 'no-such-folder', 'report.json');
      expect(await runCli(['--json', missing], checked, [suite])).toBe(EXIT_USAGE);
      expect(err.join('\n')).toContain(
        `cannot write --json ${missing}: the folder ${join(folder, 'no-such-folder')} does not exist`,
      );
      expect(await runCli(['--json', folder], checked, [suite])).toBe(EXIT_USAGE);
      expect(err.join('\n')).toContain(`${folder} is a folder`);
      expect(ran).toEqual([]);
      expect(await whyNotWritable(join(folder, 'report.json'))).toBeUndefined();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('runs only the rows --only selects, by suite, suite prefix or subject, and refuses a name that selects none', async () => {
    const rows = [
      { suite: oneCaseSuite('relay.live', true), subject: 'connector A' },
      { suite: oneCaseSuite('relay.edge-live', true), subject: 'connector A' },
      { suite: oneCaseSuite('agent-connector.contract', true), subject: 'webhook' },
      { suite: oneCaseSuite('agent-connector.contract', false), subject: 'tmux' },
    ];
    const ran = async (...only: string[]) => {
      const { io, out } = memoryIo();
      const status = await runCli(
        only.flatMap((name) => ['--only', name]),
        io,
        rows,
      );
      const table = out.join('\n');
      return { status, rows: rows.filter((r) => table.includes(`${r.suite.name} (${r.subject})`)).length };
    };
    expect(await ran('relay.live')).toEqual({ status: EXIT_OK, rows: 1 });
    expect(await ran('relay')).toEqual({ status: EXIT_OK, rows: 2 });
    expect(await ran('webhook')).toEqual({ status: EXIT_OK, rows: 1 });
    expect(await ran('agent-connector')).toEqual({ status: EXIT_FAILED, rows: 2 });
    expect(await ran('relay.live', 'tmux')).toEqual({ status: EXIT_FAILED, rows: 2 });
    const typo = memoryIo();
    expect(await runCli(['--only', 'relay.liv'], typo.io, rows)).toBe(EXIT_USAGE);
    expect(typo.err.join('\n')).toContain(
      '--only relay.liv selects no suite or subject to run (suites: relay.live,',
    );
  });

  it('fails a run with unobserved cases only with --require-full, and says so in the verdict', async () => {
    const observed: ConformanceSuite<unknown> = {
      ...oneCaseSuite('observed', true),
      cases: oneCaseSuite('observed', true).cases.map((c) => ({ ...c, requires: 'watch' })),
      needs: { watch: { provide: 'a watch() hook', observation: true } },
    };
    const reduced = memoryIo();
    expect(await runCli([], reduced.io, [observed])).toBe(EXIT_OK);
    expect(reduced.out.join('\n')).toContain('Verdict: passed (unobserved: 1 case not run)');
    expect(reduced.progress.join('')).toContain('ok observed: 0 passed, (unobserved: 1 case not run)');
    const full = memoryIo();
    expect(await runCli(['--require-full'], full.io, [observed])).toBe(EXIT_FAILED);
    expect(full.out.join('\n')).toContain(
      'Verdict: FAILED (unobserved: 1 case not run; a full run was required)',
    );
  });

  it('honours an expected-failures baseline: a listed failure passes, a listed pass goes stale', async () => {
    const suites = [oneCaseSuite('good', true), oneCaseSuite('bad', false)];
    const known = memoryIo({ 'known.txt': '# known gaps\nbad.only   # tracked elsewhere\n\n' });
    expect(await runCli(['--expected-failures', 'known.txt'], known.io, suites)).toBe(EXIT_OK);
    const stale = memoryIo({ 'known.txt': 'good.only\nbad.only\n' });
    expect(await runCli(['--expected-failures', 'known.txt'], stale.io, suites)).toBe(EXIT_FAILED);
    expect(stale.out.join('\n')).toContain('STALE      good.only');
  });

  it('keys a baseline entry to one subject with CASE_ID @ SUBJECT, leaving the other rows of the case alone', async () => {
    const rows = [
      { suite: oneCaseSuite('contract', true), subject: 'bundled' },
      { suite: oneCaseSuite('contract', false), subject: 'mine, on a file' },
    ];
    const keyed = memoryIo({ 'known.txt': 'contract.only @ mine, on a file   # tracked in #42\n' });
    expect(await runCli(['--expected-failures', 'known.txt'], keyed.io, rows)).toBe(EXIT_OK);
    // Listed for every row, the passing bundled row goes stale: that is what the subject key avoids.
    const unkeyed = memoryIo({ 'known.txt': 'contract.only\n' });
    expect(await runCli(['--expected-failures', 'known.txt'], unkeyed.io, rows)).toBe(EXIT_FAILED);
    expect(unkeyed.out.join('\n')).toContain('STALE      contract.only on bundled');
    const typo = memoryIo({ 'known.txt': 'contract.only @ mine\n' });
    expect(await runCli(['--expected-failures', 'known.txt'], typo.io, rows)).toBe(EXIT_USAGE);
    expect(typo.err.join('\n')).toContain('contract.only @ mine (no row runs under that subject)');
  });

  it('refuses a baseline naming unknown cases, or one it cannot read, as a usage error', async () => {
    const typo = memoryIo({ 'known.txt': 'bad.onyl\n' });
    expect(await runCli(['--expected-failures', 'known.txt'], typo.io, [oneCaseSuite('bad', false)])).toBe(
      EXIT_USAGE,
    );
    expect(typo.err.join('\n')).toContain('known.txt names cases that no row to run has: bad.onyl');
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
