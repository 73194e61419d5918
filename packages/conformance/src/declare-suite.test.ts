import { describe, expect, it, vi } from 'vitest';
import { assertEqual } from './assert.js';
import { declareSuite, type TestDeclarer } from './run-suite.js';
import type { ConformanceCase, ConformanceSuite } from './suite.js';

type Outcome = { name: string; result: 'passed' | 'failed' | 'skipped'; detail?: string };

/** A stand-in runner that records declarations and then runs the tests in order, as a runner would. */
function recordingRunner(withAfterAll: boolean) {
  const groups: string[] = [];
  const tests: { name: string; body: (skip: (reason: string) => void) => Promise<void> }[] = [];
  const afterAlls: (() => Promise<void>)[] = [];
  const declarer: TestDeclarer = {
    group: (name, body) => {
      groups.push(name);
      body();
    },
    test: (name, body) => void tests.push({ name, body }),
    afterAll: withAfterAll ? (body) => void afterAlls.push(body) : undefined,
  };
  const run = async (): Promise<Outcome[]> => {
    const outcomes: Outcome[] = [];
    for (const { name, body } of tests) {
      let skipped: string | undefined;
      try {
        await body((reason) => {
          skipped = reason;
        });
        outcomes.push(
          skipped === undefined ? { name, result: 'passed' } : { name, result: 'skipped', detail: skipped },
        );
      } catch (error) {
        outcomes.push({
          name,
          result: 'failed',
          detail: (error as { code?: string }).code ?? (error as Error).name,
        });
      }
    }
    for (const hook of afterAlls) await hook();
    return outcomes;
  };
  return { declarer, groups, tests, run };
}

function fakeCase(id: string, run: () => void, requires?: string): ConformanceCase<null> {
  return {
    id,
    title: id,
    section: '§1',
    level: 'required',
    since: '1.0.0',
    run,
    ...(requires ? { requires } : {}),
  };
}

const cases = [
  fakeCase('demo.pass', () => assertEqual(1, 1)),
  fakeCase('demo.fail', () => assertEqual(1, 2)),
  fakeCase('demo.needs-x', () => undefined, 'x'),
  fakeCase('demo.known-gap', () => assertEqual('a', 'b')),
  fakeCase('demo.fixed-gap', () => undefined),
];

function demoSuite(setup: ConformanceSuite<null>['setup']): ConformanceSuite<null> {
  return { name: 'demo', version: '2.0.0', description: 'demo', cases, setup };
}

describe('declareSuite', () => {
  it('declares one group and one test per case, inverting expected failures and skipping by capability', async () => {
    const dispose = vi.fn();
    const setup = vi.fn(() => ({ ctx: null, dispose }));
    const runner = recordingRunner(true);
    declareSuite(demoSuite(setup), runner.declarer, {
      expectedFailures: ['demo.known-gap', 'demo.fixed-gap'],
    });
    expect(runner.groups).toEqual(['demo v2.0.0']);
    expect(setup).not.toHaveBeenCalled();
    expect(await runner.run()).toEqual([
      { name: 'demo.pass: demo.pass', result: 'passed' },
      { name: 'demo.fail: demo.fail', result: 'failed', detail: 'assertion_failed' },
      { name: 'demo.needs-x: demo.needs-x', result: 'skipped', detail: expect.stringContaining('"x"') },
      { name: 'demo.known-gap: demo.known-gap', result: 'passed' },
      { name: 'demo.fixed-gap: demo.fixed-gap', result: 'failed', detail: 'stale_expected_failure' },
    ]);
    expect(setup).toHaveBeenCalledOnce();
    expect(dispose).toHaveBeenCalledOnce();
  });

  it('skips an unobserved case with a reason saying so, and fails it when a full run is required', async () => {
    const suite: ConformanceSuite<null> = {
      ...demoSuite(() => ({ ctx: null })),
      cases: [fakeCase('demo.observed', () => undefined, 'watch')],
      needs: { watch: { provide: 'a watch() hook', observation: true } },
    };
    const reduced = recordingRunner(true);
    declareSuite(suite, reduced.declarer);
    expect(await reduced.run()).toEqual([
      {
        name: 'demo.observed: demo.observed',
        result: 'skipped',
        detail: 'unobserved: the implementation lacks capability "watch": provide a watch() hook',
      },
    ]);
    const full = recordingRunner(true);
    declareSuite(suite, full.declarer, { requireFull: true });
    expect(await full.run()).toEqual([
      { name: 'demo.observed: demo.observed', result: 'failed', detail: 'unobserved_case' },
    ]);
  });

  it('disposes after the last case when the runner gives no afterAll hook', async () => {
    const dispose = vi.fn();
    const runner = recordingRunner(false);
    declareSuite(
      demoSuite(() => ({ ctx: null, dispose })),
      runner.declarer,
    );
    const last = runner.tests.at(-1)!;
    runner.tests.splice(-1);
    await runner.run();
    expect(dispose).not.toHaveBeenCalled();
    await last.body(() => undefined);
    expect(dispose).toHaveBeenCalledOnce();
  });

  it('declares one failing test for unknown expected-failure ids', async () => {
    const runner = recordingRunner(true);
    declareSuite(
      demoSuite(() => ({ ctx: null })),
      runner.declarer,
      {
        expectedFailures: ['demo.nope'],
        filter: (c) => c.id === 'demo.pass',
      },
    );
    expect(await runner.run()).toEqual([
      {
        name: 'expectedFailures names only cases of this suite',
        result: 'failed',
        detail: 'unknown_expected_failure',
      },
      { name: 'demo.pass: demo.pass', result: 'passed' },
    ]);
  });

  it('fails every test with the setup error when setup throws', async () => {
    const runner = recordingRunner(true);
    declareSuite(
      demoSuite(() => Promise.reject(new Error('down'))),
      runner.declarer,
      { filter: (c) => c.id !== 'demo.needs-x' },
    );
    const outcomes = await runner.run();
    expect(outcomes.map((o) => o.detail)).toEqual(Array(4).fill('suite_setup_failed'));
  });

  it('throws at declaration for duplicate case ids', () => {
    const suite: ConformanceSuite<null> = {
      ...demoSuite(() => ({ ctx: null })),
      cases: [cases[0]!, cases[0]!],
    };
    expect(() => declareSuite(suite, recordingRunner(true).declarer)).toThrow(
      expect.objectContaining({ code: 'duplicate_case_id' }),
    );
  });
});
