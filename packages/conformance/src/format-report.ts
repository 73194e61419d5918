import type { SuiteReport } from './run-suite.js';

const HEADERS = ['Suite', 'Version', 'Passed', 'Failed', 'Skipped', 'Expected', 'Stale', 'Duration'] as const;
// Columns after the first two hold numbers and are right-aligned.
const FIRST_NUMERIC_COLUMN = 2;

/**
 * Plain-text summary of suite reports: one row per suite with its counts and duration, a total row when
 * there are several suites, then a line per suite and skip reason (the cases skipped for it), then one
 * line per failed or stale case and per run error.
 *
 * @example
 * ```ts
 * console.log(formatReportTable([await runSuite(suite)]));
 * // Suite              Version  Passed  Failed  Skipped  Expected  Stale  Duration
 * // hearthnet.hashing  1.0.0        53       0        0         0      0     41 ms
 * ```
 */
export function formatReportTable(reports: readonly SuiteReport[]): string {
  const rows: string[][] = reports.map((r) => [
    r.subject === undefined ? r.suite : `${r.suite} (${r.subject})`,
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
        expectedFailures: sum((r) => r.counts.expectedFailures),
        stale: sum((r) => r.counts.stale),
      }),
      formatDuration(sum((r) => r.durationMs)),
    ]);
  }
  const lines = alignColumns([[...HEADERS], ...rows]);
  const skips = reports.flatMap(describeSkips);
  if (skips.length > 0) lines.push('', ...skips);
  const problems = reports.flatMap(describeProblems);
  if (problems.length > 0) lines.push('', ...problems);
  return lines.join('\n');
}

function countCells(counts: SuiteReport['counts']): string[] {
  return [counts.passed, counts.failed, counts.skipped, counts.expectedFailures, counts.stale].map(String);
}

/** The most case ids a skip line names before it says how many more there are. */
const SKIPPED_IDS_SHOWN = 4;

function describeSkips(report: SuiteReport): string[] {
  const byReason = new Map<string, string[]>();
  for (const result of report.results) {
    if (result.status !== 'skipped') continue;
    const reason = result.reason ?? 'no reason given';
    byReason.set(reason, [...(byReason.get(reason) ?? []), result.id]);
  }
  const name = report.subject === undefined ? report.suite : `${report.suite} (${report.subject})`;
  return [...byReason].map(([reason, ids]) => {
    const shown = ids.slice(0, SKIPPED_IDS_SHOWN).join(', ');
    const more = ids.length > SKIPPED_IDS_SHOWN ? ` and ${ids.length - SKIPPED_IDS_SHOWN} more` : '';
    return `SKIP   ${name}: ${reason} — ${shown}${more}`;
  });
}

function describeProblems(report: SuiteReport): string[] {
  const lines = report.errors.map((e) => `ERROR  ${report.suite}: ${e.name}: ${e.message}`);
  for (const result of report.results) {
    if (result.status !== 'failed' && result.status !== 'stale') continue;
    const label = result.status === 'failed' ? 'FAIL ' : 'STALE';
    const error = result.error ? `: ${result.error.name}: ${result.error.message}` : '';
    lines.push(`${label}  ${result.id} (${result.section}, ${result.level})${error}`);
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
