import { suiteSetupError, unknownExpectedFailureError } from './errors.js';
import { type CaseOutcome, type CaseStatus, executeCase } from './execute-case.js';
import { formatValue } from './format-value.js';
import { planSuite, type SuiteRunOptions } from './plan.js';
import type { ConformanceCase, ConformanceLevel, ConformanceSuite, SuiteSetup } from './suite.js';

/** The name, message and code of something thrown, kept in reports instead of the value itself. */
export interface ErrorSummary {
  readonly name: string;
  readonly message: string;
  /**
   * The thrown error's `code`, when it is a string: for this package's own errors the
   * `ConformanceErrorCode` (`assertion_failed`, `case_timeout`, `stale_expected_failure` …).
   */
  readonly code?: string;
}

/** The result of one case in a {@link SuiteReport}. */
export interface CaseResult {
  readonly id: string;
  readonly title: string;
  readonly section: string;
  readonly level: ConformanceLevel;
  readonly status: CaseStatus;
  readonly durationMs: number;
  readonly error?: ErrorSummary;
  readonly reason?: string;
}

/** How many cases ended in each status. */
export interface CaseCounts {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly expectedFailures: number;
  readonly stale: number;
}

/** The framework-free, JSON-serialisable result of {@link runSuite}. */
export interface SuiteReport {
  readonly suite: string;
  readonly version: string;
  /** What was under test, when the caller named it (see {@link RunSuiteOptions.subject}). */
  readonly subject?: string;
  /** ISO 8601 time the run started. */
  readonly startedAt: string;
  readonly durationMs: number;
  readonly counts: CaseCounts;
  /** `true` when no case failed or went stale and the run itself reported no error. */
  readonly ok: boolean;
  readonly results: readonly CaseResult[];
  /** Problems of the run rather than of one case: unknown expected-failure ids, a failed setup or dispose. */
  readonly errors: readonly ErrorSummary[];
}

/** Options of {@link runSuite}. */
export interface RunSuiteOptions<Ctx> extends SuiteRunOptions<Ctx> {
  /** Called with each case result as soon as it is known. */
  readonly onResult?: (result: CaseResult) => void;
  /** Names what is under test (e.g. `agentwire, noble backend`); copied into the report. */
  readonly subject?: string;
}

/**
 * Runs a suite without any test framework and reports every case. Cases run one after another; a case
 * whose `requires` capability the implementation does not declare is skipped; a case listed in
 * `expectedFailures` is `expected-failure` when it fails and `stale` (a failure of the run) when it
 * passes.
 *
 * @throws {ConformanceError} `duplicate_case_id`: when the suite declares a case id twice.
 * @throws {ConformanceError} `invalid_run_option`: for a malformed `timeoutMs` or `expectedFailures`.
 * @example
 * ```ts
 * const report = await runSuite(hashingSuite({ blake3Hex }), { expectedFailures: [] });
 * if (!report.ok) console.error(formatReportTable([report]));
 * ```
 */
export async function runSuite<Ctx>(
  suite: ConformanceSuite<Ctx>,
  options: RunSuiteOptions<Ctx> = {},
): Promise<SuiteReport> {
  const plan = planSuite(suite, options);
  const startedAt = new Date();
  const started = performance.now();
  const errors: ErrorSummary[] = [];
  if (plan.unknownExpectedFailures.length > 0) {
    errors.push(summarizeError(unknownExpectedFailureError(suite.name, plan.unknownExpectedFailures)));
  }
  const results: CaseResult[] = [];
  const record = (testCase: ConformanceCase<Ctx>, outcome: CaseOutcome) => {
    const result = toCaseResult(testCase, outcome);
    results.push(result);
    options.onResult?.(result);
  };

  let setup: SuiteSetup<Ctx> | undefined;
  try {
    setup = await suite.setup();
  } catch (cause) {
    const setupError = suiteSetupError(suite.name, cause);
    errors.push(summarizeError(setupError));
    for (const testCase of plan.cases) {
      record(testCase, { status: 'failed', durationMs: 0, error: setupError, reason: 'suite setup failed' });
    }
  }
  if (setup) {
    try {
      for (const testCase of plan.cases) {
        const expected = plan.expectedFailures.has(testCase.id);
        record(testCase, await executeCase(testCase, setup, expected, plan.timeoutMs));
      }
    } finally {
      try {
        await setup.dispose?.();
      } catch (cause) {
        errors.push(summarizeError(cause, 'dispose failed: '));
      }
    }
  }

  const counts = countStatuses(results);
  return {
    suite: suite.name,
    version: suite.version,
    ...(options.subject === undefined ? {} : { subject: options.subject }),
    startedAt: startedAt.toISOString(),
    durationMs: performance.now() - started,
    counts,
    ok: counts.failed === 0 && counts.stale === 0 && errors.length === 0,
    results,
    errors,
  };
}

/** The name, message and string `code` of a thrown value; non-errors are stringified. */
export function summarizeError(error: unknown, messagePrefix = ''): ErrorSummary {
  if (error instanceof Error) {
    const { code } = error as { readonly code?: unknown };
    return {
      name: error.name,
      message: messagePrefix + error.message,
      ...(typeof code === 'string' ? { code } : {}),
    };
  }
  return { name: 'NonErrorThrown', message: `${messagePrefix}threw ${formatValue(error)}` };
}

function toCaseResult<Ctx>(testCase: ConformanceCase<Ctx>, outcome: CaseOutcome): CaseResult {
  return {
    id: testCase.id,
    title: testCase.title,
    section: testCase.section,
    level: testCase.level,
    status: outcome.status,
    durationMs: outcome.durationMs,
    ...(outcome.status === 'passed' || outcome.status === 'skipped'
      ? {}
      : { error: summarizeError(outcome.error) }),
    ...(outcome.reason === undefined ? {} : { reason: outcome.reason }),
  };
}

function countStatuses(results: readonly CaseResult[]): CaseCounts {
  const count = (status: CaseStatus) => results.filter((r) => r.status === status).length;
  return {
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    expectedFailures: count('expected-failure'),
    stale: count('stale'),
  };
}
