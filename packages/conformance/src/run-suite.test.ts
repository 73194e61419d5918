import { describe, expect, it, vi } from 'vitest';
import { assertEqual, fail } from './assert.js';
import { runSuite } from './run-suite.js';
import type { ConformanceCase, ConformanceSuite } from './suite.js';

interface Calculator {
  add(a: number, b: number): number;
}

function fakeCase(
  id: string,
  run: ConformanceCase<Calculator>['run'],
  requires?: string | readonly string[],
): ConformanceCase<Calculator> {
  return {
    id,
    title: `case ${id}`,
    section: '§9.9',
    level: 'required',
    since: '1.0.0',
    run,
    ...(requires === undefined ? {} : { requires }),
  };
}

const passing = fakeCase('calc.add.small', (calc) => assertEqual(calc.add(1, 2), 3));
const failing = fakeCase('calc.add.big', (calc) => assertEqual(calc.add(0.1, 0.2), 0.3, 'exact sum'));
const needsNegatives = fakeCase(
  'calc.add.negative',
  (calc) => assertEqual(calc.add(-1, -1), -2),
  'negatives',
);
const slow = fakeCase('calc.slow', () => new Promise<void>((resolve) => setTimeout(resolve, 500)));

function fakeSuite(
  cases: readonly ConformanceCase<Calculator>[],
  capabilities: readonly string[] = [],
  dispose?: () => void,
): ConformanceSuite<Calculator> {
  return {
    name: 'calc',
    version: '1.2.0',
    description: 'a calculator',
    cases,
    setup: async () => ({
      ctx: { add: (a, b) => a + b },
      capabilities: new Set(capabilities),
      ...(dispose ? { dispose } : {}),
    }),
  };
}

