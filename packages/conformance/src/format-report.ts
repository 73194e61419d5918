import type { SuiteReport } from './run-suite.js';

const HEADERS = [
  'Suite',
  'Version',
  'Passed',
  'Failed',
  'Skipped',
  'Unobserved',
  'Expected',
  'Stale',
  'Duration',
] as const;
// Columns after the first two hold numbers and are right-aligned.
const FIRST_NUMERIC_COLUMN = 2;

/**
 * Plain-text summary of suite reports: one row per suite with its counts and duration, a total row when
 * there are several suites, then a line per suite and skip reason (the cases skipped for it) and per
 * suite and unobserved capability, then one line per failed or stale case (naming the subject) and per
 * run error, and last the verdict of the whole run: `passed`, `passed (unobserved: 5 cases not run)` or
 * `FAILED (…)`.
 *
 * @example
 * ```ts
 * console.log(formatReportTable([await runSuite(suite)]));
 * // Suite              Version  Passed  Failed  Skipped  Unobserved  Expected  Stale  Duration
 * // hearthnet.hashing  1.0.0        53       0        0           0         0      0     41 ms
 * //
 * // Verdict: passed
 * ```
 */
export function formatReportTable(reports: readonly SuiteReport[]): string {
  const rows: string[][] = reports.map((r) => [
    rowName(r),
    r.version,
    ...countCells(r.counts),
    formatDuration(r.durationMs),
  ]);
  if (reports.length > 1) {
    const sum = (pick: (r: SuiteReport) => number) => reports.reduce((total, r) => total + pick(r), 0);
    rows.push([
      'Total',
      '',
      ...countCells({
        passed: sum((r) => r.counts.passed),
        failed: sum((r) => r.counts.failed),
        skipped: sum((r) => r.counts.skipped),
        unobserved: sum((r) => r.counts.unobserved),
        expectedFailures: sum((r) => r.counts.expectedFailures),
        stale: sum((r) => r.counts.stale),
      }),
      formatDuration(sum((r) => r.durationMs)),
    ]);
  }
  const lines = alignColumns([[...HEADERS], ...rows]);
  const skips = reports.flatMap((r) => [...describeNotRun(r, 'skipped'), ...describeNotRun(r, 'unobserved')]);
  if (skips.length > 0) lines.push('', ...skips);
  const problems = reports.flatMap(describeProblems);
  if (problems.length > 0) lines.push('', ...problems);
  if (reports.length > 0) lines.push('', `Verdict: ${formatVerdict(reports)}`);
  return lines.join('\n');
}

/**
 * The verdict of a run, in words: `passed`, `passed (unobserved: 5 cases not run)` when cases that
 * observe the implementation could not run, or `FAILED (2 failed, 1 stale, …)`.
 */
export function formatVerdict(reports: readonly SuiteReport[]): string {
  const sum = (pick: (r: SuiteReport) => number) => reports.reduce((total, r) => total + pick(r), 0);
  const failed = sum((r) => r.counts.failed);
  const stale = sum((r) => r.counts.stale);
  const errors = sum((r) => r.errors.length);
  const unobserved = sum((r) => r.counts.unobserved);
  const ok = reports.every((r) => r.ok);
  const parts: string[] = [];
  if (failed > 0) parts.push(`${failed} failed`);
  if (stale > 0) parts.push(`${stale} stale`);
  if (errors > 0) parts.push(`${errors} run ${errors === 1 ? 'error' : 'errors'}`);
  if (unobserved > 0) {
    const notRun = `unobserved: ${unobserved} ${unobserved === 1 ? 'case' : 'cases'} not run`;
    // Nothing else failed, so the run failed because it had to be complete.
    parts.push(!ok && parts.length === 0 ? `${notRun}; a full run was required` : notRun);
  }
  const verdict = ok ? 'passed' : 'FAILED';
  return parts.length === 0 ? verdict : `${verdict} (${parts.join(', ')})`;
}

function countCells(counts: SuiteReport['counts']): string[] {
  return [
    counts.passed,
    counts.failed,
    counts.skipped,
    counts.unobserved,
    counts.expectedFailures,
    counts.stale,
  ].map(String);
}

function rowName(report: SuiteReport): string {
  return report.subject === undefined ? report.suite : `${report.suite} (${report.subject})`;
}

/** The most case ids a skip line names before it says how many more there are. */
const SKIPPED_IDS_SHOWN = 4;

/** One line per reason the report's cases of `status` did not run, naming the first few of them. */
function describeNotRun(report: SuiteReport, status: 'skipped' | 'unobserved'): string[] {
  const byReason = new Map<string, string[]>();
  for (const result of report.results) {
    if (result.status !== status) continue;
    const reason = result.reason ?? 'no reason given';
    byReason.set(reason, [...(byReason.get(reason) ?? []), result.id]);
  }
  const label = status === 'skipped' ? 'SKIP      ' : 'UNOBSERVED';
  return [...byReason].map(([reason, ids]) => {
    const shown = ids.slice(0, SKIPPED_IDS_SHOWN).join(', ');
    const more = ids.length > SKIPPED_IDS_SHOWN ? ` and ${ids.length - SKIPPED_IDS_SHOWN} more` : '';
    return `${label} ${rowName(report)}: ${reason} — ${shown}${more}`;
  });
}

function describeProblems(report: SuiteReport): string[] {
  const lines = report.errors.map((e) => `ERROR      ${rowName(report)}: ${e.name}: ${e.message}`);
  const on = report.subject === undefined ? '' : ` on ${report.subject}`;
  for (const result of report.results) {
    if (result.status !== 'failed' && result.status !== 'stale') continue;
    const label = result.status === 'failed' ? 'FAIL      ' : 'STALE     ';
    const error = result.error ? `: ${result.error.name}: ${result.error.message}` : '';
    lines.push(`${label} ${result.id}${on} (${result.section}, ${result.level})${error}`);
  }
  return lines;
}

function alignColumns(table: readonly string[][]): string[] {
  const widths = HEADERS.map((_, column) => Math.max(...table.map((row) => (row[column] ?? '').length)));
  return table.map((row) =>
    row
      .map((cell, column) =>
        column >= FIRST_NUMERIC_COLUMN ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!),
      )
      .join('  ')
      .trimEnd(),
  );
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}
