import { describe, expect, it } from 'vitest';
import { formatReportTable, formatVerdict } from './format-report.js';
import type { SuiteReport } from './run-suite.js';

const base = { startedAt: '2026-01-01T00:00:00.000Z', errors: [] } as const;

const passingReport: SuiteReport = {
  ...base,
  suite: 'hearthnet.hashing',
  version: '1.0.0',
  durationMs: 41.4,
  counts: { passed: 53, failed: 0, skipped: 2, unobserved: 0, expectedFailures: 0, stale: 0 },
  ok: true,
  results: [],
};

const failingReport: SuiteReport = {
  ...base,
  suite: 'demo',
  version: '2.1.0',
  durationMs: 1520,
  counts: { passed: 1, failed: 1, skipped: 0, unobserved: 0, expectedFailures: 1, stale: 1 },
  ok: false,
  results: [
    { id: 'demo.ok', title: 't', section: '§1', level: 'required', status: 'passed', durationMs: 1 },
    {
      id: 'demo.bad',
      title: 't',
      section: '§2',
      level: 'recommended',
      status: 'failed',
      durationMs: 1,
      error: { name: 'ConformanceError', code: 'assertion_failed', message: 'expected 1, got 2' },
    },
    {
      id: 'demo.gap',
      title: 't',
      section: '§3',
      level: 'required',
      status: 'expected-failure',
      durationMs: 1,
    },
    {
      id: 'demo.fixed',
      title: 't',
      section: '§4',
      level: 'required',
      status: 'stale',
      durationMs: 1,
      error: { name: 'ConformanceError', code: 'stale_expected_failure', message: 'remove it' },
    },
  ],
  errors: [{ name: 'ConformanceError', code: 'unknown_expected_failure', message: 'no case demo.typo' }],
};

describe('formatReportTable', () => {
  it('prints one aligned row per suite', () => {
    expect(formatReportTable([passingReport])).toBe(
      [
        'Suite              Version  Passed  Failed  Skipped  Unobserved  Expected  Stale  Duration',
        'hearthnet.hashing  1.0.0        53       0        2           0         0      0     41 ms',
        '',
        'Verdict: passed',
      ].join('\n'),
    );
  });

  it('adds a total row for several suites and lists failures, stale entries and run errors', () => {
    expect(formatReportTable([passingReport, failingReport])).toBe(
      [
        'Suite              Version  Passed  Failed  Skipped  Unobserved  Expected  Stale  Duration',
        'hearthnet.hashing  1.0.0        53       0        2           0         0      0     41 ms',
        'demo               2.1.0         1       1        0           0         1      1    1.52 s',
        'Total                           54       1        2           0         1      1    1.56 s',
        '',
        'ERROR      demo: ConformanceError: no case demo.typo',
        'FAIL       demo.bad (§2, recommended): ConformanceError: expected 1, got 2',
        'STALE      demo.fixed (§4, required): ConformanceError: remove it',
        '',
        'Verdict: FAILED (1 failed, 1 stale, 1 run error)',
      ].join('\n'),
    );
  });

  it('lists the skipped cases of each suite by reason', () => {
    const skipped = (id: string, reason?: string) => ({
      id,
      title: 't',
      section: '§1',
      level: 'required' as const,
      status: 'skipped' as const,
      durationMs: 0,
      ...(reason === undefined ? {} : { reason }),
    });
    const report: SuiteReport = {
      ...passingReport,
      subject: 'agentwire',
      counts: { ...passingReport.counts, skipped: 7 },
      results: [
        ...['a', 'b', 'c', 'd', 'e'].map((id) => skipped(`h.${id}`, 'needs "stream"')),
        skipped('h.f', 'needs "blobs"'),
        skipped('h.g'),
      ],
    };
    expect(formatReportTable([report]).split('\n').slice(2)).toEqual([
      '',
      'SKIP       hearthnet.hashing (agentwire): needs "stream" — h.a, h.b, h.c, h.d and 1 more',
      'SKIP       hearthnet.hashing (agentwire): needs "blobs" — h.f',
      'SKIP       hearthnet.hashing (agentwire): no reason given — h.g',
      '',
      'Verdict: passed',
    ]);
  });

  it('names the subject on failed and stale lines, so a row of several implementations is found', () => {
    const report: SuiteReport = { ...failingReport, subject: 'my connector', errors: [] };
    expect(
      formatReportTable([report])
        .split('\n')
        .filter((line) => /^(FAIL|STALE)/.test(line)),
    ).toEqual([
      'FAIL       demo.bad on my connector (§2, recommended): ConformanceError: expected 1, got 2',
      'STALE      demo.fixed on my connector (§4, required): ConformanceError: remove it',
    ]);
  });

  it('reports unobserved cases apart from skipped ones, and says in the verdict that the run was reduced', () => {
    const unobserved = (id: string) => ({
      id,
      title: 't',
      section: '§1',
      level: 'required' as const,
      status: 'unobserved' as const,
      durationMs: 0,
      reason: 'the implementation lacks capability "observe": provide an observe()',
    });
    const report: SuiteReport = {
      ...passingReport,
      subject: 'webhook',
      counts: { ...passingReport.counts, skipped: 0, unobserved: 2 },
      results: [unobserved('c.one'), unobserved('c.two')],
    };
    expect(formatReportTable([report]).split('\n').slice(1)).toEqual([
      'hearthnet.hashing (webhook)  1.0.0        53       0        0           2         0      0     41 ms',
      '',
      'UNOBSERVED hearthnet.hashing (webhook): the implementation lacks capability "observe": provide an observe() — c.one, c.two',
      '',
      'Verdict: passed (unobserved: 2 cases not run)',
    ]);
    expect(formatVerdict([{ ...report, ok: false }])).toBe(
      'FAILED (unobserved: 2 cases not run; a full run was required)',
    );
    expect(formatVerdict([{ ...report, counts: { ...report.counts, unobserved: 1 } }])).toBe(
      'passed (unobserved: 1 case not run)',
    );
  });

  it('prints just the header for no reports', () => {
    expect(formatReportTable([])).toBe(
      'Suite  Version  Passed  Failed  Skipped  Unobserved  Expected  Stale  Duration',
    );
  });
});
