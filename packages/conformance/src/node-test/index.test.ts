import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const packageDir = join(import.meta.dirname, '..', '..');
const workDir = mkdtempSync(join(tmpdir(), 'conformance-node-test-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

// A test file for the real node:test runner, loaded through tsx so it can import the TypeScript sources.
const testFile = `
import { after, describe, it } from 'node:test';
import { assertEqual } from ${JSON.stringify(pathToFileURL(join(packageDir, 'src/assert.ts')).href)};
import { registerSuite } from ${JSON.stringify(pathToFileURL(join(packageDir, 'src/node-test/index.ts')).href)};

const demoCase = (id, run, requires) => ({ id, title: id, section: '§1', level: 'required', since: '1.0.0', run, requires });
registerSuite(
  {
    name: 'node-demo',
    version: '1.0.0',
    description: 'runs under node:test',
    cases: [
      demoCase('demo.pass', () => assertEqual(2, 2)),
      demoCase('demo.fail', () => assertEqual(2, 3)),
      demoCase('demo.needs-missing', () => assertEqual(2, 3), 'missing'),
      demoCase('demo.known-gap', () => assertEqual('a', 'b')),
      demoCase('demo.fixed-gap', () => undefined),
    ],
    setup: () => ({ ctx: null, dispose: () => console.log('DISPOSED node-demo') }),
  },
  { describe, it, after },
  { expectedFailures: ['demo.known-gap', 'demo.fixed-gap'] },
);
`;

describe('registerSuite for node:test', () => {
  it('runs under the real node:test runner with skips, inverted expected failures and after-hook dispose', () => {
    const file = join(workDir, 'demo.test.ts');
    writeFileSync(file, testFile);
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', file], {
      cwd: packageDir,
      encoding: 'utf8',
      timeout: 60_000,
    });
    const tap = run.stdout;
    const status = (name: string) => {
      const line = tap.split('\n').find((l) => new RegExp(`^\\s*(not )?ok \\d+ - ${name}:`).test(l));
      if (line === undefined) return 'missing';
      if (line.includes('# SKIP')) return 'skipped';
      return line.trim().startsWith('not ok') ? 'failed' : 'passed';
    };
    expect({
      pass: status('demo.pass'),
      fail: status('demo.fail'),
      needsMissing: status('demo.needs-missing'),
      knownGap: status('demo.known-gap'),
      fixedGap: status('demo.fixed-gap'),
    }).toEqual({
      pass: 'passed',
      fail: 'failed',
      needsMissing: 'skipped',
      knownGap: 'passed',
      fixedGap: 'failed',
    });
    expect(tap).toContain('node-demo v1.0.0');
    expect(tap).toContain('is listed in expectedFailures but passed');
    expect(tap).toContain('DISPOSED node-demo');
    expect(run.status).toBe(1);
  });
});