describe('runSuite', () => {
  it('reports passed and failed cases with their error', async () => {
    const report = await runSuite(fakeSuite([passing, failing]));
    expect(report.suite).toBe('calc');
    expect(report.version).toBe('1.2.0');
    expect(report.ok).toBe(false);
    expect(report.counts).toEqual({
      passed: 1,
      failed: 1,
      skipped: 0,
      unobserved: 0,
      expectedFailures: 0,
      stale: 0,
    });
    expect(report.results.map((r) => [r.id, r.status])).toEqual([
      ['calc.add.small', 'passed'],
      ['calc.add.big', 'failed'],
    ]);
    expect(report.results[1]).toMatchObject({
      title: 'case calc.add.big',
      section: '§9.9',
      level: 'required',
      error: { code: 'assertion_failed', message: expect.stringContaining('exact sum: expected') },
    });
    expect(report.results[0]).not.toHaveProperty('error');
    expect(Date.parse(report.startedAt)).not.toBeNaN();
    expect(report.durationMs).toBeGreaterThanOrEqual(0);
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  it('is ok when every case passes', async () => {
    const report = await runSuite(fakeSuite([passing]));
    expect(report.ok).toBe(true);
    expect(report.errors).toEqual([]);
  });

  it('skips a case whose capability the implementation does not declare, and runs it when it does', async () => {
    const without = await runSuite(fakeSuite([needsNegatives]));
    expect(without.results[0]).toMatchObject({
      status: 'skipped',
      reason: expect.stringContaining('negatives'),
    });
    expect(without.ok).toBe(true);
    const withIt = await runSuite(fakeSuite([needsNegatives], ['negatives']));
    expect(withIt.results[0]!.status).toBe('passed');
  });

  it('says in a skip what provides the missing capability, when the suite names it', async () => {
    const suite = { ...fakeSuite([needsNegatives]), needs: { negatives: { provide: 'a signed adder' } } };
    const report = await runSuite(suite);
    expect(report.results[0]).toMatchObject({
      status: 'skipped',
      reason: 'the implementation lacks capability "negatives": provide a signed adder',
    });
  });

  it('reports cases of a missing observation capability as unobserved, and fails them only with requireFull', async () => {
    const needs = { negatives: { provide: 'an observe() of the tape', observation: true } };
    const suite = { ...fakeSuite([passing, needsNegatives]), needs };
    const reduced = await runSuite(suite);
    expect(reduced.results.map((r) => r.status)).toEqual(['passed', 'unobserved']);
    expect(reduced.results[1]!.reason).toBe(
      'the implementation lacks capability "negatives": provide an observe() of the tape',
    );
    expect(reduced.counts).toMatchObject({ passed: 1, skipped: 0, unobserved: 1 });
    expect(reduced.ok).toBe(true);
    const required = await runSuite(suite, { requireFull: true });
    expect(required.counts.unobserved).toBe(1);
    expect(required.ok).toBe(false);
    const observed = await runSuite(
      { ...fakeSuite([passing, needsNegatives], ['negatives']), needs },
      {
        requireFull: true,
      },
    );
    expect(observed.ok).toBe(true);
    expect(observed.counts).toMatchObject({ passed: 2, unobserved: 0 });
  });

  it('runs a case requiring several capabilities only when all are declared, naming each missing one', async () => {
    const both = fakeCase('calc.add.observed-negative', (calc) => assertEqual(calc.add(-2, 1), -1), [
      'negatives',
      'tape',
    ]);
    const needs = {
      negatives: { provide: 'a signed adder' },
      tape: { provide: 'an observe() of the tape', observation: true },
    };
    const statusWith = async (capabilities: readonly string[]) => {
      const report = await runSuite({ ...fakeSuite([both], capabilities), needs });
      return report.results[0]!;
    };
    expect(await statusWith(['negatives', 'tape'])).toMatchObject({ status: 'passed' });
    // Lacking only the plain capability: skipped, and the reason names it alone.
    expect(await statusWith(['tape'])).toEqual({
      id: 'calc.add.observed-negative',
      title: 'case calc.add.observed-negative',
      section: '§9.9',
      level: 'required',
      status: 'skipped',
      durationMs: 0,
      reason: 'the implementation lacks capability "negatives": provide a signed adder',
    });
    // Lacking the observation: unobserved, whatever else it has.
    expect(await statusWith(['negatives'])).toMatchObject({
      status: 'unobserved',
      reason: 'the implementation lacks capability "tape": provide an observe() of the tape',
    });
    expect(await statusWith([])).toMatchObject({
      status: 'unobserved',
      reason:
        'the implementation lacks capability "negatives": provide a signed adder; and "tape": provide an observe() of the tape',
    });
  });

  it('turns a listed failure into an expected failure and a listed pass into a stale entry', async () => {
    const report = await runSuite(fakeSuite([passing, failing]), {
      expectedFailures: ['calc.add.big', 'calc.add.small'],
    });
    expect(report.results.map((r) => r.status)).toEqual(['stale', 'expected-failure']);
    expect(report.results[0]!.error).toMatchObject({ code: 'stale_expected_failure' });
    expect(report.results[1]!.error).toMatchObject({ code: 'assertion_failed' });
    expect(report.counts).toMatchObject({ stale: 1, expectedFailures: 1, failed: 0 });
    expect(report.ok).toBe(false);
    const onlyExpected = await runSuite(fakeSuite([passing, failing]), {
      expectedFailures: ['calc.add.big'],
    });
    expect(onlyExpected.ok).toBe(true);
  });

  it('reports expected-failure ids that no case has as a run error', async () => {
    const report = await runSuite(fakeSuite([passing]), { expectedFailures: ['calc.add.typo'] });
    expect(report.counts.passed).toBe(1);
    expect(report.ok).toBe(false);
    expect(report.errors).toEqual([
      {
        name: 'ConformanceError',
        code: 'unknown_expected_failure',
        message: expect.stringContaining('calc.add.typo'),
      },
    ]);
  });

  it('counts an id filtered out of the run as known', async () => {
    const report = await runSuite(fakeSuite([passing, failing]), {
      expectedFailures: ['calc.add.big'],
      filter: (c) => c.id === 'calc.add.small',
    });
    expect(report.results.map((r) => r.id)).toEqual(['calc.add.small']);
    expect(report.ok).toBe(true);
  });

  it('fails a case that runs past the timeout', async () => {
    const report = await runSuite(fakeSuite([slow, passing]), { timeoutMs: 20 });
    expect(report.results[0]).toMatchObject({
      status: 'failed',
      error: {
        name: 'ConformanceError',
        code: 'case_timeout',
        message: 'case calc.slow did not finish within 20 ms',
      },
    });
    expect(report.results[0]!.durationMs).toBeLessThan(400);
    expect(report.results[1]!.status).toBe('passed');
  });

  it("aborts the case's signal with the timeout error, and only a case that ran past it", async () => {
    const signals: AbortSignal[] = [];
    const waits: ConformanceCase<Calculator> = {
      ...slow,
      id: 'calc.waits',
      run: (_ctx, { signal }) => {
        signals.push(signal);
        return new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason)),
        );
      },
    };
    const quick: ConformanceCase<Calculator> = {
      ...passing,
      run: (_ctx, { signal }) => {
        signals.push(signal);
      },
    };
    const report = await runSuite(fakeSuite([waits, quick]), { timeoutMs: 20 });
    expect(report.results.map((r) => r.status)).toEqual(['failed', 'passed']);
    expect(signals[0]?.aborted).toBe(true);
    expect(signals[0]?.reason).toMatchObject({ code: 'case_timeout' });
    expect(signals[1]?.aborted).toBe(false);
  });

  it('fails every case when setup throws, and reports the setup error', async () => {
    const suite: ConformanceSuite<Calculator> = {
      ...fakeSuite([passing, needsNegatives]),
      setup: () => {
        throw new Error('no calculator here');
      },
    };
    const report = await runSuite(suite);
    expect(report.results.map((r) => r.status)).toEqual(['failed', 'failed']);
    expect(report.results[0]).toMatchObject({
      reason: 'suite setup failed',
      error: { code: 'suite_setup_failed' },
    });
    expect(report.errors[0]!.message).toContain('no calculator here');
  });

  it('disposes once after the last case, even when cases fail, and reports a failing dispose', async () => {
    const dispose = vi.fn();
    await runSuite(fakeSuite([failing, passing], [], dispose));
    expect(dispose).toHaveBeenCalledOnce();
    const report = await runSuite(
      fakeSuite([passing], [], () => {
        throw new Error('socket stuck');
      }),
    );
    expect(report.ok).toBe(false);
    expect(report.errors).toEqual([{ name: 'Error', message: 'dispose failed: socket stuck' }]);
  });

  it('calls onResult with each result in order', async () => {
    const seen: string[] = [];
    const report = await runSuite(fakeSuite([passing, needsNegatives, failing]), {
      onResult: (r) => seen.push(`${r.id}:${r.status}`),
    });
    expect(seen).toEqual(report.results.map((r) => `${r.id}:${r.status}`));
    expect(seen).toHaveLength(3);
  });

  it('summarises values thrown that are not errors', async () => {
    const throwsString = fakeCase('calc.throws-string', () => {
      throw 'plain string';
    });
    const throwsNothing = fakeCase('calc.throws-undefined', () => {
      throw undefined;
    });
    const report = await runSuite(fakeSuite([throwsString, throwsNothing]));
    expect(report.results.map((r) => r.error)).toEqual([
      { name: 'NonErrorThrown', message: 'threw "plain string"' },
      { name: 'NonErrorThrown', message: 'threw undefined' },
    ]);
  });

  it('refuses a requireFull that is not a boolean', async () => {
    await expect(
      runSuite(fakeSuite([passing]), { requireFull: 'yes' as unknown as boolean }),
    ).rejects.toMatchObject({ code: 'invalid_run_option', path: 'requireFull' });
  });

  it('rejects a suite with duplicate ids and malformed options with typed errors', async () => {
    await expect(runSuite(fakeSuite([passing, passing]))).rejects.toMatchObject({
      code: 'duplicate_case_id',
    });
    for (const timeoutMs of [0, -5, Number.NaN, 2 ** 31]) {
      await expect(runSuite(fakeSuite([passing]), { timeoutMs })).rejects.toMatchObject({
        code: 'invalid_run_option',
      });
    }
    await expect(
      runSuite(fakeSuite([passing]), { expectedFailures: 'calc.add.big' as unknown as string[] }),
    ).rejects.toMatchObject({ code: 'invalid_run_option' });
  });

  it('fails a case through fail()', async () => {
    const report = await runSuite(fakeSuite([fakeCase('calc.fail', () => fail('not supported'))]));
    expect(report.results[0]!.error).toEqual({
      name: 'ConformanceError',
      code: 'assertion_failed',
      message: 'not supported',
    });
  });
});
